//go:build goexperiment.simd && amd64

#include "textflag.h"

// func dotLanes4(a, x0, x1, x2, x3 *float64, n16 int, acc *[64]float64)
//
// One matrix row a[0:n16] times four inputs x0..x3 (four minibatch
// lanes), n16 a positive multiple of 16. Each lane keeps Dot's sixteen
// partial sums in two vectors (stripe k: element k mod 16), summed block
// after block with a separate multiply and add, exactly as vec.dot2Blocks
// does for one lane; the row's two vectors are loaded once per block for
// all four lanes. acc receives lane l's two vectors at acc[16l:16l+16].
// Written in assembly because Go's register allocator keeps at most 15
// vectors live and spilled an accumulator per block here.
TEXT ·dotLanes4(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), AX
	MOVQ x0+8(FP), BX
	MOVQ x1+16(FP), CX
	MOVQ x2+24(FP), DX
	MOVQ x3+32(FP), SI
	MOVQ n16+40(FP), DI
	MOVQ acc+48(FP), R8
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	SHRQ $4, DI

loop:
	VMOVUPD (AX), Z8
	VMOVUPD 64(AX), Z9
	VMULPD  (BX), Z8, Z10
	VMULPD  64(BX), Z9, Z11
	VMULPD  (CX), Z8, Z12
	VMULPD  64(CX), Z9, Z13
	VMULPD  (DX), Z8, Z14
	VMULPD  64(DX), Z9, Z15
	VMULPD  (SI), Z8, Z16
	VMULPD  64(SI), Z9, Z17
	VADDPD  Z10, Z0, Z0
	VADDPD  Z11, Z1, Z1
	VADDPD  Z12, Z2, Z2
	VADDPD  Z13, Z3, Z3
	VADDPD  Z14, Z4, Z4
	VADDPD  Z15, Z5, Z5
	VADDPD  Z16, Z6, Z6
	VADDPD  Z17, Z7, Z7
	ADDQ $128, AX
	ADDQ $128, BX
	ADDQ $128, CX
	ADDQ $128, DX
	ADDQ $128, SI
	DECQ DI
	JNZ  loop

	VMOVUPD Z0, (R8)
	VMOVUPD Z1, 64(R8)
	VMOVUPD Z2, 128(R8)
	VMOVUPD Z3, 192(R8)
	VMOVUPD Z4, 256(R8)
	VMOVUPD Z5, 320(R8)
	VMOVUPD Z6, 384(R8)
	VMOVUPD Z7, 448(R8)
	VZEROUPPER
	RET
