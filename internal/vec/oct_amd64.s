//go:build amd64 && !purego

#include "textflag.h"

// NEURON adds one neuron-vector of an octet stripe at b (bias, encoder,
// decoder: 8 values each, one per ensemble) to the stripe's sums acc:
// acc += decoder · max(0, bias + encoder · x), with t scratch. The same
// operations as ensOctUnit1's Go loop: the encoder product and the bias
// added separately, VMAXPD with zero first (a NaN or −0 rate passes
// through, as in every kernel's rectification), a fused multiply-add
// into the sum.
#define NEURON(b, acc, t) \
	VMULPD      64(b), Z30, t \
	VADDPD      (b), t, t \
	VMAXPD      t, Z31, t \
	VFMADD231PD 128(b), t, acc

// func ensOct1(p *float64, n int, x, s1 *[8]float64)
//
// ensOctUnit1 (amplitude 1, one decoder row) for n ≥ 1 neurons: the
// pack holds the stripes i = j + 4q (j = 0..3 outer, q = 0..3 inner),
// stripe i the neurons i, i+16, … < n, 192 bytes each. For each j the
// four stripes are summed side by side (four independent chains; their
// lengths differ by at most one), then folded in Dot's order:
// t_j = (a_0 + a_1) + (a_2 + a_3), s1 = (t_0 + t_1) + (t_2 + t_3).
// In assembly because Go's register allocator spilled the loop's
// pointers and counters inside the loop.
TEXT ·ensOct1(SB), NOSPLIT, $0-32
	MOVQ    p+0(FP), SI
	MOVQ    n+8(FP), DI
	ADDQ    $15, DI
	MOVQ    x+16(FP), AX
	VMOVUPD (AX), Z30
	VPXORQ  Z31, Z31, Z31
	XORQ    R13, R13

jloop:
	// stripe lengths (n + 15 - i) / 16 for i = j, j+4, j+8, j+12
	MOVQ DI, R8
	SUBQ R13, R8
	LEAQ -4(R8), R9
	LEAQ -8(R8), R10
	LEAQ -12(R8), R11
	SHRQ $4, R8
	SHRQ $4, R9
	SHRQ $4, R10
	SHRQ $4, R11
	MOVQ SI, AX
	IMUL3Q $192, R8, R12
	LEAQ (AX)(R12*1), BX
	IMUL3Q $192, R9, R12
	LEAQ (BX)(R12*1), CX
	IMUL3Q $192, R10, R12
	LEAQ (CX)(R12*1), DX
	IMUL3Q $192, R11, R12
	LEAQ (DX)(R12*1), SI
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	MOVQ   R11, R12
	TESTQ  R12, R12
	JZ     rem

loop:
	NEURON(AX, Z0, Z4)
	NEURON(BX, Z1, Z5)
	NEURON(CX, Z2, Z6)
	NEURON(DX, Z3, Z7)
	ADDQ $192, AX
	ADDQ $192, BX
	ADDQ $192, CX
	ADDQ $192, DX
	DECQ R12
	JNZ  loop

rem:
	CMPQ R8, R11
	JEQ  rem1
	NEURON(AX, Z0, Z4)

rem1:
	CMPQ R9, R11
	JEQ  rem2
	NEURON(BX, Z1, Z5)

rem2:
	CMPQ R10, R11
	JEQ  fold
	NEURON(CX, Z2, Z6)

fold:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	CMPQ   R13, $0
	JNE    j1
	VMOVAPD Z0, Z20
	JMP    next

j1:
	CMPQ   R13, $1
	JNE    j2
	VADDPD Z0, Z20, Z20
	JMP    next

j2:
	CMPQ    R13, $2
	JNE     j3
	VMOVAPD Z0, Z21
	JMP     next

j3:
	VADDPD Z0, Z21, Z21

next:
	INCQ R13
	CMPQ R13, $4
	JLT  jloop
	VADDPD  Z21, Z20, Z20
	MOVQ    s1+24(FP), AX
	VMOVUPD Z20, (AX)
	VZEROUPPER
	RET

