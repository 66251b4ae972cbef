//go:build amd64 && !purego

#include "textflag.h"

// The AVX-512 dot products. A row's sixteen partial sums of Dot (element
// j into sum j mod 16) are two vectors, za (sums 0–7) and zb (8–15),
// summed block after block with fused multiply-adds; the last block is
// loaded zero-filled through masks K1 (elements 0–7) and K2 (8–15), so
// a missing product adds 0·0 as Dot's padding does.

// TAILMASKS sets K1, K2 to the CX < 16 elements of the last block.
#define TAILMASKS \
	MOVL  $1, AX \
	SHLL  CX, AX \
	DECL  AX \
	KMOVW AX, K1 \
	SHRL  $8, AX \
	KMOVW AX, K2

// FOLD4 leaves the four lane sums t_l = (s_l + s_{4+l}) + (s_{8+l} +
// s_{12+l}) of the partial sums za, zb (Y names ya, yb) in yt, scratch
// ys.
#define FOLD4(za, zb, ya, yb, yt, ys) \
	VEXTRACTF64X4 $1, za, yt \
	VADDPD        yt, ya, yt \
	VEXTRACTF64X4 $1, zb, ys \
	VADDPD        ys, yb, ys \
	VADDPD        ys, yt, yt

// HSUM1 sets xt's low lane to (t0 + t1) + (t2 + t3) of yt (X name xt),
// scratch xs.
#define HSUM1(yt, xt, xs) \
	VEXTRACTF128 $1, yt, xs \
	VHADDPD      xs, xt, xt \
	VHADDPD      xt, xt, xt

// HSUM2 sets xa to ((a0 + a1) + (a2 + a3), (b0 + b1) + (b2 + b3)) of the
// lane sums ya and yb: one VHADDPD gives a0+a1, b0+b1 | a2+a3, b2+b3.
#define HSUM2(ya, yb, xa, xs) \
	VHADDPD      yb, ya, ya \
	VEXTRACTF128 $1, ya, xs \
	VADDPD       xs, xa, xa

// func dotAVX512(a, x *float64, n int) float64
TEXT ·dotAVX512(SB), NOSPLIT, $0-32
	MOVQ   a+0(FP), SI
	MOVQ   x+8(FP), BX
	MOVQ   n+16(FP), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	MOVQ   CX, DX
	SHRQ   $4, DX
	JZ     dottail

dotloop:
	VMOVUPD     (SI), Z2
	VMOVUPD     64(SI), Z3
	VFMADD231PD (BX), Z2, Z0
	VFMADD231PD 64(BX), Z3, Z1
	ADDQ        $128, SI
	ADDQ        $128, BX
	DECQ        DX
	JNZ         dotloop

dottail:
	ANDQ $15, CX
	JZ   dotreduce
	TAILMASKS
	VMOVUPD.Z   (SI), K1, Z2
	VMOVUPD.Z   (BX), K1, Z4
	VMOVUPD.Z   64(SI), K2, Z3
	VMOVUPD.Z   64(BX), K2, Z5
	VFMADD231PD Z4, Z2, Z0
	VFMADD231PD Z5, Z3, Z1

dotreduce:
	FOLD4(Z0, Z1, Y0, Y1, Y2, Y3)
	HSUM1(Y2, X2, X3)
	VZEROUPPER
	VMOVSD X2, ret+24(FP)
	RET

// func dotAxpyAVX512(w, x, a *float64, n int, s float64) (dot float64, nan bool)
//
// dotAVX512(w, x) and then axpyAVX512(w, a, s) in one pass over w: the
// same partial sums and reduction as dotAVX512 (of the old w), the same
// products a·s rounded before the add as axpyAVX512; nan reports a NaN
// among the new w (K4 gathers the unordered self-compares).
TEXT ·dotAxpyAVX512(SB), NOSPLIT, $0-49
	MOVQ         w+0(FP), SI
	MOVQ         x+8(FP), BX
	MOVQ         a+16(FP), R8
	MOVQ         n+24(FP), CX
	VBROADCASTSD s+32(FP), Z9
	VPXORQ       Z0, Z0, Z0
	VPXORQ       Z1, Z1, Z1
	KXORW        K4, K4, K4
	MOVQ         CX, DX
	SHRQ         $4, DX
	JZ           daxtail

