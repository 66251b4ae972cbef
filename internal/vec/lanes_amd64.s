//go:build amd64 && !purego

#include "textflag.h"

// LANE adds one block's two row vectors Z8, Z9 times lane input p (x at
// p, p+64) to the lane's partial sums za, zb with fused multiply-adds, as
// vec.dot2Blocks does.
#define LANE(p, za, zb) \
	VFMADD231PD (p), Z8, za \
	VFMADD231PD 64(p), Z9, zb

// REDUCE folds a lane's sixteen partial sums za, zb (Y/X names ya, yb,
// xa) into one value in Dot's order and stores it at (dst): lane-wise
// (s0..3 + s4..7) + (s8..11 + s12..15), then (t0 + t1) + (t2 + t3), as
// reduce16 does.
#define REDUCE(za, zb, ya, yb, dst) \
	VEXTRACTF64X4 $1, za, Y10 \
	VADDPD Y10, ya, Y10 \
	VEXTRACTF64X4 $1, zb, Y11 \
	VADDPD Y11, yb, Y11 \
	VADDPD Y11, Y10, Y10 \
	VEXTRACTF128 $1, Y10, X11 \
	VHADDPD X11, X10, X10 \
	VHADDPD X10, X10, X10 \
	VMOVSD X10, dst

// LANE2 adds one block of two rows (row 0 in Z8, Z9, row 1 in Z12, Z13)
// times lane input p, loaded once into Z14, Z15, to the lane's partial
// sums a0, a1 (row 0) and b0, b1 (row 1).
#define LANE2(p, a0, a1, b0, b1) \
	VMOVUPD     (p), Z14 \
	VMOVUPD     64(p), Z15 \
	VFMADD231PD Z14, Z8, a0 \
	VFMADD231PD Z15, Z9, a1 \
	VFMADD231PD Z14, Z12, b0 \
	VFMADD231PD Z15, Z13, b1

// TAIL2 adds the last half block (row 0 in Z8, row 1 in Z12) times lane
// input p to the lane's sums; their second halves add 0·0 (Z31).
#define TAIL2(p, a0, a1, b0, b1) \
	VMOVUPD     (p), Z14 \
	VFMADD231PD Z14, Z8, a0 \
	VADDPD      Z31, a1, a1 \
	VFMADD231PD Z14, Z12, b0 \
	VADDPD      Z31, b1, b1

// func dotLanes4(w *float64, stride, rows, n16, tail int, x, out *[4]*float64)
//
// Rows 0..rows-1 of the row-major matrix w (row k at w + k·stride
// values) times four inputs x[0..3] (four minibatch lanes): out[l][k] =
// Dot(row k, x[l]) with n16 ≥ 16 values in whole blocks of sixteen and,
// if tail is 1, eight more (the rest of Dot's last block is zero). Each
// lane keeps Dot's sixteen partial sums (stripe k: element k mod 16) in
// two vectors, summed block after block with fused multiply-adds as
// vec.dot2Blocks does, so every result equals Dot's bit for bit. Rows go
// two at a time: each block loads the two rows' vectors once and every
// lane's input once for sixteen multiply-adds (16 sums in registers; an
// odd last row alone). In assembly because Go's register allocator keeps
// at most 15 vectors live and spilled an accumulator every block.
TEXT ·dotLanes4(SB), NOSPLIT, $8-56
	MOVQ w+0(FP), R11
	MOVQ stride+8(FP), R12
	SHLQ $3, R12
	MOVQ rows+16(FP), R10
	MOVQ n16+24(FP), R13
	SHRQ $4, R13
	MOVQ x+40(FP), R8
	MOVQ out+48(FP), R9
	VPXORQ Z31, Z31, Z31
	MOVQ $0, k-8(SP)
	CMPQ R10, $2
	JLT  single

pair:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	VPXORQ Z22, Z22, Z22
	VPXORQ Z23, Z23, Z23
	MOVQ R11, AX
	MOVQ 0(R8), BX
	MOVQ 8(R8), CX
	MOVQ 16(R8), DX
	MOVQ 24(R8), SI
	MOVQ R13, DI

pblock:
	VMOVUPD (AX), Z8
	VMOVUPD 64(AX), Z9
	VMOVUPD (AX)(R12*1), Z12
	VMOVUPD 64(AX)(R12*1), Z13
	LANE2(BX, Z0, Z1, Z16, Z17)
	LANE2(CX, Z2, Z3, Z18, Z19)
	LANE2(DX, Z4, Z5, Z20, Z21)
	LANE2(SI, Z6, Z7, Z22, Z23)
	ADDQ $128, AX
	ADDQ $128, BX
	ADDQ $128, CX
	ADDQ $128, DX
	ADDQ $128, SI
	DECQ DI
	JNZ  pblock

	CMPQ tail+32(FP), $0
	JEQ  preduce
	VMOVUPD (AX), Z8
	VMOVUPD (AX)(R12*1), Z12
	TAIL2(BX, Z0, Z1, Z16, Z17)
	TAIL2(CX, Z2, Z3, Z18, Z19)
	TAIL2(DX, Z4, Z5, Z20, Z21)
	TAIL2(SI, Z6, Z7, Z22, Z23)

