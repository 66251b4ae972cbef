//go:build !purego

package solvers

import "time"

// interruptLatency bounds how long a solve may run on after an interrupt
// request: one task of the Gram update (~2.6·10⁷ multiply-adds) with the
// assembly kernels.
const interruptLatency = 100 * time.Millisecond
