//go:build amd64 && !purego

#include "textflag.h"

// EnsOct's AVX-512 kernels for two decoder rows (any amplitude) and for
// one decoder row with an amplitude other than 1 (ensOct1 in
// oct_amd64.s is the one-row, amplitude-1 case): the same stripe walk
// and folding as ensOct1, four stripes side by side, each stripe's sums
// of the eight ensembles in one vector per decoder row.

// NEURONAMP1 adds a neuron-vector at b (192-byte blocks) to acc: acc +=
// d1 · amp·max(0, bias + enc·x) (acc2 unused).
#define NEURONAMP1(b, acc, acc2, t) \
	VMULPD      64(b), Z30, t \
	VADDPD      (b), t, t \
	VMAXPD      t, Z31, t \
	VMULPD      t, Z29, t \
	VFMADD231PD 128(b), t, acc

// NEURONUNIT2 adds a neuron-vector at b (256-byte blocks) to both rows'
// sums with amplitude 1.
#define NEURONUNIT2(b, acc, acc2, t) \
	VMULPD      64(b), Z30, t \
	VADDPD      (b), t, t \
	VMAXPD      t, Z31, t \
	VFMADD231PD 128(b), t, acc \
	VFMADD231PD 192(b), t, acc2

// NEURONAMP2 is NEURONUNIT2 with the amplitude.
#define NEURONAMP2(b, acc, acc2, t) \
	VMULPD      64(b), Z30, t \
	VADDPD      (b), t, t \
	VMAXPD      t, Z31, t \
	VMULPD      t, Z29, t \
	VFMADD231PD 128(b), t, acc \
	VFMADD231PD 192(b), t, acc2

// func ensOctAmp1AVX512(p *float64, n int, x *[8]float64, amp float64, s1, s2 *[8]float64)
TEXT ·ensOctAmp1AVX512(SB), NOSPLIT, $0-48
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), DI
	ADDQ         $15, DI
	MOVQ         x+16(FP), AX
	VMOVUPD      (AX), Z30
	VBROADCASTSD amp+24(FP), Z29
	VPXORQ       Z31, Z31, Z31
	XORQ         R13, R13

oa1jloop:
	MOVQ   DI, R8
	SUBQ   R13, R8
	LEAQ   -4(R8), R9
	LEAQ   -8(R8), R10
	LEAQ   -12(R8), R11
	SHRQ   $4, R8
	SHRQ   $4, R9
	SHRQ   $4, R10
	SHRQ   $4, R11
	MOVQ   SI, AX
	IMUL3Q $192, R8, R12
	LEAQ   (AX)(R12*1), BX
	IMUL3Q $192, R9, R12
	LEAQ   (BX)(R12*1), CX
	IMUL3Q $192, R10, R12
	LEAQ   (CX)(R12*1), DX
	IMUL3Q $192, R11, R12
	LEAQ   (DX)(R12*1), SI
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	MOVQ   R11, R12
	TESTQ  R12, R12
	JZ     oa1rem

oa1loop:
	NEURONAMP1(AX, Z0, Z8, Z4)
	NEURONAMP1(BX, Z1, Z9, Z5)
	NEURONAMP1(CX, Z2, Z10, Z6)
	NEURONAMP1(DX, Z3, Z11, Z7)
	ADDQ $192, AX
	ADDQ $192, BX
	ADDQ $192, CX
	ADDQ $192, DX
	DECQ R12
	JNZ  oa1loop

oa1rem:
	CMPQ R8, R11
	JEQ  oa1rem1
	NEURONAMP1(AX, Z0, Z8, Z4)

oa1rem1:
	CMPQ R9, R11
	JEQ  oa1rem2
	NEURONAMP1(BX, Z1, Z9, Z5)

oa1rem2:
	CMPQ R10, R11
	JEQ  oa1fold
	NEURONAMP1(CX, Z2, Z10, Z6)

