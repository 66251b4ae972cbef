package kernel

import "github.com/neurogo/neurogo/interrupt"

// requestProcessInterrupt is called in the executor process when the user
// interrupts: besides cancelling the cell's context (which stops the
// interpreter), it sets the process's interrupt flag, which the toolkit's
// long loops (simulation, training) poll.
func requestProcessInterrupt() { interrupt.Request() }

// resetProcessInterrupt clears the flag before each cell.
func resetProcessInterrupt() { interrupt.Reset() }
