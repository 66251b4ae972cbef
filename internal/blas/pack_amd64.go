//go:build !purego

package blas

import (
	"unsafe"

	"github.com/neurogo/neurogo/internal/cpufeat"
)

// packCopy (pack_amd64.s) copies count chunks of n bytes (a multiple of
// 8), the i-th from src+i·sstep to dst+i·dstep, with AVX moves.
//
//go:noescape
func packCopy(dst, src unsafe.Pointer, n, count, dstep, sstep int)

// packAsm reports whether packRows copies through packCopy (AVX, as
// every non-portable amd64 kernel needs); tests switch it off to check
// the Go loops.
var packAsm = cpufeat.X86.HasAVX2
