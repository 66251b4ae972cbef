//go:build !purego

#include "textflag.h"

// LIFRateDeriv's and LIFRateDeriv32's AVX-512 kernels; the method and
// the order of the operations are described in softlif_vec_amd64.go.
// Operand order is Go's: sources first, destination last (VSUBPD b, a, d
// is d = a − b; VFMADD213PD c, b, a is a = b·a + c; VFMADD231PD c, b, a
// is a = b·c + a; VFNMADD213PD c, b, a is a = −(b·a) + c).

// lifConsts64 (float64)
#define C_ONE 0
#define C_TWO 8
#define C_HALF 16
#define C_LOG2E 24
#define C_NLN2HI 32
#define C_NLN2LO 40
#define C_OFF 48
#define C_LNHI 56
#define C_LNLO 64
#define C_L1 72
#define C_L2 80
#define C_L3 88
#define C_L4 96
#define C_L5 104
#define C_L6 112
#define C_L7 120
#define C_T0 128
#define C_T1 136
#define C_T2 144
#define C_T3 152
#define C_T4 160
#define C_T5 168
#define C_T6 176
#define C_T7 184
#define C_T8 192
#define C_T9 200
#define C_T10 208
#define C_T11 216
#define C_T12 224
#define C_T13 232

// lifParams64
#define P_SIGMA 0
#define P_TAURC 8
#define P_TAUREF 16
#define P_AMP 24
#define P_AMPTAURC 32
#define P_LIM 40
#define P_NEGLIM 48
#define P_TINY 56

// VCMPPD/VCMPPS predicates (ordered: false for NaN)
#define CMP_LT 1
#define CMP_LE 2
#define CMP_GE 13
#define CMP_GT 14

// RECIP64: r = 1/b (VRCP14PD and two Newton–Raphson steps; Z31 = 1).
#define RECIP64(b, r, t) \
	VRCP14PD     b, r;   \
	VMOVAPD      b, t;   \
	VFNMADD213PD Z31, r, t; \
	VFMADD231PD  t, r, r; \
	VMOVAPD      b, t;   \
	VFNMADD213PD Z31, r, t; \
	VFMADD231PD  t, r, r

// EXP64: a6 = e^x; x kept, kd … a5 clobbered.
#define EXP64(x, kd, r, r2, r4, a0, a1, a2, a3, a4, a5, a6) \
	VMULPD.BCST        C_LOG2E(SI), x, kd;  \
	VRNDSCALEPD        $0, kd, kd;          \
	VMOVAPD            x, r;                \
	VFMADD231PD.BCST   C_NLN2HI(SI), kd, r; \
	VFMADD231PD.BCST   C_NLN2LO(SI), kd, r; \
	VMULPD             r, r, r2;            \
	VBROADCASTSD       C_T1(SI), a0;        \
	VFMADD213PD.BCST   C_T0(SI), r, a0;     \
	VBROADCASTSD       C_T3(SI), a1;        \
	VFMADD213PD.BCST   C_T2(SI), r, a1;     \
	VBROADCASTSD       C_T5(SI), a2;        \
	VFMADD213PD.BCST   C_T4(SI), r, a2;     \
	VBROADCASTSD       C_T7(SI), a3;        \
	VFMADD213PD.BCST   C_T6(SI), r, a3;     \
	VBROADCASTSD       C_T9(SI), a4;        \
	VFMADD213PD.BCST   C_T8(SI), r, a4;     \
	VBROADCASTSD       C_T11(SI), a5;       \
	VFMADD213PD.BCST   C_T10(SI), r, a5;    \
	VBROADCASTSD       C_T13(SI), a6;       \
	VFMADD213PD.BCST   C_T12(SI), r, a6;    \
	VMULPD             r2, r2, r4;          \
	VMULPD             r4, r4, r;           \
	VFMADD213PD        a0, r2, a1;          \
	VFMADD213PD        a2, r2, a3;          \
	VFMADD213PD        a4, r2, a5;          \
	VFMADD213PD        a1, r4, a3;          \
	VFMADD213PD        a5, r4, a6;          \
	VFMADD213PD        a3, r, a6;           \
	VSCALEFPD          kd, a6, a6

