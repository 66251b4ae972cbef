package kernel

import (
	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/kernel/kernelrt"
)

// requestProcessInterrupt is called in the executor process when the user
// interrupts: besides cancelling the cell's context (which stops the
// interpreter), it sets the process's interrupt flag, which the toolkit's
// long loops (simulation, training) poll.
// Compiled cells also wait on kernelrt's interrupt channel.
func requestProcessInterrupt() { interrupt.Request(); kernelrt.Interrupt() }

// resetProcessInterrupt clears the flag before each cell.
func resetProcessInterrupt() { interrupt.Reset(); kernelrt.BeginCell() }