daxloop:
	VMOVUPD     (SI), Z2
	VMOVUPD     64(SI), Z3
	VFMADD231PD (BX), Z2, Z0
	VFMADD231PD 64(BX), Z3, Z1
	VMULPD      (R8), Z9, Z4
	VMULPD      64(R8), Z9, Z5
	VADDPD      Z4, Z2, Z2
	VADDPD      Z5, Z3, Z3
	VMOVUPD     Z2, (SI)
	VMOVUPD     Z3, 64(SI)
	VCMPPD      $3, Z2, Z2, K3
	VCMPPD      $3, Z3, Z3, K5
	KORW        K3, K4, K4
	KORW        K5, K4, K4
	ADDQ        $128, SI
	ADDQ        $128, BX
	ADDQ        $128, R8
	DECQ        DX
	JNZ         daxloop

daxtail:
	ANDQ $15, CX
	JZ   daxreduce
	TAILMASKS
	VMOVUPD.Z   (SI), K1, Z2
	VMOVUPD.Z   (BX), K1, Z4
	VMOVUPD.Z   64(SI), K2, Z3
	VMOVUPD.Z   64(BX), K2, Z5
	VFMADD231PD Z4, Z2, Z0
	VFMADD231PD Z5, Z3, Z1
	VMOVUPD.Z   (R8), K1, Z4
	VMOVUPD.Z   64(R8), K2, Z5
	VMULPD      Z4, Z9, Z4
	VMULPD      Z5, Z9, Z5
	VADDPD      Z4, Z2, Z2
	VADDPD      Z5, Z3, Z3
	VMOVUPD     Z2, K1, (SI)
	VMOVUPD     Z3, K2, 64(SI)
	VCMPPD      $3, Z2, Z2, K1, K3
	VCMPPD      $3, Z3, Z3, K2, K5
	KORW        K3, K4, K4
	KORW        K5, K4, K4

daxreduce:
	FOLD4(Z0, Z1, Y0, Y1, Y2, Y3)
	HSUM1(Y2, X2, X3)
	KORTESTW K4, K4
	SETNE    nan+48(FP)
	VZEROUPPER
	VMOVSD   X2, dot+40(FP)
	RET

// func dot2AVX512(a, b, x *float64, n int) (ra, rb float64)
TEXT ·dot2AVX512(SB), NOSPLIT, $0-48
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   x+16(FP), BX
	MOVQ   n+24(FP), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	MOVQ   CX, DX
	SHRQ   $4, DX
	JZ     dot2tail

dot2loop:
	VMOVUPD     (BX), Z4
	VMOVUPD     64(BX), Z5
	VFMADD231PD (SI), Z4, Z0
	VFMADD231PD 64(SI), Z5, Z1
	VFMADD231PD (DI), Z4, Z2
	VFMADD231PD 64(DI), Z5, Z3
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, BX
	DECQ        DX
	JNZ         dot2loop

dot2tail:
	ANDQ $15, CX
	JZ   dot2reduce
	TAILMASKS
	VMOVUPD.Z   (BX), K1, Z4
	VMOVUPD.Z   64(BX), K2, Z5
	VMOVUPD.Z   (SI), K1, Z6
	VMOVUPD.Z   64(SI), K2, Z7
	VFMADD231PD Z6, Z4, Z0
	VFMADD231PD Z7, Z5, Z1
	VMOVUPD.Z   (DI), K1, Z6
	VMOVUPD.Z   64(DI), K2, Z7
	VFMADD231PD Z6, Z4, Z2
	VFMADD231PD Z7, Z5, Z3

