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
