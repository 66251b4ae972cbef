// Package kernelrt is the small runtime that the neurogo kernel gives
// cells. Compiled cells (package kernel/native) import it: each cell
// package registers its run function and its symbols here from its init,
// reports its final value with Result and stops with Exit instead of
// ending the executor process. The interpreter binds a few more names
// (GoPanic, Show, EncodePNG) to the executor. It is not meant to be
// imported by hand.
//
// The registry is process state by nature: plugins opened by the executor
// find it because they share the host's copy of this package. All of it is
// safe for concurrent use.
package kernelrt