dot2reduce:
	FOLD4(Z0, Z1, Y0, Y1, Y4, Y5)
	FOLD4(Z2, Z3, Y2, Y3, Y6, Y5)
	HSUM2(Y4, Y6, X4, X5)
	VZEROUPPER
	VMOVSD  X4, ra+32(FP)
	VMOVHPD X4, rb+40(FP)
	RET

// func dot4AVX512(a0, a1, a2, a3, x *float64, n int) (r0, r1, r2, r3 float64)
TEXT ·dot4AVX512(SB), NOSPLIT, $0-80
	MOVQ   a0+0(FP), SI
	MOVQ   a1+8(FP), DI
	MOVQ   a2+16(FP), R8
	MOVQ   a3+24(FP), R9
	MOVQ   x+32(FP), BX
	MOVQ   n+40(FP), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	MOVQ   CX, DX
	SHRQ   $4, DX
	JZ     dot4tail

dot4loop:
	VMOVUPD     (BX), Z8
	VMOVUPD     64(BX), Z9
	VFMADD231PD (SI), Z8, Z0
	VFMADD231PD 64(SI), Z9, Z1
	VFMADD231PD (DI), Z8, Z2
	VFMADD231PD 64(DI), Z9, Z3
	VFMADD231PD (R8), Z8, Z4
	VFMADD231PD 64(R8), Z9, Z5
	VFMADD231PD (R9), Z8, Z6
	VFMADD231PD 64(R9), Z9, Z7
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	ADDQ        $128, R9
	ADDQ        $128, BX
	DECQ        DX
	JNZ         dot4loop

dot4tail:
	ANDQ $15, CX
	JZ   dot4reduce
	TAILMASKS
	VMOVUPD.Z   (BX), K1, Z8
	VMOVUPD.Z   64(BX), K2, Z9
	VMOVUPD.Z   (SI), K1, Z10
	VMOVUPD.Z   64(SI), K2, Z11
	VFMADD231PD Z10, Z8, Z0
	VFMADD231PD Z11, Z9, Z1
	VMOVUPD.Z   (DI), K1, Z10
	VMOVUPD.Z   64(DI), K2, Z11
	VFMADD231PD Z10, Z8, Z2
	VFMADD231PD Z11, Z9, Z3
	VMOVUPD.Z   (R8), K1, Z10
	VMOVUPD.Z   64(R8), K2, Z11
	VFMADD231PD Z10, Z8, Z4
	VFMADD231PD Z11, Z9, Z5
	VMOVUPD.Z   (R9), K1, Z10
	VMOVUPD.Z   64(R9), K2, Z11
	VFMADD231PD Z10, Z8, Z6
	VFMADD231PD Z11, Z9, Z7

dot4reduce:
	FOLD4(Z0, Z1, Y0, Y1, Y8, Y12)
	FOLD4(Z2, Z3, Y2, Y3, Y9, Y12)
	FOLD4(Z4, Z5, Y4, Y5, Y10, Y12)
	FOLD4(Z6, Z7, Y6, Y7, Y11, Y12)
	HSUM2(Y8, Y9, X8, X12)
	HSUM2(Y10, Y11, X10, X12)
	VZEROUPPER
	VMOVSD  X8, r0+48(FP)
	VMOVHPD X8, r1+56(FP)
	VMOVSD  X10, r2+64(FP)
	VMOVHPD X10, r3+72(FP)
	RET