preduce:
	MOVQ k-8(SP), DI
	MOVQ 0(R9), BX
	REDUCE(Z0, Z1, Y0, Y1, (BX)(DI*8))
	REDUCE(Z16, Z17, Y16, Y17, 8(BX)(DI*8))
	MOVQ 8(R9), BX
	REDUCE(Z2, Z3, Y2, Y3, (BX)(DI*8))
	REDUCE(Z18, Z19, Y18, Y19, 8(BX)(DI*8))
	MOVQ 16(R9), BX
	REDUCE(Z4, Z5, Y4, Y5, (BX)(DI*8))
	REDUCE(Z20, Z21, Y20, Y21, 8(BX)(DI*8))
	MOVQ 24(R9), BX
	REDUCE(Z6, Z7, Y6, Y7, (BX)(DI*8))
	REDUCE(Z22, Z23, Y22, Y23, 8(BX)(DI*8))
	ADDQ $2, DI
	MOVQ DI, k-8(SP)
	LEAQ (R11)(R12*2), R11
	SUBQ $2, R10
	CMPQ R10, $2
	JGE  pair

single:
	TESTQ R10, R10
	JZ    done
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	MOVQ R11, AX
	MOVQ 0(R8), BX
	MOVQ 8(R8), CX
	MOVQ 16(R8), DX
	MOVQ 24(R8), SI
	MOVQ R13, DI

block:
	VMOVUPD (AX), Z8
	VMOVUPD 64(AX), Z9
	LANE(BX, Z0, Z1)
	LANE(CX, Z2, Z3)
	LANE(DX, Z4, Z5)
	LANE(SI, Z6, Z7)
	ADDQ $128, AX
	ADDQ $128, BX
	ADDQ $128, CX
	ADDQ $128, DX
	ADDQ $128, SI
	DECQ DI
	JNZ  block

	CMPQ tail+32(FP), $0
	JEQ  reduce
	// the last block's first eight products; its second half adds
	// 0·0 + s = s + 0, as Dot's zero-filled last block does
	VMOVUPD (AX), Z8
	VFMADD231PD (BX), Z8, Z0
	VADDPD  Z31, Z1, Z1
	VFMADD231PD (CX), Z8, Z2
	VADDPD  Z31, Z3, Z3
	VFMADD231PD (DX), Z8, Z4
	VADDPD  Z31, Z5, Z5
	VFMADD231PD (SI), Z8, Z6
	VADDPD  Z31, Z7, Z7

reduce:
	MOVQ k-8(SP), DI
	MOVQ 0(R9), BX
	REDUCE(Z0, Z1, Y0, Y1, (BX)(DI*8))
	MOVQ 8(R9), BX
	REDUCE(Z2, Z3, Y2, Y3, (BX)(DI*8))
	MOVQ 16(R9), BX
	REDUCE(Z4, Z5, Y4, Y5, (BX)(DI*8))
	MOVQ 24(R9), BX
	REDUCE(Z6, Z7, Y6, Y7, (BX)(DI*8))

done:
	VZEROUPPER
	RET

// func dotLanes5(w *float64, stride, rows, n16, tail int, x, out *[5]*float64)
//
// dotLanes4 with a fifth lane (x in R14, sums in Z24–Z27): a batch of
// ten on two cores runs five lanes per core.
TEXT ·dotLanes5(SB), NOSPLIT, $8-56
	MOVQ w+0(FP), R11
	MOVQ stride+8(FP), R12
	SHLQ $3, R12
	MOVQ rows+16(FP), R10
	MOVQ n16+24(FP), R13
	SHRQ $4, R13
	MOVQ x+40(FP), R8
	MOVQ out+48(FP), R9
	VPXORQ Z31, Z31, Z31
	MOVQ $0, k-8(SP)
	CMPQ R10, $2
	JLT  single

pair:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	VPXORQ Z22, Z22, Z22
	VPXORQ Z23, Z23, Z23
	VPXORQ Z24, Z24, Z24
	VPXORQ Z25, Z25, Z25
	VPXORQ Z26, Z26, Z26
	VPXORQ Z27, Z27, Z27
	MOVQ R11, AX
	MOVQ 0(R8), BX
	MOVQ 8(R8), CX
	MOVQ 16(R8), DX
	MOVQ 24(R8), SI
	MOVQ 32(R8), R14
	MOVQ R13, DI