// LOG1P64: h = log1p(u) for finite u ≥ 0; u kept, a … i clobbered.
// a = v = 1+u, d = (u − (v−1))/v, then log v (e = k, f = z − 1, g = s,
// b = hfsq, a = R), h = k·lnHi − ((hfsq − (s·(hfsq+R) + k·lnLo)) − f) + d.
#define LOG1P64(u, a, b, c, d, e, f, g, h, i) \
	VADDPD           Z31, u, a;          \
	RECIP64(a, b, c);                    \
	VSUBPD           Z31, a, c;          \
	VSUBPD           c, u, c;            \
	VMULPD           b, c, d;            \
	VPSUBQ.BCST      C_OFF(SI), a, b;    \
	VPSRAQ           $52, b, b;          \
	VPSLLQ           $52, b, c;          \
	VPSUBQ           c, a, a;            \
	VCVTQQ2PD        b, e;               \
	VSUBPD           Z31, a, f;          \
	VADDPD.BCST      C_TWO(SI), f, c;    \
	RECIP64(c, g, a);                    \
	VMULPD           g, f, g;            \
	VMULPD           g, g, h;            \
	VMULPD           h, h, i;            \
	VMULPD.BCST      C_L7(SI), i, a;     \
	VADDPD.BCST      C_L5(SI), a, a;     \
	VMULPD           i, a, a;            \
	VADDPD.BCST      C_L3(SI), a, a;     \
	VMULPD           i, a, a;            \
	VADDPD.BCST      C_L1(SI), a, a;     \
	VMULPD           h, a, a;            \
	VMULPD.BCST      C_L6(SI), i, b;     \
	VADDPD.BCST      C_L4(SI), b, b;     \
	VMULPD           i, b, b;            \
	VADDPD.BCST      C_L2(SI), b, b;     \
	VMULPD           i, b, b;            \
	VADDPD           b, a, a;            \
	VMULPD.BCST      C_HALF(SI), f, b;   \
	VMULPD           f, b, b;            \
	VADDPD           a, b, c;            \
	VMULPD           c, g, c;            \
	VMULPD.BCST      C_LNLO(SI), e, h;   \
	VADDPD           h, c, c;            \
	VSUBPD           c, b, c;            \
	VSUBPD           f, c, c;            \
	VMULPD.BCST      C_LNHI(SI), e, h;   \
	VSUBPD           c, h, h;            \
	VADDPD           d, h, h

// LIF64PRE: j = J − 1 (in j), x = j/σ, ok = −36 ≤ x ≤ 36, pos = j > 0,
// small = pos ∧ j < 1e-300, jm = j where pos, else 1.
#define LIF64PRE(off, j, x, jm, ok, pos, small) \
	VMOVUPD          off(AX), j;                     \
	VSUBPD           Z31, j, j;                      \
	VDIVPD.BCST      P_SIGMA(DI), j, x;              \
	VCMPPD.BCST      $CMP_GE, P_NEGLIM(DI), x, ok;    \
	VCMPPD.BCST      $CMP_LE, P_LIM(DI), x, ok, ok;   \
	VCMPPD           $CMP_GT, Z30, j, pos;            \
	VCMPPD.BCST      $CMP_LT, P_TINY(DI), j, pos, small; \
	VMOVAPD          Z31, jm;                        \
	VMOVAPD          j, pos, jm

// LIF64OUT: out = amplitude/(τ_ref + τ_rc·ql) where pos, else 0;
// ql clobbered.
#define LIF64OUT(off, ql, t, pos) \
	VMULPD.BCST      P_TAURC(DI), ql, ql;  \
	VADDPD.BCST      P_TAUREF(DI), ql, ql; \
	VBROADCASTSD     P_AMP(DI), t;         \
	VDIVPD.Z         ql, t, pos, t;        \
	VMOVUPD          t, off(BX)