// func ensDot2AVX512(a, bias, enc, d1, d2 *float64, n int, x, amp float64, mode int) (s1, s2 float64)
//
// EnsDot2: the rates r = amp·max(0, bias + enc·x) eight at a time, summed
// against both decoder rows in Dot's partial sums. mode: 1 the rates are
// kept in a (else a is scratch, written only in the last block), 2 amp
// is 1 and the rates are not kept (1·r is r bit for bit: no multiply), 4
// one decoder row (d2 is ignored, s2 garbage). The last block's rates
// past n are zeroed, so those lanes add 0·0.
TEXT ·ensDot2AVX512(SB), NOSPLIT, $0-88
	MOVQ         a+0(FP), R10
	MOVQ         bias+8(FP), SI
	MOVQ         enc+16(FP), DI
	MOVQ         d1+24(FP), R8
	MOVQ         d2+32(FP), R9
	MOVQ         n+40(FP), CX
	VBROADCASTSD x+48(FP), Z20
	VBROADCASTSD amp+56(FP), Z21
	MOVQ         mode+64(FP), R11
	VPXORQ       Z31, Z31, Z31
	VPXORQ       Z0, Z0, Z0
	VPXORQ       Z1, Z1, Z1
	VPXORQ       Z2, Z2, Z2
	VPXORQ       Z3, Z3, Z3
	MOVQ         CX, DX
	SHRQ         $4, DX
	JZ           enstail
	CMPQ         R11, $6
	JEQ          ensunit1
	CMPQ         R11, $2
	JEQ          ensunit2

ensgeneral:
	VMULPD      (DI), Z20, Z4
	VADDPD      (SI), Z4, Z4
	VMAXPD      Z4, Z31, Z4
	VMULPD      Z4, Z21, Z4
	VMULPD      64(DI), Z20, Z5
	VADDPD      64(SI), Z5, Z5
	VMAXPD      Z5, Z31, Z5
	VMULPD      Z5, Z21, Z5
	VMOVUPD     Z4, (R10)
	VMOVUPD     Z5, 64(R10)
	VFMADD231PD (R8), Z4, Z0
	VFMADD231PD 64(R8), Z5, Z1
	VFMADD231PD (R9), Z4, Z2
	VFMADD231PD 64(R9), Z5, Z3
	ADDQ        $128, R10
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	ADDQ        $128, R9
	DECQ        DX
	JNZ         ensgeneral
	JMP         enstail

ensunit2:
	VMULPD      (DI), Z20, Z4
	VADDPD      (SI), Z4, Z4
	VMAXPD      Z4, Z31, Z4
	VMULPD      64(DI), Z20, Z5
	VADDPD      64(SI), Z5, Z5
	VMAXPD      Z5, Z31, Z5
	VFMADD231PD (R8), Z4, Z0
	VFMADD231PD 64(R8), Z5, Z1
	VFMADD231PD (R9), Z4, Z2
	VFMADD231PD 64(R9), Z5, Z3
	ADDQ        $128, R10
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	ADDQ        $128, R9
	DECQ        DX
	JNZ         ensunit2
	JMP         enstail

ensunit1:
	VMULPD      (DI), Z20, Z4
	VADDPD      (SI), Z4, Z4
	VMAXPD      Z4, Z31, Z4
	VMULPD      64(DI), Z20, Z5
	VADDPD      64(SI), Z5, Z5
	VMAXPD      Z5, Z31, Z5
	VFMADD231PD (R8), Z4, Z0
	VFMADD231PD 64(R8), Z5, Z1
	ADDQ        $128, R10
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	DECQ        DX
	JNZ         ensunit1

enstail:
	ANDQ $15, CX
	JZ   ensreduce
	TAILMASKS
	VMOVUPD.Z   (DI), K1, Z4
	VMOVUPD.Z   (SI), K1, Z6
	VMULPD      Z4, Z20, Z4
	VADDPD      Z6, Z4, Z4
	VMAXPD      Z4, Z31, Z4
	VMULPD      Z4, Z21, Z4
	VMOVUPD.Z   64(DI), K2, Z5
	VMOVUPD.Z   64(SI), K2, Z6
	VMULPD      Z5, Z20, Z5
	VADDPD      Z6, Z5, Z5
	VMAXPD      Z5, Z31, Z5
	VMULPD      Z5, Z21, Z5
	VMOVUPD     Z4, K1, (R10)
	VMOVUPD     Z5, K2, 64(R10)
	VMOVAPD.Z   Z4, K1, Z4
	VMOVAPD.Z   Z5, K2, Z5
	VMOVUPD.Z   (R8), K1, Z6
	VMOVUPD.Z   64(R8), K2, Z7
	VFMADD231PD Z6, Z4, Z0
	VFMADD231PD Z7, Z5, Z1
	TESTQ       $4, R11
	JNZ         ensreduce
	VMOVUPD.Z   (R9), K1, Z6
	VMOVUPD.Z   64(R9), K2, Z7
	VFMADD231PD Z6, Z4, Z2
	VFMADD231PD Z7, Z5, Z3