// NEURON2 is NEURON for two lanes (inputs Z30 and Z29) sharing the
// neuron-vector's loads.
#define NEURON2(b, acc, accb, t, tb) \
	VMOVUPD     64(b), Z8 \
	VMOVUPD     (b), Z9 \
	VMOVUPD     128(b), Z10 \
	VMULPD      Z8, Z30, t \
	VMULPD      Z8, Z29, tb \
	VADDPD      Z9, t, t \
	VADDPD      Z9, tb, tb \
	VMAXPD      t, Z31, t \
	VMAXPD      tb, Z31, tb \
	VFMADD231PD Z10, t, acc \
	VFMADD231PD Z10, tb, accb

// func ensOct1x2(p *float64, n int, xa, xb, sa, sb *[8]float64)
//
// ensOct1 for two minibatch lanes at once (inputs xa, xb; sums sa, sb),
// each lane's sums in ensOct1's order.
TEXT ·ensOct1x2(SB), NOSPLIT, $0-48
	MOVQ    p+0(FP), SI
	MOVQ    n+8(FP), DI
	ADDQ    $15, DI
	MOVQ    xa+16(FP), AX
	VMOVUPD (AX), Z30
	MOVQ    xb+24(FP), AX
	VMOVUPD (AX), Z29
	VPXORQ  Z31, Z31, Z31
	XORQ    R13, R13

jloop:
	// stripe lengths (n + 15 - i) / 16 for i = j, j+4, j+8, j+12
	MOVQ DI, R8
	SUBQ R13, R8
	LEAQ -4(R8), R9
	LEAQ -8(R8), R10
	LEAQ -12(R8), R11
	SHRQ $4, R8
	SHRQ $4, R9
	SHRQ $4, R10
	SHRQ $4, R11
	MOVQ SI, AX
	IMUL3Q $192, R8, R12
	LEAQ (AX)(R12*1), BX
	IMUL3Q $192, R9, R12
	LEAQ (BX)(R12*1), CX
	IMUL3Q $192, R10, R12
	LEAQ (CX)(R12*1), DX
	IMUL3Q $192, R11, R12
	LEAQ (DX)(R12*1), SI
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
	MOVQ   R11, R12
	TESTQ  R12, R12
	JZ     rem

loop:
	NEURON2(AX, Z0, Z12, Z4, Z16)
	NEURON2(BX, Z1, Z13, Z5, Z17)
	NEURON2(CX, Z2, Z14, Z6, Z18)
	NEURON2(DX, Z3, Z15, Z7, Z19)
	ADDQ $192, AX
	ADDQ $192, BX
	ADDQ $192, CX
	ADDQ $192, DX
	DECQ R12
	JNZ  loop

rem:
	CMPQ R8, R11
	JEQ  rem1
	NEURON2(AX, Z0, Z12, Z4, Z16)

rem1:
	CMPQ R9, R11
	JEQ  rem2
	NEURON2(BX, Z1, Z13, Z5, Z17)

rem2:
	CMPQ R10, R11
	JEQ  fold
	NEURON2(CX, Z2, Z14, Z6, Z18)

fold:
	VADDPD Z1, Z0, Z0
	VADDPD Z3, Z2, Z2
	VADDPD Z2, Z0, Z0
	VADDPD Z13, Z12, Z12
	VADDPD Z15, Z14, Z14
	VADDPD Z14, Z12, Z12
	CMPQ   R13, $0
	JNE    j1
	VMOVAPD Z0, Z20
	VMOVAPD Z12, Z22
	JMP    next

j1:
	CMPQ   R13, $1
	JNE    j2
	VADDPD Z0, Z20, Z20
	VADDPD Z12, Z22, Z22
	JMP    next

j2:
	CMPQ    R13, $2
	JNE     j3
	VMOVAPD Z0, Z21
	VMOVAPD Z12, Z23
	JMP     next

j3:
	VADDPD Z0, Z21, Z21
	VADDPD Z12, Z23, Z23

next:
	INCQ R13
	CMPQ R13, $4
	JLT  jloop
	VADDPD  Z21, Z20, Z20
	MOVQ    sa+32(FP), AX
	VMOVUPD Z20, (AX)
	VADDPD  Z23, Z22, Z22
	MOVQ    sb+40(FP), AX
	VMOVUPD Z22, (AX)
	VZEROUPPER
	RET
