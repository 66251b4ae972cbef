//go:build arm64 && !purego

#include "textflag.h"

// NEON (Advanced SIMD) kernels of the loops in neon_arm64.go. Each vector
// register holds two float64 lanes; the results equal the Go loops of
// generic.go bit for bit (see doc.go for Dot's summation order), but for
// the payload of a NaN made from two NaNs, which depends on the operand
// order.
//
// Go's arm64 assembler has VFMLA but none of the other floating-point
// vector instructions used here; all are encoded with WORD, so that the
// macros can take register numbers (in the ARM operand order d, n, m)
// and step them:
//
//	FADD2D(d, n, m)   FADD  Vd.2D, Vn.2D, Vm.2D   (Vn + Vm)
//	FSUB2D(d, n, m)   FSUB  Vd.2D, Vn.2D, Vm.2D   (Vn − Vm)
//	FMUL2D(d, n, m)   FMUL  Vd.2D, Vn.2D, Vm.2D   (Vn · Vm)
//	FMAX2D(d, n, m)   FMAX  Vd.2D, Vn.2D, Vm.2D   (NaN if either is NaN; max(−0, +0) = +0: Go's max)
//	FMLA2D(d, n, m)   FMLA  Vd.2D, Vn.2D, Vm.2D   (Vd + Vn·Vm, fused: math.FMA)
//	FADDP2D(d, n, m)  FADDP Vd.2D, Vn.2D, Vm.2D   (Vn[0]+Vn[1], Vm[0]+Vm[1])
//	FADDPD(d, n)      FADDP Dd, Vn.2D             (Vn[0]+Vn[1])
#define FADD2D(d, n, m) WORD $(0x4E60D400 | ((m)<<16) | ((n)<<5) | (d))
#define FSUB2D(d, n, m) WORD $(0x4EE0D400 | ((m)<<16) | ((n)<<5) | (d))
#define FMUL2D(d, n, m) WORD $(0x6E60DC00 | ((m)<<16) | ((n)<<5) | (d))
#define FMAX2D(d, n, m) WORD $(0x4E60F400 | ((m)<<16) | ((n)<<5) | (d))
#define FMLA2D(d, n, m) WORD $(0x4E60CC00 | ((m)<<16) | ((n)<<5) | (d))
#define FADDP2D(d, n, m) WORD $(0x6E60D400 | ((m)<<16) | ((n)<<5) | (d))
#define FADDPD(d, n) WORD $(0x7E70D800 | ((n)<<5) | (d))

// OP on four consecutive registers: X4 steps all three operands, X4M keeps
// m fixed (a broadcast), X4N keeps n fixed.
#define X4(OP, d, n, m) OP(d, n, m); OP(d+1, n+1, m+1); OP(d+2, n+2, m+2); OP(d+3, n+3, m+3)
#define X4M(OP, d, n, m) OP(d, n, m); OP(d+1, n+1, m); OP(d+2, n+2, m); OP(d+3, n+3, m)
#define X4N(OP, d, n, m) OP(d, n, m); OP(d+1, n, m+1); OP(d+2, n, m+2); OP(d+3, n, m+3)

#define ZERO8 \
	VEOR V0.B16, V0.B16, V0.B16; VEOR V1.B16, V1.B16, V1.B16 \
	VEOR V2.B16, V2.B16, V2.B16; VEOR V3.B16, V3.B16, V3.B16 \
	VEOR V4.B16, V4.B16, V4.B16; VEOR V5.B16, V5.B16, V5.B16 \
	VEOR V6.B16, V6.B16, V6.B16; VEOR V7.B16, V7.B16, V7.B16

#define ZERO16 \
	ZERO8 \
	VEOR V8.B16, V8.B16, V8.B16; VEOR V9.B16, V9.B16, V9.B16 \
	VEOR V10.B16, V10.B16, V10.B16; VEOR V11.B16, V11.B16, V11.B16 \
	VEOR V12.B16, V12.B16, V12.B16; VEOR V13.B16, V13.B16, V13.B16 \
	VEOR V14.B16, V14.B16, V14.B16; VEOR V15.B16, V15.B16, V15.B16

