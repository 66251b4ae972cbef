//go:build purego || !amd64

package blas

import "unsafe"

// packAsm is false: packRows uses its Go loops.
var packAsm = false

// packCopy is not called without assembly (packAsm is false).
func packCopy(dst, src unsafe.Pointer, n, count, dstep, sstep int) {}
