//go:build !unix

package main

// processCPU returns 0 where the process's CPU time is not read (the
// benches then report wall-clock figures only).
func processCPU() float64 { return 0 }