// REDUCE16 combines Dot's sixteen partial sums s[2k], s[2k+1] in
// registers b+k (k < 8) as (s[l] + s[4+l]) + (s[8+l] + s[12+l]) lane-wise,
// then (t0 + t1) + (t2 + t3), into Dt (t..t+3 are scratch).
#define REDUCE16(b, t) \
	FADD2D(t, b, b+2); FADD2D(t+1, b+4, b+6); FADD2D(t, t, t+1) \
	FADD2D(t+2, b+1, b+3); FADD2D(t+3, b+5, b+7); FADD2D(t+2, t+2, t+3) \
	FADDP2D(t, t, t+2); FADDPD(t, t)

// func dotNEON(a, x *float64, n int) float64
TEXT ·dotNEON(SB), NOSPLIT, $0-32
	MOVD a+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2
	ZERO8
	LSR  $4, R2, R3
	CBZ  R3, dottail

dotloop:
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R1), [V20.D2, V21.D2, V22.D2, V23.D2]
	VLD1.P 64(R0), [V24.D2, V25.D2, V26.D2, V27.D2]
	VLD1.P 64(R1), [V28.D2, V29.D2, V30.D2, V31.D2]
	X4(FMLA2D, 0, 16, 20)
	X4(FMLA2D, 4, 24, 28)
	SUBS   $1, R3
	BNE    dotloop

dottail:
	// the last n mod 16 elements, a pair at a time into their partial
	// sums; a last single one with a zero beside it (0·0 + s = s: a
	// partial sum is never −0)
	AND $15, R2

#define DOTPAIR(k, odd) \
	CMP $2, R2; BLT odd \
	VLD1.P 16(R0), [V16.D2]; VLD1.P 16(R1), [V17.D2] \
	FMLA2D(k, 16, 17); SUB $2, R2

#define DOTODD(k) \
	CBZ R2, dotsum \
	FMOVD (R0), F16; FMOVD (R1), F17 \
	FMLA2D(k, 16, 17); B dotsum

	DOTPAIR(0, dotodd0)
	DOTPAIR(1, dotodd1)
	DOTPAIR(2, dotodd2)
	DOTPAIR(3, dotodd3)
	DOTPAIR(4, dotodd4)
	DOTPAIR(5, dotodd5)
	DOTPAIR(6, dotodd6)
	DOTODD(7)

dotodd0:
	DOTODD(0)

dotodd1:
	DOTODD(1)

dotodd2:
	DOTODD(2)

dotodd3:
	DOTODD(3)

dotodd4:
	DOTODD(4)

dotodd5:
	DOTODD(5)

dotodd6:
	DOTODD(6)

dotsum:
	REDUCE16(0, 16)
	FMOVD F16, ret+24(FP)
	RET

// func dot2StepNEON(a, b, x *float64, n, count, sa, sb, sx int, oa, ob *float64, so int)
//
// count times: *oa, *ob = Dot(a[:n], x), Dot(b[:n], x); then a, b, x,
// oa and ob advance by sa, sb, sx, so and so bytes. Dot2 is one step;
// DotRows steps two rows of w at a time past one x, DotRowsLanes one row
// of w past two lanes' inputs.
TEXT ·dot2StepNEON(SB), NOSPLIT, $0-88
	MOVD a+0(FP), R10
	MOVD b+8(FP), R11
	MOVD x+16(FP), R12
	MOVD count+32(FP), R15
	MOVD oa+64(FP), R13
	MOVD ob+72(FP), R14
	CBZ  R15, dot2done

dot2step:
	MOVD R10, R0
	MOVD R11, R3
	MOVD R12, R1
	MOVD n+24(FP), R2
	ZERO16
	LSR  $4, R2, R4
	CBZ  R4, dot2tail