// LIF64D: d = a·τ_rc·e/((((1+e)·sp·σ)·(1+p))·den·den), den = τ_ref + τ_rc·q;
// q, t0, t1, t2 clobbered.
#define LIF64D(off, e, sp, p, q, t0, t1, t2) \
	VMULPD.BCST      P_TAURC(DI), q, q;     \
	VADDPD.BCST      P_TAUREF(DI), q, q;    \
	VMULPD.BCST      P_AMPTAURC(DI), e, t0; \
	VADDPD           Z31, e, t1;            \
	VMULPD           sp, t1, t1;            \
	VMULPD.BCST      P_SIGMA(DI), t1, t1;   \
	VADDPD           Z31, p, t2;            \
	VMULPD           t2, t1, t1;            \
	VMULPD           q, t1, t1;             \
	VMULPD           q, t1, t1;             \
	VDIVPD           t1, t0, t0;            \
	VMOVUPD          t0, off(CX)

// func lifDerivAVX512(c *[30]float64, p *lifParams64, J, out, d *float64, n int, bad *uint16)
//
// Two blocks of eight: the first in Z0–Z13 with ok, pos, small in K1–K3,
// the second in Z14–Z27 with K4–K6; Z30 = 0, Z31 = 1.
TEXT ·lifDerivAVX512(SB), NOSPLIT, $0-56
	MOVQ c+0(FP), SI
	MOVQ p+8(FP), DI
	MOVQ J+16(FP), AX
	MOVQ out+24(FP), BX
	MOVQ d+32(FP), CX
	MOVQ n+40(FP), DX
	MOVQ bad+48(FP), R8
	VPXORQ       Z30, Z30, Z30
	VBROADCASTSD C_ONE(SI), Z31

lif64loop:
	LIF64PRE(0, Z0, Z1, Z2, K1, K2, K3)
	LIF64PRE(64, Z14, Z15, Z16, K4, K5, K6)
	// i = 1/jm in Z3, Z17
	RECIP64(Z2, Z3, Z4)
	RECIP64(Z16, Z17, Z18)
	// e = exp(x) in Z12, Z26
	EXP64(Z1, Z0, Z2, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12)
	EXP64(Z15, Z14, Z16, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26)
	// ql = log1p(i) in Z8, Z22; out
	LOG1P64(Z3, Z0, Z1, Z2, Z4, Z5, Z6, Z7, Z8, Z9)
	LOG1P64(Z17, Z14, Z15, Z16, Z18, Z19, Z20, Z21, Z22, Z23)
	LIF64OUT(0, Z8, Z9, K2)
	LIF64OUT(64, Z22, Z23, K5)
	// sp = log1p(e) in Z7, Z21; p = σ·sp in Z13, Z27; ok ∧= p ≥ 1e-300
	LOG1P64(Z12, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8)
	LOG1P64(Z26, Z14, Z15, Z16, Z17, Z18, Z19, Z20, Z21, Z22)
	VMULPD.BCST P_SIGMA(DI), Z7, Z13
	VMULPD.BCST P_SIGMA(DI), Z21, Z27
	VCMPPD.BCST $CMP_GE, P_TINY(DI), Z13, K1, K1
	VCMPPD.BCST $CMP_GE, P_TINY(DI), Z27, K4, K4
	// q = log1p(1/p) in Z8, Z22
	RECIP64(Z13, Z11, Z10)
	RECIP64(Z27, Z25, Z24)
	LOG1P64(Z11, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z8, Z9)
	LOG1P64(Z25, Z14, Z15, Z16, Z17, Z18, Z19, Z20, Z22, Z23)
	LIF64D(0, Z12, Z7, Z13, Z8, Z0, Z1, Z2)
	LIF64D(64, Z26, Z21, Z27, Z22, Z14, Z15, Z16)
	// bad = ¬ok ∨ small, the first block in the low byte
	KNOTB  K1, K7
	KORB   K3, K7, K7
	KMOVB  K7, R9
	KNOTB  K4, K7
	KORB   K6, K7, K7
	KMOVB  K7, R10
	SHLL   $8, R10
	ORL    R10, R9
	MOVW   R9, (R8)
	ADDQ   $128, AX
	ADDQ   $128, BX
	ADDQ   $128, CX
	ADDQ   $2, R8
	DECQ   DX
	JNZ    lif64loop
	VZEROUPPER
	RET