pblock:
	VMOVUPD (AX), Z8
	VMOVUPD 64(AX), Z9
	VMOVUPD (AX)(R12*1), Z12
	VMOVUPD 64(AX)(R12*1), Z13
	LANE2(BX, Z0, Z1, Z16, Z17)
	LANE2(CX, Z2, Z3, Z18, Z19)
	LANE2(DX, Z4, Z5, Z20, Z21)
	LANE2(SI, Z6, Z7, Z22, Z23)
	LANE2(R14, Z24, Z25, Z26, Z27)
	ADDQ $128, AX
	ADDQ $128, BX
	ADDQ $128, CX
	ADDQ $128, DX
	ADDQ $128, SI
	ADDQ $128, R14
	DECQ DI
	JNZ  pblock

	CMPQ tail+32(FP), $0
	JEQ  preduce
	VMOVUPD (AX), Z8
	VMOVUPD (AX)(R12*1), Z12
	TAIL2(BX, Z0, Z1, Z16, Z17)
	TAIL2(CX, Z2, Z3, Z18, Z19)
	TAIL2(DX, Z4, Z5, Z20, Z21)
	TAIL2(SI, Z6, Z7, Z22, Z23)
	TAIL2(R14, Z24, Z25, Z26, Z27)

preduce:
	MOVQ k-8(SP), DI
	MOVQ 0(R9), BX
	REDUCE(Z0, Z1, Y0, Y1, (BX)(DI*8))
	REDUCE(Z16, Z17, Y16, Y17, 8(BX)(DI*8))
	MOVQ 8(R9), BX
	REDUCE(Z2, Z3, Y2, Y3, (BX)(DI*8))
	REDUCE(Z18, Z19, Y18, Y19, 8(BX)(DI*8))
	MOVQ 16(R9), BX
	REDUCE(Z4, Z5, Y4, Y5, (BX)(DI*8))
	REDUCE(Z20, Z21, Y20, Y21, 8(BX)(DI*8))
	MOVQ 24(R9), BX
	REDUCE(Z6, Z7, Y6, Y7, (BX)(DI*8))
	REDUCE(Z22, Z23, Y22, Y23, 8(BX)(DI*8))
	MOVQ 32(R9), BX
	REDUCE(Z24, Z25, Y24, Y25, (BX)(DI*8))
	REDUCE(Z26, Z27, Y26, Y27, 8(BX)(DI*8))
	ADDQ $2, DI
	MOVQ DI, k-8(SP)
	LEAQ (R11)(R12*2), R11
	SUBQ $2, R10
	CMPQ R10, $2
	JGE  pair

single:
	TESTQ R10, R10
	JZ    done
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z24, Z24, Z24
	VPXORQ Z25, Z25, Z25
	MOVQ R11, AX
	MOVQ 0(R8), BX
	MOVQ 8(R8), CX
	MOVQ 16(R8), DX
	MOVQ 24(R8), SI
	MOVQ 32(R8), R14
	MOVQ R13, DI

block:
	VMOVUPD (AX), Z8
	VMOVUPD 64(AX), Z9
	LANE(BX, Z0, Z1)
	LANE(CX, Z2, Z3)
	LANE(DX, Z4, Z5)
	LANE(SI, Z6, Z7)
	LANE(R14, Z24, Z25)
	ADDQ $128, AX
	ADDQ $128, BX
	ADDQ $128, CX
	ADDQ $128, DX
	ADDQ $128, SI
	ADDQ $128, R14
	DECQ DI
	JNZ  block

	CMPQ tail+32(FP), $0
	JEQ  reduce
	// the last block's first eight products; its second half adds
	// 0·0 + s = s + 0, as Dot's zero-filled last block does
	VMOVUPD (AX), Z8
	VFMADD231PD (BX), Z8, Z0
	VADDPD  Z31, Z1, Z1
	VFMADD231PD (CX), Z8, Z2
	VADDPD  Z31, Z3, Z3
	VFMADD231PD (DX), Z8, Z4
	VADDPD  Z31, Z5, Z5
	VFMADD231PD (SI), Z8, Z6
	VADDPD  Z31, Z7, Z7
	VFMADD231PD (R14), Z8, Z24
	VADDPD  Z31, Z25, Z25

reduce:
	MOVQ k-8(SP), DI
	MOVQ 0(R9), BX
	REDUCE(Z0, Z1, Y0, Y1, (BX)(DI*8))
	MOVQ 8(R9), BX
	REDUCE(Z2, Z3, Y2, Y3, (BX)(DI*8))
	MOVQ 16(R9), BX
	REDUCE(Z4, Z5, Y4, Y5, (BX)(DI*8))
	MOVQ 24(R9), BX
	REDUCE(Z6, Z7, Y6, Y7, (BX)(DI*8))
	MOVQ 32(R9), BX
	REDUCE(Z24, Z25, Y24, Y25, (BX)(DI*8))

done:
	VZEROUPPER
	RET