dot2loop:
	VLD1.P 64(R1), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R0), [V20.D2, V21.D2, V22.D2, V23.D2]
	VLD1.P 64(R3), [V24.D2, V25.D2, V26.D2, V27.D2]
	X4(FMLA2D, 0, 20, 16)
	X4(FMLA2D, 8, 24, 16)
	VLD1.P 64(R1), [V16.D2, V17.D2, V18.D2, V19.D2]
	VLD1.P 64(R0), [V20.D2, V21.D2, V22.D2, V23.D2]
	VLD1.P 64(R3), [V24.D2, V25.D2, V26.D2, V27.D2]
	X4(FMLA2D, 4, 20, 16)
	X4(FMLA2D, 12, 24, 16)
	SUBS   $1, R4
	BNE    dot2loop

dot2tail:
	AND $15, R2

#define DOT2PAIR(k, odd) \
	CMP $2, R2; BLT odd \
	VLD1.P 16(R1), [V16.D2]; VLD1.P 16(R0), [V17.D2]; VLD1.P 16(R3), [V18.D2] \
	FMLA2D(k, 17, 16); FMLA2D(k+8, 18, 16); SUB $2, R2

#define DOT2ODD(k) \
	CBZ R2, dot2sum \
	FMOVD (R1), F16; FMOVD (R0), F17; FMOVD (R3), F18 \
	FMLA2D(k, 17, 16); FMLA2D(k+8, 18, 16); B dot2sum

	DOT2PAIR(0, dot2odd0)
	DOT2PAIR(1, dot2odd1)
	DOT2PAIR(2, dot2odd2)
	DOT2PAIR(3, dot2odd3)
	DOT2PAIR(4, dot2odd4)
	DOT2PAIR(5, dot2odd5)
	DOT2PAIR(6, dot2odd6)
	DOT2ODD(7)

dot2odd0:
	DOT2ODD(0)

dot2odd1:
	DOT2ODD(1)

dot2odd2:
	DOT2ODD(2)

dot2odd3:
	DOT2ODD(3)

dot2odd4:
	DOT2ODD(4)

dot2odd5:
	DOT2ODD(5)

dot2odd6:
	DOT2ODD(6)

dot2sum:
	REDUCE16(0, 16)
	REDUCE16(8, 20)
	FMOVD F16, (R13)
	FMOVD F20, (R14)
	MOVD  so+80(FP), R5
	ADD   R5, R13
	ADD   R5, R14
	MOVD  sa+40(FP), R5
	ADD   R5, R10
	MOVD  sb+48(FP), R5
	ADD   R5, R11
	MOVD  sx+56(FP), R5
	ADD   R5, R12
	SUBS  $1, R15
	BNE   dot2step

dot2done:
	RET

// EnsOct. Registers: V0–V3 the current stripe's sums of the eight
// ensembles (first decoder row or lane a), V4–V7 the second row's or lane
// b's, V8 zero, V9 the amplitude, V10–V13 x (lane a), V14–V17 lane b's x,
// V18–V29 one block of the pack.

// r = max(bias + enc·x, 0) into V22–V25 from bias V18–V21, enc V22–V25
#define OCTRATES \
	VLD1.P 64(R0), [V18.D2, V19.D2, V20.D2, V21.D2] \
	VLD1.P 64(R0), [V22.D2, V23.D2, V24.D2, V25.D2] \
	X4(FMUL2D, 22, 22, 10) \
	X4(FADD2D, 22, 18, 22) \
	X4M(FMAX2D, 22, 22, 8)

#define OCTAMP X4N(FMUL2D, 22, 9, 22)

#define OCTD1 \
	VLD1.P 64(R0), [V26.D2, V27.D2, V28.D2, V29.D2] \
	X4(FMLA2D, 0, 26, 22)

#define OCTD2 \
	VLD1.P 64(R0), [V18.D2, V19.D2, V20.D2, V21.D2] \
	X4(FMLA2D, 4, 18, 22)