// lifConsts32 (float32)
#define C32_ONE 0
#define C32_TWO 4
#define C32_HALF 8
#define C32_LOG2E 12
#define C32_NLN2HI 16
#define C32_NLN2LO 20
#define C32_OFF 24
#define C32_LNHI 28
#define C32_LNLO 32
#define C32_LG1 36
#define C32_LG2 40
#define C32_LG3 44
#define C32_LG4 48
#define C32_T0 52
#define C32_T1 56
#define C32_T2 60
#define C32_T3 64
#define C32_T4 68
#define C32_T5 72
#define C32_T6 76
#define C32_T7 80

// lifParams32
#define Q_SIGMA64 0
#define Q_LIM 8
#define Q_NEGLIM 16
#define Q_TINY64 24
#define Q_ONE64 32
#define Q_SIGMA 40
#define Q_TAURC 44
#define Q_TAUREF 48
#define Q_AMP 52
#define Q_AMPTAURC 56
#define Q_TINY 60

// RECIP32: r = 1/b (VRCP14PS and one Newton–Raphson step; Z31 = 1).
#define RECIP32(b, r, t) \
	VRCP14PS     b, r;      \
	VMOVAPS      b, t;      \
	VFNMADD213PS Z31, r, t; \
	VFMADD231PS  t, r, r

// EXP32: a3 = e^x in float32; x kept, kd … a2 clobbered.
#define EXP32(x, kd, r, r2, r4, a0, a1, a2, a3) \
	VMULPS.BCST      C32_LOG2E(SI), x, kd;  \
	VRNDSCALEPS      $0, kd, kd;            \
	VMOVAPS          x, r;                  \
	VFMADD231PS.BCST C32_NLN2HI(SI), kd, r; \
	VFMADD231PS.BCST C32_NLN2LO(SI), kd, r; \
	VMULPS           r, r, r2;              \
	VBROADCASTSS     C32_T1(SI), a0;        \
	VFMADD213PS.BCST C32_T0(SI), r, a0;     \
	VBROADCASTSS     C32_T3(SI), a1;        \
	VFMADD213PS.BCST C32_T2(SI), r, a1;     \
	VBROADCASTSS     C32_T5(SI), a2;        \
	VFMADD213PS.BCST C32_T4(SI), r, a2;     \
	VBROADCASTSS     C32_T7(SI), a3;        \
	VFMADD213PS.BCST C32_T6(SI), r, a3;     \
	VMULPS           r2, r2, r4;            \
	VFMADD213PS      a2, r2, a3;            \
	VFMADD213PS      a0, r2, a1;            \
	VFMADD213PS      a1, r4, a3;            \
	VSCALEFPS        kd, a3, a3