oa1fold:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	VADDPD Z9, Z8, Z8
	VADDPD Z11, Z10, Z10
	VADDPD Z10, Z8, Z8
	CMPQ   R13, $0
	JNE    oa1j1
	VMOVAPD Z0, Z20
	VMOVAPD Z8, Z22
	JMP    oa1next

oa1j1:
	CMPQ   R13, $1
	JNE    oa1j2
	VADDPD Z0, Z20, Z20
	VADDPD Z8, Z22, Z22
	JMP    oa1next

oa1j2:
	CMPQ    R13, $2
	JNE     oa1j3
	VMOVAPD Z0, Z21
	VMOVAPD Z8, Z23
	JMP     oa1next

oa1j3:
	VADDPD Z0, Z21, Z21
	VADDPD Z8, Z23, Z23

oa1next:
	INCQ R13
	CMPQ R13, $4
	JLT  oa1jloop
	VADDPD  Z21, Z20, Z20
	VADDPD  Z23, Z22, Z22
	MOVQ    s1+32(FP), AX
	VMOVUPD Z20, (AX)
	MOVQ    s2+40(FP), AX
	VMOVUPD Z22, (AX)
	VZEROUPPER
	RET

// func ensOctUnit2AVX512(p *float64, n int, x *[8]float64, amp float64, s1, s2 *[8]float64)
TEXT ·ensOctUnit2AVX512(SB), NOSPLIT, $0-48
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), DI
	ADDQ         $15, DI
	MOVQ         x+16(FP), AX
	VMOVUPD      (AX), Z30
	VBROADCASTSD amp+24(FP), Z29
	VPXORQ       Z31, Z31, Z31
	XORQ         R13, R13

ou2jloop:
	MOVQ   DI, R8
	SUBQ   R13, R8
	LEAQ   -4(R8), R9
	LEAQ   -8(R8), R10
	LEAQ   -12(R8), R11
	SHRQ   $4, R8
	SHRQ   $4, R9
	SHRQ   $4, R10
	SHRQ   $4, R11
	MOVQ   SI, AX
	IMUL3Q $256, R8, R12
	LEAQ   (AX)(R12*1), BX
	IMUL3Q $256, R9, R12
	LEAQ   (BX)(R12*1), CX
	IMUL3Q $256, R10, R12
	LEAQ   (CX)(R12*1), DX
	IMUL3Q $256, R11, R12
	LEAQ   (DX)(R12*1), SI
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	MOVQ   R11, R12
	TESTQ  R12, R12
	JZ     ou2rem

ou2loop:
	NEURONUNIT2(AX, Z0, Z8, Z4)
	NEURONUNIT2(BX, Z1, Z9, Z5)
	NEURONUNIT2(CX, Z2, Z10, Z6)
	NEURONUNIT2(DX, Z3, Z11, Z7)
	ADDQ $256, AX
	ADDQ $256, BX
	ADDQ $256, CX
	ADDQ $256, DX
	DECQ R12
	JNZ  ou2loop

ou2rem:
	CMPQ R8, R11
	JEQ  ou2rem1
	NEURONUNIT2(AX, Z0, Z8, Z4)

ou2rem1:
	CMPQ R9, R11
	JEQ  ou2rem2
	NEURONUNIT2(BX, Z1, Z9, Z5)

ou2rem2:
	CMPQ R10, R11
	JEQ  ou2fold
	NEURONUNIT2(CX, Z2, Z10, Z6)

ou2fold:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	VADDPD Z9, Z8, Z8
	VADDPD Z11, Z10, Z10
	VADDPD Z10, Z8, Z8
	CMPQ   R13, $0
	JNE    ou2j1
	VMOVAPD Z0, Z20
	VMOVAPD Z8, Z22
	JMP    ou2next

ou2j1:
	CMPQ   R13, $1
	JNE    ou2j2
	VADDPD Z0, Z20, Z20
	VADDPD Z8, Z22, Z22
	JMP    ou2next

ou2j2:
	CMPQ    R13, $2
	JNE     ou2j3
	VMOVAPD Z0, Z21
	VMOVAPD Z8, Z23
	JMP     ou2next