// REDOCT reads four stripes' sums (8 lanes each) at Rb, advancing it, and
// leaves (s0 + s1) + (s2 + s3) in registers t..t+3.
#define REDOCT(Rb, t) \
	VLD1.P 64(Rb), [V16.D2, V17.D2, V18.D2, V19.D2] \
	VLD1.P 64(Rb), [V20.D2, V21.D2, V22.D2, V23.D2] \
	VLD1.P 64(Rb), [V24.D2, V25.D2, V26.D2, V27.D2] \
	VLD1.P 64(Rb), [V28.D2, V29.D2, V30.D2, V31.D2] \
	X4(FADD2D, 16, 16, 20) \
	X4(FADD2D, 24, 24, 28) \
	X4(FADD2D, t, 16, 24)

// the sixteen stripes' sums at Rb (in the pack's stripe order, so group
// l = 0…3 holds stripes l, 4+l, 8+l, 12+l) combined as Dot's, stored at Rout
#define REDUCEOCT(Rb, Rout) \
	REDOCT(Rb, 0) \
	REDOCT(Rb, 4) \
	X4(FADD2D, 0, 0, 4) \
	REDOCT(Rb, 4) \
	REDOCT(Rb, 8) \
	X4(FADD2D, 4, 4, 8) \
	X4(FADD2D, 0, 0, 4) \
	VST1 [V0.D2, V1.D2, V2.D2, V3.D2], (Rout)

// func ensOctNEON(p *float64, n, mode int, xa, xb *[8]float64, amp float64, s1, s2 *[8]float64)
//
// mode 0: one decoder row, amplitude 1; 1: one row, amp; 2: two rows,
// amplitude 1 (s2 the second row's sums); 3: two rows, amp; 4: one row,
// amplitude 1, two inputs xa and xb (s1 and s2 their sums). n > 0. The
// stripes' sums go to the frame (buf: first row or lane a at 0, the
// other at 1024), then are combined.
TEXT ·ensOctNEON(SB), $2048-64
	MOVD  p+0(FP), R0
	MOVD  n+8(FP), R1
	MOVD  mode+16(FP), R2
	MOVD  xa+24(FP), R3
	VLD1  (R3), [V10.D2, V11.D2, V12.D2, V13.D2]
	MOVD  xb+32(FP), R3
	VLD1  (R3), [V14.D2, V15.D2, V16.D2, V17.D2]
	FMOVD amp+40(FP), F9
	VDUP  V9.D[0], V9.D2
	VEOR  V8.B16, V8.B16, V8.B16
	MOVD  $buf-2048(SP), R20
	ADD   $1024, R20, R21
	MOVD  $0, R5

octstripe:
	// stripe k = pos/4 + 4·(pos mod 4) has ceil((n − k)/16) neurons
	LSR  $2, R5, R6
	AND  $3, R5, R7
	ADD  R7<<2, R6, R6
	SUB  R6, R1, R7
	ADD  $15, R7
	ASR  $4, R7
	ZERO8
	CBZ  R7, octstore
	CMP  $1, R2
	BEQ  octone
	BLT  octunit1
	CMP  $3, R2
	BEQ  octtwo
	BLT  octunit2

octlanes2:
	VLD1.P 64(R0), [V18.D2, V19.D2, V20.D2, V21.D2]
	VLD1.P 64(R0), [V22.D2, V23.D2, V24.D2, V25.D2]
	X4(FMUL2D, 26, 22, 14)
	X4(FMUL2D, 22, 22, 10)
	X4(FADD2D, 26, 18, 26)
	X4(FADD2D, 22, 18, 22)
	X4M(FMAX2D, 26, 26, 8)
	X4M(FMAX2D, 22, 22, 8)
	VLD1.P 64(R0), [V18.D2, V19.D2, V20.D2, V21.D2]
	X4(FMLA2D, 0, 18, 22)
	X4(FMLA2D, 4, 18, 26)
	SUBS   $1, R7
	BNE    octlanes2
	B      octstore

octunit1:
	OCTRATES
	OCTD1
	SUBS $1, R7
	BNE  octunit1
	B    octstore

octone:
	OCTRATES
	OCTAMP
	OCTD1
	SUBS $1, R7
	BNE  octone
	B    octstore

octunit2:
	OCTRATES
	OCTD1
	OCTD2
	SUBS $1, R7
	BNE  octunit2
	B    octstore