ensreduce:
	FOLD4(Z0, Z1, Y0, Y1, Y4, Y5)
	FOLD4(Z2, Z3, Y2, Y3, Y6, Y5)
	HSUM2(Y4, Y6, X4, X5)
	VZEROUPPER
	VMOVSD  X4, s1+72(FP)
	VMOVHPD X4, s2+80(FP)
	RET

// func vecMatAVX512(y, x, m *float64, k, d int)
//
// VecMat: 32 outputs in four vectors while the k rows of m are walked
// (then 8 at a time, then the last ones under a mask), each output
// summed over the rows in order from +0, every product rounded first.
TEXT ·vecMatAVX512(SB), NOSPLIT, $0-40
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ k+24(FP), R10
	MOVQ d+32(FP), R11
	MOVQ R11, R12
	SHLQ $3, R12 // row stride in bytes
	MOVQ R11, R13
	SHRQ $5, R13
	JZ   vm8

vm32:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	MOVQ   R8, AX
	XORQ   BX, BX
	CMPQ   R10, $0
	JEQ    vm32store

vm32row:
	VBROADCASTSD (SI)(BX*8), Z8
	VMULPD       (AX), Z8, Z4
	VMULPD       64(AX), Z8, Z5
	VMULPD       128(AX), Z8, Z6
	VMULPD       192(AX), Z8, Z7
	VADDPD       Z4, Z0, Z0
	VADDPD       Z5, Z1, Z1
	VADDPD       Z6, Z2, Z2
	VADDPD       Z7, Z3, Z3
	ADDQ         R12, AX
	INCQ         BX
	CMPQ         BX, R10
	JLT          vm32row

vm32store:
	VMOVUPD Z0, (DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	ADDQ    $256, DI
	ADDQ    $256, R8
	DECQ    R13
	JNZ     vm32

vm8:
	MOVQ R11, R13
	ANDQ $31, R13
	SHRQ $3, R13
	JZ   vmtail

vm8col:
	VPXORQ Z0, Z0, Z0
	MOVQ   R8, AX
	XORQ   BX, BX
	CMPQ   R10, $0
	JEQ    vm8store

vm8row:
	VBROADCASTSD (SI)(BX*8), Z8
	VMULPD       (AX), Z8, Z4
	VADDPD       Z4, Z0, Z0
	ADDQ         R12, AX
	INCQ         BX
	CMPQ         BX, R10
	JLT          vm8row

vm8store:
	VMOVUPD Z0, (DI)
	ADDQ    $64, DI
	ADDQ    $64, R8
	DECQ    R13
	JNZ     vm8col

vmtail:
	MOVQ R11, CX
	ANDQ $7, CX
	JZ   vmdone
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K1
	VPXORQ Z0, Z0, Z0
	MOVQ   R8, AX
	XORQ   BX, BX
	CMPQ   R10, $0
	JEQ    vmtailstore

vmtailrow:
	VBROADCASTSD (SI)(BX*8), Z8
	VMOVUPD.Z    (AX), K1, Z4
	VMULPD       Z4, Z8, Z4
	VADDPD       Z4, Z0, Z0
	ADDQ         R12, AX
	INCQ         BX
	CMPQ         BX, R10
	JLT          vmtailrow

vmtailstore:
	VMOVUPD Z0, K1, (DI)

vmdone:
	VZEROUPPER
	RET