// LOG1P32: h = log1p(u) in float32 for finite u ≥ 0; u kept, a … i
// clobbered. a = v = 1+u, d = (u − (v−1))/v, then musl's logf of v
// (e = k, f = z − 1, g = s, h = z = s², i = w = s⁴, a = R, b = hfsq):
// h = ((((s·(hfsq+R)) + k·lnLo) − hfsq) + f) + k·lnHi + d.
#define LOG1P32(u, a, b, c, d, e, f, g, h, i) \
	VADDPS           Z31, u, a;          \
	RECIP32(a, b, c);                    \
	VSUBPS           Z31, a, c;          \
	VSUBPS           c, u, c;            \
	VMULPS           b, c, d;            \
	VPSUBD.BCST      C32_OFF(SI), a, b;  \
	VPSRAD           $23, b, b;          \
	VPSLLD           $23, b, c;          \
	VPSUBD           c, a, a;            \
	VCVTDQ2PS        b, e;               \
	VSUBPS           Z31, a, f;          \
	VADDPS.BCST      C32_TWO(SI), f, c;  \
	RECIP32(c, g, a);                    \
	VMULPS           g, f, g;            \
	VMULPS           g, g, h;            \
	VMULPS           h, h, i;            \
	VMULPS.BCST      C32_LG3(SI), i, a;  \
	VADDPS.BCST      C32_LG1(SI), a, a;  \
	VMULPS           h, a, a;            \
	VMULPS.BCST      C32_LG4(SI), i, b;  \
	VADDPS.BCST      C32_LG2(SI), b, b;  \
	VMULPS           i, b, b;            \
	VADDPS           b, a, a;            \
	VMULPS.BCST      C32_HALF(SI), f, b; \
	VMULPS           f, b, b;            \
	VADDPS           a, b, c;            \
	VMULPS           c, g, c;            \
	VMULPS.BCST      C32_LNLO(SI), e, h; \
	VADDPS           h, c, c;            \
	VSUBPS           b, c, c;            \
	VADDPS           f, c, c;            \
	VMULPS.BCST      C32_LNHI(SI), e, h; \
	VADDPS           h, c, h;            \
	VADDPS           d, h, h

// LIF32PRE: float64 j = J − 1, x = j/σ for the sixteen currents at
// off(AX) and their tests; x rounded to float32 in r2, j in r0 (r1, r3
// clobbered; yN is rN's YMM name); part = ¬ok ∨ (j > 0 ∧ j < 1e-30), pos
// = j > 0, sixteen bits each (K3, K4, R12, R14 clobbered).
#define LIF32PRE(off, r0, r1, r2, r3, y0, y1, y2, y3, part, pos) \
	VMOVUPD      off(AX), r0;                       \
	VMOVUPD      64+off(AX), r1;                    \
	VSUBPD.BCST  Q_ONE64(DI), r0, r0;               \
	VSUBPD.BCST  Q_ONE64(DI), r1, r1;               \
	VDIVPD.BCST  Q_SIGMA64(DI), r0, r2;             \
	VDIVPD.BCST  Q_SIGMA64(DI), r1, r3;             \
	VCMPPD.BCST  $CMP_GE, Q_NEGLIM(DI), r2, K3;     \
	VCMPPD.BCST  $CMP_LE, Q_LIM(DI), r2, K3, K3;    \
	VCMPPD.BCST  $CMP_GE, Q_NEGLIM(DI), r3, K4;     \
	VCMPPD.BCST  $CMP_LE, Q_LIM(DI), r3, K4, K4;    \
	KMOVB        K3, part;                          \
	KMOVB        K4, R12;                           \
	SHLL         $8, R12;                           \
	ORL          R12, part;                         \
	NOTL         part;                              \
	VCMPPD       $CMP_GT, Z30, r0, K3;              \
	VCMPPD       $CMP_GT, Z30, r1, K4;              \
	KMOVB        K3, pos;                           \
	KMOVB        K4, R12;                           \
	SHLL         $8, R12;                           \
	ORL          R12, pos;                          \
	VCMPPD.BCST  $CMP_LT, Q_TINY64(DI), r0, K3;     \
	VCMPPD.BCST  $CMP_LT, Q_TINY64(DI), r1, K4;     \
	KMOVB        K3, R12;                           \
	KMOVB        K4, R14;                           \
	SHLL         $8, R14;                           \
	ORL          R14, R12;                          \
	ANDL         pos, R12;                          \
	ORL          R12, part;                         \
	VCVTPD2PS    r2, y2;                            \
	VCVTPD2PS    r3, y3;                            \
	VINSERTF64X4 $1, y3, r2, r2;                    \
	VCVTPD2PS    r0, y0;                            \
	VCVTPD2PS    r1, y1;                            \
	VINSERTF64X4 $1, y1, r0, r0

