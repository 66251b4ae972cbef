//go:build !purego

#include "textflag.h"

// func packCopy(dst, src unsafe.Pointer, n, count, dstep, sstep int)
// copies count chunks of n bytes (a multiple of 8), the i-th from
// src+i·sstep to dst+i·dstep: one row of a matrix into count packed
// panels. 32-byte AVX moves, then 8-byte ones; ends with VZEROUPPER.
TEXT ·packCopy(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), DX
	MOVQ count+24(FP), CX
	MOVQ dstep+32(FP), R8
	MOVQ sstep+40(FP), R9
	TESTQ CX, CX
	JLE done

chunk:
	MOVQ DX, R10
	XORQ R11, R11

by64:
	CMPQ R10, $64
	JLT by32
	VMOVUPD (SI)(R11*1), Y0
	VMOVUPD 32(SI)(R11*1), Y1
	VMOVUPD Y0, (DI)(R11*1)
	VMOVUPD Y1, 32(DI)(R11*1)
	ADDQ $64, R11
	SUBQ $64, R10
	JMP by64

by32:
	CMPQ R10, $32
	JLT by8
	VMOVUPD (SI)(R11*1), Y0
	VMOVUPD Y0, (DI)(R11*1)
	ADDQ $32, R11
	SUBQ $32, R10

by8:
	CMPQ R10, $8
	JLT next
	MOVQ (SI)(R11*1), R12
	MOVQ R12, (DI)(R11*1)
	ADDQ $8, R11
	SUBQ $8, R10
	JMP by8

next:
	ADDQ R8, DI
	ADDQ R9, SI
	DECQ CX
	JNZ chunk

done:
	VZEROUPPER
	RET

// func packT8x8(dst, src *float64, ldd, lds, kb int)
// transposes kb blocks of 8×8 float64: block b reads 8 values from each
// of the 8 rows src+i·lds+8b (i = 0…7) and writes them as 8 values to
// each of the rows dst+(8b+p)·ldd (p = 0…7); strides in elements.
// AVX-512F; ends with VZEROUPPER.
TEXT ·packT8x8(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ldd+16(FP), R8
	MOVQ lds+24(FP), R9
	MOVQ kb+32(FP), CX
	SHLQ $3, R8
	SHLQ $3, R9
	LEAQ (R9)(R9*2), R10 // 3·lds
	LEAQ (R8)(R8*2), R11 // 3·ldd
	TESTQ CX, CX
	JLE t8done

t8loop:
	MOVQ SI, AX
	VMOVUPD (AX), Z0
	VMOVUPD (AX)(R9*1), Z1
	VMOVUPD (AX)(R9*2), Z2
	VMOVUPD (AX)(R10*1), Z3
	LEAQ (AX)(R9*4), AX
	VMOVUPD (AX), Z4
	VMOVUPD (AX)(R9*1), Z5
	VMOVUPD (AX)(R9*2), Z6
	VMOVUPD (AX)(R10*1), Z7

	VUNPCKLPD Z1, Z0, Z8
	VUNPCKHPD Z1, Z0, Z9
	VUNPCKLPD Z3, Z2, Z10
	VUNPCKHPD Z3, Z2, Z11
	VUNPCKLPD Z5, Z4, Z12
	VUNPCKHPD Z5, Z4, Z13
	VUNPCKLPD Z7, Z6, Z14
	VUNPCKHPD Z7, Z6, Z15

	VSHUFF64X2 $0x88, Z10, Z8, Z16
	VSHUFF64X2 $0xDD, Z10, Z8, Z17
	VSHUFF64X2 $0x88, Z11, Z9, Z18
	VSHUFF64X2 $0xDD, Z11, Z9, Z19
	VSHUFF64X2 $0x88, Z14, Z12, Z20
	VSHUFF64X2 $0xDD, Z14, Z12, Z21
	VSHUFF64X2 $0x88, Z15, Z13, Z22
	VSHUFF64X2 $0xDD, Z15, Z13, Z23

	VSHUFF64X2 $0x88, Z20, Z16, Z0 // column 0
	VSHUFF64X2 $0xDD, Z20, Z16, Z4 // column 4
	VSHUFF64X2 $0x88, Z21, Z17, Z2 // column 2
	VSHUFF64X2 $0xDD, Z21, Z17, Z6 // column 6
	VSHUFF64X2 $0x88, Z22, Z18, Z1 // column 1
	VSHUFF64X2 $0xDD, Z22, Z18, Z5 // column 5
	VSHUFF64X2 $0x88, Z23, Z19, Z3 // column 3
	VSHUFF64X2 $0xDD, Z23, Z19, Z7 // column 7

	MOVQ DI, BX
	VMOVUPD Z0, (BX)
	VMOVUPD Z1, (BX)(R8*1)
	VMOVUPD Z2, (BX)(R8*2)
	VMOVUPD Z3, (BX)(R11*1)
	LEAQ (BX)(R8*4), BX
	VMOVUPD Z4, (BX)
	VMOVUPD Z5, (BX)(R8*1)
	VMOVUPD Z6, (BX)(R8*2)
	VMOVUPD Z7, (BX)(R11*1)

	ADDQ $64, SI
	LEAQ (BX)(R8*4), DI
	DECQ CX
	JNZ t8loop

t8done:
	VZEROUPPER
	RET
