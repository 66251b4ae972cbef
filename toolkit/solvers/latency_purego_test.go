//go:build purego

package solvers

import "time"

// interruptLatency with the portable Go loops, which run the same task
// two to four times slower than the assembly kernels.
const interruptLatency = 300 * time.Millisecond
