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

// packT8x8 (pack_amd64.s) transposes kb blocks of 8×8 float64: block b
// reads 8 values from each of the rows src+i·lds+8b (i = 0…7) and writes
// them to the rows dst+(8b+p)·ldd (p = 0…7), strides in elements.
//
//go:noescape
func packT8x8(dst, src *float64, ldd, lds, kb int)

// packT reports whether packCols transposes float64 through packT8x8
// (AVX-512F); tests switch it off to check the Go loops.
var packT = cpufeat.X86.HasAVX512F
