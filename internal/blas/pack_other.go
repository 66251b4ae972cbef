//go:build purego || !amd64

package blas

import "unsafe"

// packAsm and packT are false: packRows and packCols use their Go
// loops.
var packAsm, packT = false, false

// packCopy is not called without assembly (packAsm is false).
func packCopy(dst, src unsafe.Pointer, n, count, dstep, sstep int) {}

// packT8x8 is not called without assembly (packT is false).
func packT8x8(dst, src *float64, ldd, lds, kb int) {}
