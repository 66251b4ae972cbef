// Package kernelrt names the small runtime that the neurogo kernel gives
// interpreted cells (for example, reporting a panic recovered in a goroutine
// a cell started). Its symbols are bound by the kernel's executor; it has no
// code of its own and is not meant to be imported by hand.
package kernelrt