// LIF32POS: kpos = j > 0 (float32 j in j), i = 1/(j where kpos, else 1)
// (t0, t1 clobbered).
#define LIF32POS(j, i, t0, t1, kpos) \
	VCMPPS       $CMP_GT, Z30, j, kpos; \
	VMOVAPS      Z31, t0;               \
	VMOVAPS      j, kpos, t0;           \
	RECIP32(t0, i, t1)

// LIF32P: p = σ·sp; part ∨= ¬(p ≥ 1e-30) (K3, R12 clobbered).
#define LIF32P(sp, p, part) \
	VMULPS.BCST  Q_SIGMA(DI), sp, p;          \
	VCMPPS.BCST  $CMP_GE, Q_TINY(DI), p, K3;  \
	KMOVW        K3, R12;                     \
	NOTL         R12;                         \
	ORL          R12, part

// LIF32D: d = a·τ_rc·e/((((1+e)·sp·σ)·(1+p))·den·den) in t0, den =
// τ_ref + τ_rc·q (q, t1, t2 clobbered).
#define LIF32D(e, sp, p, q, t0, t1, t2) \
	VMULPS.BCST  Q_TAURC(DI), q, q;      \
	VADDPS.BCST  Q_TAUREF(DI), q, q;     \
	VMULPS.BCST  Q_AMPTAURC(DI), e, t0;  \
	VADDPS       Z31, e, t1;             \
	VMULPS       sp, t1, t1;             \
	VMULPS.BCST  Q_SIGMA(DI), t1, t1;    \
	VADDPS       Z31, p, t2;             \
	VMULPS       t2, t1, t1;             \
	VMULPS       q, t1, t1;              \
	VMULPS       q, t1, t1;              \
	VDIVPS       t1, t0, t0

// LIF32OUT: out = amplitude/(τ_ref + τ_rc·ql) where kpos, else 0, in t
// (ql clobbered).
#define LIF32OUT(ql, t, kpos) \
	VMULPS.BCST  Q_TAURC(DI), ql, ql;   \
	VADDPS.BCST  Q_TAUREF(DI), ql, ql;  \
	VBROADCASTSS Q_AMP(DI), t;          \
	VDIVPS.Z     ql, t, kpos, t

// LIF32STORE: out and d widened to float64 and stored at off(BX),
// off(CX); bad = part ∨ (pos ∧ ¬kpos) stored at boff(R8) (t0 … t3
// clobbered, yN their YMM names; R12 clobbered).
#define LIF32STORE(off, boff, o, yo, d, yd, t0, t1, t2, t3, y1, y3, kpos, part, pos) \
	VCVTPS2PD     yo, t0;        \
	VEXTRACTF64X4 $1, o, y1;     \
	VCVTPS2PD     y1, t1;        \
	VMOVUPD       t0, off(BX);   \
	VMOVUPD       t1, 64+off(BX); \
	VCVTPS2PD     yd, t2;        \
	VEXTRACTF64X4 $1, d, y3;     \
	VCVTPS2PD     y3, t3;        \
	VMOVUPD       t2, off(CX);   \
	VMOVUPD       t3, 64+off(CX); \
	KMOVW         kpos, R12;     \
	NOTL          R12;           \
	ANDL          pos, R12;      \
	ORL           R12, part;     \
	MOVW          part, boff(R8)

// func lifDeriv32AVX512(c *[21]float32, p *lifParams32, J, out, d *float64, n int, bad *uint16)
//
// Two blocks of sixteen at a time (their dependency chains interleaved),
// the first in Z0–Z14 with j > 0 (float32) in K1 and its masks in R9
// (part) and R10 (float64 j > 0), the second in Z15–Z29 with K2, R11,
// R13; then one block if n is odd. Z30 = 0, Z31 = float32 1.
TEXT ·lifDeriv32AVX512(SB), NOSPLIT, $0-56
	MOVQ c+0(FP), SI
	MOVQ p+8(FP), DI
	MOVQ J+16(FP), AX
	MOVQ out+24(FP), BX
	MOVQ d+32(FP), CX
	MOVQ n+40(FP), DX
	MOVQ bad+48(FP), R8
	VPXORQ       Z30, Z30, Z30
	VBROADCASTSS C32_ONE(SI), Z31
	CMPQ DX, $2
	JB   lif32one