octtwo:
	OCTRATES
	OCTAMP
	OCTD1
	OCTD2
	SUBS $1, R7
	BNE  octtwo

octstore:
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R20)
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R21)
	ADD    $1, R5
	CMP    $16, R5
	BLT    octstripe

	MOVD $buf-2048(SP), R20
	MOVD s1+48(FP), R3
	REDUCEOCT(R20, R3)
	CMP  $2, R2
	BLT  octdone
	MOVD s2+56(FP), R3
	REDUCEOCT(R20, R3) // R20 now at the second half

octdone:
	RET

// The element-wise loops take n a multiple of 8 (the callers run the
// rest in Go), eight values in four registers at a time.

// func reluNEON(out, j *float64, n int, amp float64)
TEXT ·reluNEON(SB), NOSPLIT, $0-32
	MOVD  out+0(FP), R0
	MOVD  j+8(FP), R1
	MOVD  n+16(FP), R2
	FMOVD amp+24(FP), F16
	VDUP  V16.D[0], V16.D2
	VEOR  V17.B16, V17.B16, V17.B16
	LSR   $3, R2
	CBZ   R2, reludone

reluloop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	X4M(FMAX2D, 0, 0, 17)
	X4N(FMUL2D, 0, 16, 0)
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS   $1, R2
	BNE    reluloop

reludone:
	RET

// func axpyNEON(y, a *float64, n int, s float64)
TEXT ·axpyNEON(SB), NOSPLIT, $0-32
	MOVD  y+0(FP), R0
	MOVD  a+8(FP), R1
	MOVD  n+16(FP), R2
	FMOVD s+24(FP), F16
	VDUP  V16.D[0], V16.D2
	LSR   $3, R2
	CBZ   R2, axpydone

axpyloop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1   (R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	X4M(FMUL2D, 0, 0, 16)
	X4(FADD2D, 4, 4, 0)
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R0)
	SUBS   $1, R2
	BNE    axpyloop

axpydone:
	RET

// func scaleNEON(y, a *float64, n int, s float64)
TEXT ·scaleNEON(SB), NOSPLIT, $0-32
	MOVD  y+0(FP), R0
	MOVD  a+8(FP), R1
	MOVD  n+16(FP), R2
	FMOVD s+24(FP), F16
	VDUP  V16.D[0], V16.D2
	LSR   $3, R2
	CBZ   R2, scaledone

scaleloop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	X4M(FMUL2D, 0, 0, 16)
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS   $1, R2
	BNE    scaleloop

scaledone:
	RET

// func mulIncNEON(y, a, x *float64, n int)
TEXT ·mulIncNEON(SB), NOSPLIT, $0-32
	MOVD y+0(FP), R0
	MOVD a+8(FP), R1
	MOVD x+16(FP), R3
	MOVD n+24(FP), R2
	LSR  $3, R2
	CBZ  R2, mulincdone

mulincloop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R3), [V8.D2, V9.D2, V10.D2, V11.D2]
	VLD1   (R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	X4(FMUL2D, 0, 0, 8)
	X4(FADD2D, 4, 4, 0)
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R0)
	SUBS   $1, R2
	BNE    mulincloop

mulincdone:
	RET

// func addNEON(y, x *float64, n int)
TEXT ·addNEON(SB), NOSPLIT, $0-24
	MOVD y+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2
	LSR  $3, R2
	CBZ  R2, adddone

addloop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1   (R0), [V4.D2, V5.D2, V6.D2, V7.D2]
	X4(FADD2D, 4, 4, 0)
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R0)
	SUBS   $1, R2
	BNE    addloop

adddone:
	RET

// func axpyToNEON(y, b, a *float64, n int, s float64)
TEXT ·axpyToNEON(SB), NOSPLIT, $0-40
	MOVD  y+0(FP), R0
	MOVD  b+8(FP), R1
	MOVD  a+16(FP), R3
	MOVD  n+24(FP), R2
	FMOVD s+32(FP), F16
	VDUP  V16.D[0], V16.D2
	LSR   $3, R2
	CBZ   R2, axpytodone