ou2j3:
	VADDPD Z0, Z21, Z21
	VADDPD Z8, Z23, Z23

ou2next:
	INCQ R13
	CMPQ R13, $4
	JLT  ou2jloop
	VADDPD  Z21, Z20, Z20
	VADDPD  Z23, Z22, Z22
	MOVQ    s1+32(FP), AX
	VMOVUPD Z20, (AX)
	MOVQ    s2+40(FP), AX
	VMOVUPD Z22, (AX)
	VZEROUPPER
	RET

// func ensOctAmp2AVX512(p *float64, n int, x *[8]float64, amp float64, s1, s2 *[8]float64)
TEXT ·ensOctAmp2AVX512(SB), NOSPLIT, $0-48
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), DI
	ADDQ         $15, DI
	MOVQ         x+16(FP), AX
	VMOVUPD      (AX), Z30
	VBROADCASTSD amp+24(FP), Z29
	VPXORQ       Z31, Z31, Z31
	XORQ         R13, R13

oa2jloop:
	MOVQ   DI, R8
	SUBQ   R13, R8
	LEAQ   -4(R8), R9
	LEAQ   -8(R8), R10
	LEAQ   -12(R8), R11
	SHRQ   $4, R8
	SHRQ   $4, R9
	SHRQ   $4, R10
	SHRQ   $4, R11
	MOVQ   SI, AX
	IMUL3Q $256, R8, R12
	LEAQ   (AX)(R12*1), BX
	IMUL3Q $256, R9, R12
	LEAQ   (BX)(R12*1), CX
	IMUL3Q $256, R10, R12
	LEAQ   (CX)(R12*1), DX
	IMUL3Q $256, R11, R12
	LEAQ   (DX)(R12*1), SI
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	MOVQ   R11, R12
	TESTQ  R12, R12
	JZ     oa2rem

oa2loop:
	NEURONAMP2(AX, Z0, Z8, Z4)
	NEURONAMP2(BX, Z1, Z9, Z5)
	NEURONAMP2(CX, Z2, Z10, Z6)
	NEURONAMP2(DX, Z3, Z11, Z7)
	ADDQ $256, AX
	ADDQ $256, BX
	ADDQ $256, CX
	ADDQ $256, DX
	DECQ R12
	JNZ  oa2loop

oa2rem:
	CMPQ R8, R11
	JEQ  oa2rem1
	NEURONAMP2(AX, Z0, Z8, Z4)

oa2rem1:
	CMPQ R9, R11
	JEQ  oa2rem2
	NEURONAMP2(BX, Z1, Z9, Z5)

oa2rem2:
	CMPQ R10, R11
	JEQ  oa2fold
	NEURONAMP2(CX, Z2, Z10, Z6)

oa2fold:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	VADDPD Z9, Z8, Z8
	VADDPD Z11, Z10, Z10
	VADDPD Z10, Z8, Z8
	CMPQ   R13, $0
	JNE    oa2j1
	VMOVAPD Z0, Z20
	VMOVAPD Z8, Z22
	JMP    oa2next

oa2j1:
	CMPQ   R13, $1
	JNE    oa2j2
	VADDPD Z0, Z20, Z20
	VADDPD Z8, Z22, Z22
	JMP    oa2next

oa2j2:
	CMPQ    R13, $2
	JNE     oa2j3
	VMOVAPD Z0, Z21
	VMOVAPD Z8, Z23
	JMP     oa2next

oa2j3:
	VADDPD Z0, Z21, Z21
	VADDPD Z8, Z23, Z23

oa2next:
	INCQ R13
	CMPQ R13, $4
	JLT  oa2jloop
	VADDPD  Z21, Z20, Z20
	VADDPD  Z23, Z22, Z22
	MOVQ    s1+32(FP), AX
	VMOVUPD Z20, (AX)
	MOVQ    s2+40(FP), AX
	VMOVUPD Z22, (AX)
	VZEROUPPER
	RET