lif32two:
	LIF32PRE(0, Z0, Z1, Z2, Z3, Y0, Y1, Y2, Y3, R9, R10)
	LIF32PRE(128, Z15, Z16, Z17, Z18, Y15, Y16, Y17, Y18, R11, R13)
	// e = exp(x) in Z12, Z27
	EXP32(Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z12)
	EXP32(Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z27)
	// i in Z1, Z16
	LIF32POS(Z0, Z1, Z2, Z3, K1)
	LIF32POS(Z15, Z16, Z17, Z18, K2)
	// sp = log1p(e) in Z13, Z28; ql = log1p(i) in Z14, Z29
	LOG1P32(Z12, Z0, Z2, Z3, Z4, Z5, Z6, Z7, Z13, Z8)
	LOG1P32(Z27, Z15, Z17, Z18, Z19, Z20, Z21, Z22, Z28, Z23)
	LOG1P32(Z1, Z0, Z2, Z3, Z4, Z5, Z6, Z7, Z14, Z8)
	LOG1P32(Z16, Z15, Z17, Z18, Z19, Z20, Z21, Z22, Z29, Z23)
	// p in Z9, Z24; q = log1p(1/p) in Z11, Z26
	LIF32P(Z13, Z9, R9)
	LIF32P(Z28, Z24, R11)
	RECIP32(Z9, Z10, Z0)
	RECIP32(Z24, Z25, Z15)
	LOG1P32(Z10, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z11, Z7)
	LOG1P32(Z25, Z15, Z16, Z17, Z18, Z19, Z20, Z21, Z26, Z22)
	// d in Z0, Z15; out in Z2, Z17
	LIF32D(Z12, Z13, Z9, Z11, Z0, Z1, Z2)
	LIF32D(Z27, Z28, Z24, Z26, Z15, Z16, Z17)
	LIF32OUT(Z14, Z2, K1)
	LIF32OUT(Z29, Z17, K2)
	LIF32STORE(0, 0, Z2, Y2, Z0, Y0, Z4, Z5, Z6, Z7, Y5, Y7, K1, R9, R10)
	LIF32STORE(128, 2, Z17, Y17, Z15, Y15, Z19, Z20, Z21, Z22, Y20, Y22, K2, R11, R13)
	ADDQ $256, AX
	ADDQ $256, BX
	ADDQ $256, CX
	ADDQ $4, R8
	SUBQ $2, DX
	CMPQ DX, $2
	JAE  lif32two

lif32one:
	TESTQ DX, DX
	JZ    lif32done
	LIF32PRE(0, Z0, Z1, Z2, Z3, Y0, Y1, Y2, Y3, R9, R10)
	EXP32(Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z12)
	LIF32POS(Z0, Z1, Z2, Z3, K1)
	LOG1P32(Z12, Z0, Z2, Z3, Z4, Z5, Z6, Z7, Z13, Z8)
	LOG1P32(Z1, Z0, Z2, Z3, Z4, Z5, Z6, Z7, Z14, Z8)
	LIF32P(Z13, Z9, R9)
	RECIP32(Z9, Z10, Z0)
	LOG1P32(Z10, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z11, Z7)
	LIF32D(Z12, Z13, Z9, Z11, Z0, Z1, Z2)
	LIF32OUT(Z14, Z2, K1)
	LIF32STORE(0, 0, Z2, Y2, Z0, Y0, Z4, Z5, Z6, Z7, Y5, Y7, K1, R9, R10)

lif32done:
	VZEROUPPER
	RET