axpytoloop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R3), [V4.D2, V5.D2, V6.D2, V7.D2]
	X4M(FMUL2D, 4, 4, 16)
	X4(FADD2D, 0, 0, 4)
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS   $1, R2
	BNE    axpytoloop

axpytodone:
	RET

// func axpyReluNEON(out, b, a *float64, n int, s, amp float64)
TEXT ·axpyReluNEON(SB), NOSPLIT, $0-48
	MOVD  out+0(FP), R0
	MOVD  b+8(FP), R1
	MOVD  a+16(FP), R3
	MOVD  n+24(FP), R2
	FMOVD s+32(FP), F16
	VDUP  V16.D[0], V16.D2
	FMOVD amp+40(FP), F17
	VDUP  V17.D[0], V17.D2
	VEOR  V18.B16, V18.B16, V18.B16
	LSR   $3, R2
	CBZ   R2, axpyreludone

axpyreluloop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R3), [V4.D2, V5.D2, V6.D2, V7.D2]
	X4M(FMUL2D, 4, 4, 16)
	X4(FADD2D, 0, 0, 4)
	X4M(FMAX2D, 0, 0, 18)
	X4N(FMUL2D, 0, 17, 0)
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS   $1, R2
	BNE    axpyreluloop

axpyreludone:
	RET

// func gainReluNEON(out, x, gn, b *float64, n int, amp float64)
TEXT ·gainReluNEON(SB), NOSPLIT, $0-48
	MOVD  out+0(FP), R0
	MOVD  x+8(FP), R1
	MOVD  gn+16(FP), R3
	MOVD  b+24(FP), R4
	MOVD  n+32(FP), R2
	FMOVD amp+40(FP), F17
	VDUP  V17.D[0], V17.D2
	VEOR  V18.B16, V18.B16, V18.B16
	LSR   $3, R2
	CBZ   R2, gainreludone

gainreluloop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R3), [V4.D2, V5.D2, V6.D2, V7.D2]
	VLD1.P 64(R4), [V8.D2, V9.D2, V10.D2, V11.D2]
	X4(FMUL2D, 4, 4, 0)
	X4(FADD2D, 4, 4, 8)
	X4M(FMAX2D, 4, 4, 18)
	X4N(FMUL2D, 4, 17, 4)
	VST1.P [V4.D2, V5.D2, V6.D2, V7.D2], 64(R0)
	SUBS   $1, R2
	BNE    gainreluloop

gainreludone:
	RET

// func lowpassNEON(y, x, u *float64, n int, a, b float64)
TEXT ·lowpassNEON(SB), NOSPLIT, $0-48
	MOVD  y+0(FP), R0
	MOVD  x+8(FP), R1
	MOVD  u+16(FP), R3
	MOVD  n+24(FP), R2
	FMOVD a+32(FP), F16
	VDUP  V16.D[0], V16.D2
	FMOVD b+40(FP), F17
	VDUP  V17.D[0], V17.D2
	LSR   $3, R2
	CBZ   R2, lowpassdone

lowpassloop:
	VLD1   (R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	VLD1.P 64(R3), [V4.D2, V5.D2, V6.D2, V7.D2]
	X4N(FMUL2D, 0, 16, 0)
	X4N(FMUL2D, 4, 17, 4)
	X4(FADD2D, 0, 0, 4)
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R1)
	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	SUBS   $1, R2
	BNE    lowpassloop

lowpassdone:
	RET

// func nanSumNEON(x *float64, n int) float64 sums v − v over x (n a
// positive multiple of 8): NaN when x holds a NaN or ±Inf, else 0.
TEXT ·nanSumNEON(SB), NOSPLIT, $0-24
	MOVD x+0(FP), R0
	MOVD n+8(FP), R2
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	LSR  $3, R2

nansumloop:
	VLD1.P 64(R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	X4(FSUB2D, 16, 16, 16)
	X4(FADD2D, 0, 0, 16)
	SUBS   $1, R2
	BNE    nansumloop

	FADD2D(0, 0, 1)
	FADD2D(2, 2, 3)
	FADD2D(0, 0, 2)
	FADDPD(0, 0)
	FMOVD F0, ret+16(FP)
	RET

// func vecMatNEON(y, x, m *float64, nx, d, cols int) sets y[j] = Σ_l
// x[l]·m[l·d+j] for j < cols (a positive multiple of 8), nx > 0, eight
// columns at a time down the rows.
TEXT ·vecMatNEON(SB), NOSPLIT, $0-48
	MOVD y+0(FP), R0
	MOVD x+8(FP), R1
	MOVD m+16(FP), R3
	MOVD nx+24(FP), R4
	MOVD d+32(FP), R5
	MOVD cols+40(FP), R2
	LSL  $3, R5
	LSR  $3, R2

vecmatcol:
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	MOVD R1, R6
	MOVD R3, R8
	MOVD R4, R7

vecmatrow:
	VLD1R.P 8(R6), [V16.D2]
	VLD1    (R8), [V20.D2, V21.D2, V22.D2, V23.D2]
	ADD     R5, R8
	X4N(FMUL2D, 20, 16, 20)
	X4(FADD2D, 0, 0, 20)
	SUBS    $1, R7
	BNE     vecmatrow

	VST1.P [V0.D2, V1.D2, V2.D2, V3.D2], 64(R0)
	ADD    $64, R3
	SUBS   $1, R2
	BNE    vecmatcol
	RET

// LIF. Compares give all-ones lanes where true; BIT inserts Vn's bits into
// Vd where Vm's are set, BIC clears them.
//
//	FCMGT2D(d, n, m)  FCMGT Vd.2D, Vn.2D, Vm.2D  (Vn > Vm)
//	FCMEQ2D(d, n, m)  FCMEQ Vd.2D, Vn.2D, Vm.2D  (Vn == Vm)
//	BIT16B(d, n, m)   BIT   Vd.16B, Vn.16B, Vm.16B
//	BIC16B(d, n, m)   BIC   Vd.16B, Vn.16B, Vm.16B  (Vn & ^Vm)
//	ORR16B(d, n, m)   ORR   Vd.16B, Vn.16B, Vm.16B
#define FCMGT2D(d, n, m) WORD $(0x6EE0E400 | ((m)<<16) | ((n)<<5) | (d))
#define FCMEQ2D(d, n, m) WORD $(0x4E60E400 | ((m)<<16) | ((n)<<5) | (d))
#define BIT16B(d, n, m) WORD $(0x6EA01C00 | ((m)<<16) | ((n)<<5) | (d))
#define BIC16B(d, n, m) WORD $(0x4E601C00 | ((m)<<16) | ((n)<<5) | (d))
#define ORR16B(d, n, m) WORD $(0x4EA01C00 | ((m)<<16) | ((n)<<5) | (d))

// func lifNEON(j, out, voltage, refractory *float64, n int, dt, minV, eFull, eNone float64) int
//
// Steps neurons two at a time (n even, > 0) as lifOne does, while both of
// a pair integrate the whole step (e = eFull) or none of it (e = eNone)
// and neither spikes; returns how many it stepped (even), leaving the
// pair that stopped it untouched.
TEXT ·lifNEON(SB), NOSPLIT, $0-80
	MOVD  j+0(FP), R0
	MOVD  out+8(FP), R1
	MOVD  voltage+16(FP), R2
	MOVD  refractory+24(FP), R3
	MOVD  n+32(FP), R4
	FMOVD dt+40(FP), F20
	VDUP  V20.D[0], V20.D2
	FMOVD minV+48(FP), F22
	VDUP  V22.D[0], V22.D2
	FMOVD eFull+56(FP), F23
	VDUP  V23.D[0], V23.D2
	FMOVD eNone+64(FP), F24
	VDUP  V24.D[0], V24.D2
	FMOVD $1.0, F21
	VDUP  V21.D[0], V21.D2
	VEOR  V25.B16, V25.B16, V25.B16
	MOVD  $0, R5

lifloop:
	VLD1 (R3), [V0.D2]
	FSUB2D(1, 0, 20)   // rt = refractory − dt
	FSUB2D(2, 20, 1)   // d = dt − rt
	FCMGT2D(3, 25, 2)  // d < 0
	FCMGT2D(4, 2, 20)  // d > dt
	ORR16B(5, 2, 2)
	BIT16B(5, 20, 4)   // d > dt: dt
	BIC16B(5, 5, 3)    // d < 0: 0 (first, as in lifOne)
	FCMEQ2D(6, 5, 20)  // whole step
	FCMEQ2D(7, 5, 25)  // none of it
	ORR16B(8, 6, 7)
	VMOV  V8.D[0], R6
	VMOV  V8.D[1], R7
	AND   R6, R7
	MVN   R7, R7
	CBNZ  R7, lifstop  // a lane in between (or NaN): expm1, in Go
	ORR16B(8, 24, 24)
	BIT16B(8, 23, 6)   // e = eFull where whole, else eNone
	VLD1  (R2), [V9.D2]
	VLD1  (R0), [V10.D2]
	FSUB2D(11, 10, 9)  // j − v
	FMUL2D(11, 11, 8)  // (j − v)·e
	FSUB2D(12, 9, 11)  // v − (j − v)·e
	FCMGT2D(13, 12, 21)
	VMOV  V13.D[0], R6
	VMOV  V13.D[1], R7
	ORR   R6, R7
	CBNZ  R7, lifstop  // a spike: in Go
	FCMGT2D(14, 22, 12)
	BIT16B(12, 22, 14) // v < minV: minV
	VST1.P [V25.D2], 16(R1)
	VST1.P [V12.D2], 16(R2)
	VST1.P [V1.D2], 16(R3)
	ADD   $16, R0
	ADD   $2, R5
	CMP   R4, R5
	BLT   lifloop

lifstop:
	MOVD R5, ret+72(FP)
	RET

// func countPositiveNEON(cnt, x, gn, b *float64, n int, mx float64, m *[4]float64)
//
// countPositiveGo four currents at a time (n a positive multiple of 4):
// cnt[j] + 1 where the current is positive, selected (never cnt + 0,
// which would turn −0 into +0); each of the four lanes keeps the first of
// its largest currents above mx, as the scalar loop does, in m.
TEXT ·countPositiveNEON(SB), NOSPLIT, $0-56
	MOVD  cnt+0(FP), R0
	MOVD  x+8(FP), R1
	MOVD  gn+16(FP), R3
	MOVD  b+24(FP), R4
	MOVD  n+32(FP), R2
	FMOVD mx+40(FP), F16
	VDUP  V16.D[0], V16.D2
	ORR16B(17, 16, 16)
	FMOVD $1.0, F18
	VDUP  V18.D[0], V18.D2
	VEOR  V19.B16, V19.B16, V19.B16
	LSR   $2, R2

countloop:
	VLD1.P 32(R1), [V0.D2, V1.D2]
	VLD1.P 32(R3), [V2.D2, V3.D2]
	VLD1.P 32(R4), [V4.D2, V5.D2]
	VLD1   (R0), [V6.D2, V7.D2]
	FMUL2D(2, 2, 0)
	FMUL2D(3, 3, 1)
	FADD2D(2, 2, 4)    // J = g·x + b
	FADD2D(3, 3, 5)
	FCMGT2D(8, 2, 19)  // J > 0
	FCMGT2D(9, 3, 19)
	FADD2D(10, 6, 18)
	FADD2D(11, 7, 18)
	BIT16B(6, 10, 8)
	BIT16B(7, 11, 9)
	VST1.P [V6.D2, V7.D2], 32(R0)
	FCMGT2D(8, 2, 16)  // J > the lane's maximum
	FCMGT2D(9, 3, 17)
	BIT16B(16, 2, 8)
	BIT16B(17, 3, 9)
	SUBS   $1, R2
	BNE    countloop

	MOVD m+48(FP), R0
	VST1 [V16.D2, V17.D2], (R0)
	RET
