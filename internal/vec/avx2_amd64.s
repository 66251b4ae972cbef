//go:build amd64 && !purego

#include "textflag.h"

// The AVX2/FMA kernels: 256-bit vectors, four values at a time. The
// element-wise loops cover n rounded down to a multiple of four (the
// caller runs the rest in Go, after the kernel's VZEROUPPER); the dot
// products load Dot's last block zero-filled through VMASKMOVPD masks
// from tailmask16. VMAXPD t, ZERO, t as in avx512_amd64.s.

// tailmask16: sixteen all-ones values, then sixteen zeros. The four
// masks of a last block of r < 16 elements are at tailmask16 + 8(16−r).
DATA tailmask16<>+0(SB)/8, $-1
DATA tailmask16<>+8(SB)/8, $-1
DATA tailmask16<>+16(SB)/8, $-1
DATA tailmask16<>+24(SB)/8, $-1
DATA tailmask16<>+32(SB)/8, $-1
DATA tailmask16<>+40(SB)/8, $-1
DATA tailmask16<>+48(SB)/8, $-1
DATA tailmask16<>+56(SB)/8, $-1
DATA tailmask16<>+64(SB)/8, $-1
DATA tailmask16<>+72(SB)/8, $-1
DATA tailmask16<>+80(SB)/8, $-1
DATA tailmask16<>+88(SB)/8, $-1
DATA tailmask16<>+96(SB)/8, $-1
DATA tailmask16<>+104(SB)/8, $-1
DATA tailmask16<>+112(SB)/8, $-1
DATA tailmask16<>+120(SB)/8, $-1
DATA tailmask16<>+128(SB)/8, $0
DATA tailmask16<>+136(SB)/8, $0
DATA tailmask16<>+144(SB)/8, $0
DATA tailmask16<>+152(SB)/8, $0
DATA tailmask16<>+160(SB)/8, $0
DATA tailmask16<>+168(SB)/8, $0
DATA tailmask16<>+176(SB)/8, $0
DATA tailmask16<>+184(SB)/8, $0
DATA tailmask16<>+192(SB)/8, $0
DATA tailmask16<>+200(SB)/8, $0
DATA tailmask16<>+208(SB)/8, $0
DATA tailmask16<>+216(SB)/8, $0
DATA tailmask16<>+224(SB)/8, $0
DATA tailmask16<>+232(SB)/8, $0
DATA tailmask16<>+240(SB)/8, $0
DATA tailmask16<>+248(SB)/8, $0
GLOBL tailmask16<>(SB), RODATA|NOPTR, $256

// TAILBASE sets R10 to the masks of a last block of CX elements.
#define TAILBASE \
	MOVQ $16, R10 \
	SUBQ CX, R10 \
	SHLQ $3, R10 \
	LEAQ tailmask16<>(SB), AX \
	ADDQ AX, R10

// func reluAVX2(out, j *float64, n int, amp float64)
TEXT ·reluAVX2(SB), NOSPLIT, $0-32
	MOVQ         out+0(FP), DI
	MOVQ         j+8(FP), SI
	MOVQ         n+16(FP), DX
	VBROADCASTSD amp+24(FP), Y1
	VXORPD       Y0, Y0, Y0
	SHRQ         $2, DX
	JZ           relu2done

relu2loop:
	VMOVUPD (SI), Y2
	VMAXPD  Y2, Y0, Y2
	VMULPD  Y2, Y1, Y2
	VMOVUPD Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    DX
	JNZ     relu2loop

relu2done:
	VZEROUPPER
	RET

// func axpyAVX2(y, a *float64, n int, s float64)
TEXT ·axpyAVX2(SB), NOSPLIT, $0-32
	MOVQ         y+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         n+16(FP), DX
	VBROADCASTSD s+24(FP), Y1
	SHRQ         $2, DX
	JZ           axpy2done

axpy2loop:
	VMULPD  (SI), Y1, Y2
	VADDPD  (DI), Y2, Y2
	VMOVUPD Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    DX
	JNZ     axpy2loop

axpy2done:
	VZEROUPPER
	RET

// func scaleAVX2(y, a *float64, n int, s float64)
TEXT ·scaleAVX2(SB), NOSPLIT, $0-32
	MOVQ         y+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         n+16(FP), DX
	VBROADCASTSD s+24(FP), Y1
	SHRQ         $2, DX
	JZ           scale2done

scale2loop:
	VMULPD  (SI), Y1, Y2
	VMOVUPD Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    DX
	JNZ     scale2loop

scale2done:
	VZEROUPPER
	RET

// func mulIncAVX2(y, a, x *float64, n int)
TEXT ·mulIncAVX2(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ x+16(FP), BX
	MOVQ n+24(FP), DX
	SHRQ $2, DX
	JZ   mulinc2done

mulinc2loop:
	VMOVUPD (SI), Y2
	VMULPD  (BX), Y2, Y2
	VADDPD  (DI), Y2, Y2
	VMOVUPD Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, BX
	ADDQ    $32, DI
	DECQ    DX
	JNZ     mulinc2loop

mulinc2done:
	VZEROUPPER
	RET

// func addAVX2(y, x *float64, n int)
TEXT ·addAVX2(SB), NOSPLIT, $0-24
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), DX
	SHRQ $2, DX
	JZ   add2done

add2loop:
	VMOVUPD (DI), Y2
	VADDPD  (SI), Y2, Y2
	VMOVUPD Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    DX
	JNZ     add2loop

add2done:
	VZEROUPPER
	RET

// func axpyToAVX2(y, b, a *float64, n int, s float64)
TEXT ·axpyToAVX2(SB), NOSPLIT, $0-40
	MOVQ         y+0(FP), DI
	MOVQ         b+8(FP), BX
	MOVQ         a+16(FP), SI
	MOVQ         n+24(FP), DX
	VBROADCASTSD s+32(FP), Y1
	SHRQ         $2, DX
	JZ           axpyto2done

axpyto2loop:
	VMULPD  (SI), Y1, Y2
	VADDPD  (BX), Y2, Y2
	VMOVUPD Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, BX
	ADDQ    $32, DI
	DECQ    DX
	JNZ     axpyto2loop

axpyto2done:
	VZEROUPPER
	RET

// func axpyReluAVX2(out, b, a *float64, n int, s, amp float64)
TEXT ·axpyReluAVX2(SB), NOSPLIT, $0-48
	MOVQ         out+0(FP), DI
	MOVQ         b+8(FP), BX
	MOVQ         a+16(FP), SI
	MOVQ         n+24(FP), DX
	VBROADCASTSD s+32(FP), Y1
	VBROADCASTSD amp+40(FP), Y5
	VXORPD       Y0, Y0, Y0
	SHRQ         $2, DX
	JZ           axpyrelu2done

axpyrelu2loop:
	VMULPD  (SI), Y1, Y2
	VADDPD  (BX), Y2, Y2
	VMAXPD  Y2, Y0, Y2
	VMULPD  Y2, Y5, Y2
	VMOVUPD Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, BX
	ADDQ    $32, DI
	DECQ    DX
	JNZ     axpyrelu2loop

axpyrelu2done:
	VZEROUPPER
	RET

// func gainReluAVX2(out, x, gain, b *float64, n int, amp float64)
TEXT ·gainReluAVX2(SB), NOSPLIT, $0-48
	MOVQ         out+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         gain+16(FP), BX
	MOVQ         b+24(FP), R8
	MOVQ         n+32(FP), DX
	VBROADCASTSD amp+40(FP), Y5
	VXORPD       Y0, Y0, Y0
	SHRQ         $2, DX
	JZ           gainrelu2done

gainrelu2loop:
	VMOVUPD (BX), Y2
	VMULPD  (SI), Y2, Y2
	VADDPD  (R8), Y2, Y2
	VMAXPD  Y2, Y0, Y2
	VMULPD  Y2, Y5, Y2
	VMOVUPD Y2, (DI)
	ADDQ    $32, SI
	ADDQ    $32, BX
	ADDQ    $32, R8
	ADDQ    $32, DI
	DECQ    DX
	JNZ     gainrelu2loop

gainrelu2done:
	VZEROUPPER
	RET

// func countPositiveAVX2(cnt, x, gain, b *float64, n int, mx float64, lanes *[8]float64)
//
// As countPositiveAVX512: a count is replaced by count + 1 only where
// J > 0 (a blend), each lane keeps J when J > max; lanes[0:4] gets the
// lane maxima.
TEXT ·countPositiveAVX2(SB), NOSPLIT, $0-56
	MOVQ         cnt+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         gain+16(FP), BX
	MOVQ         b+24(FP), R8
	MOVQ         n+32(FP), DX
	VBROADCASTSD mx+40(FP), Y6
	MOVQ         $0x3ff0000000000000, AX
	MOVQ         AX, X1
	VBROADCASTSD X1, Y1
	VXORPD       Y0, Y0, Y0
	SHRQ         $2, DX
	JZ           count2done

count2loop:
	VMOVUPD   (BX), Y2
	VMULPD    (SI), Y2, Y2
	VADDPD    (R8), Y2, Y2
	VCMPPD    $0x1e, Y0, Y2, Y4
	VMOVUPD   (DI), Y3
	VADDPD    Y1, Y3, Y5
	VBLENDVPD Y4, Y5, Y3, Y3
	VMOVUPD   Y3, (DI)
	VMAXPD    Y6, Y2, Y6
	ADDQ      $32, SI
	ADDQ      $32, BX
	ADDQ      $32, R8
	ADDQ      $32, DI
	DECQ      DX
	JNZ       count2loop

count2done:
	MOVQ    lanes+48(FP), AX
	VMOVUPD Y6, (AX)
	VZEROUPPER
	RET

// func lowpassAVX2(y, x, u *float64, n int, a, b float64)
TEXT ·lowpassAVX2(SB), NOSPLIT, $0-48
	MOVQ         y+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         u+16(FP), BX
	MOVQ         n+24(FP), DX
	VBROADCASTSD a+32(FP), Y1
	VBROADCASTSD b+40(FP), Y5
	MOVQ         $0x7ff0000000000000, AX
	MOVQ         AX, X6
	VPBROADCASTQ X6, Y6
	VXORPD       Y7, Y7, Y7
	SHRQ         $2, DX
	JZ           lowpass2done

lowpass2loop:
	VMULPD   (SI), Y1, Y2
	VMULPD   (BX), Y5, Y3
	VADDPD   Y3, Y2, Y2
	VANDPD   Y6, Y2, Y4
	VPCMPEQQ Y7, Y4, Y4
	VANDNPD  Y2, Y4, Y2
	VMOVUPD  Y2, (SI)
	VMOVUPD  Y2, (DI)
	ADDQ     $32, SI
	ADDQ     $32, BX
	ADDQ     $32, DI
	DECQ     DX
	JNZ      lowpass2loop

lowpass2done:
	VZEROUPPER
	RET

// func firstNaNAVX2(x *float64, n int) int
//
// The index of the first NaN among x[0 : n&^3], -1 if none.
TEXT ·firstNaNAVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), DX
	XORQ R9, R9
	SHRQ $2, DX
	JZ   nan2none

nan2loop:
	VMOVUPD   (SI)(R9*8), Y2
	VCMPPD    $3, Y2, Y2, Y3
	VMOVMSKPD Y3, AX
	TESTL     AX, AX
	JNZ       nan2found
	ADDQ      $4, R9
	DECQ      DX
	JNZ       nan2loop

nan2none:
	MOVQ $-1, ret+16(FP)
	VZEROUPPER
	RET

nan2found:
	BSFL AX, AX
	ADDQ AX, R9
	MOVQ R9, ret+16(FP)
	VZEROUPPER
	RET

// func lifAVX2(p *lifParams, j, out, v, r *float64, n int, bad *uint8) (nbad int)
//
// lifAVX512 four neurons at a time (n a multiple of four); the lanes
// left to the caller keep their values (a blend with the loaded ones).
TEXT ·lifAVX2(SB), NOSPLIT, $0-64
	MOVQ         p+0(FP), AX
	VBROADCASTSD 0(AX), Y10  // dt
	VBROADCASTSD 24(AX), Y11 // minV
	VBROADCASTSD 40(AX), Y12 // eFull
	VBROADCASTSD 48(AX), Y13 // eNone
	MOVQ         $0x3ff0000000000000, AX
	MOVQ         AX, X14
	VBROADCASTSD X14, Y14
	VXORPD       Y0, Y0, Y0
	MOVQ         j+8(FP), SI
	MOVQ         out+16(FP), DI
	MOVQ         v+24(FP), BX
	MOVQ         r+32(FP), R8
	MOVQ         n+40(FP), DX
	MOVQ         bad+48(FP), R10
	XORQ         R9, R9
	XORQ         R11, R11
	CMPQ         DX, $0
	JLE          lif2end

lif2loop:
	VMOVUPD   (R8)(R9*8), Y7     // r
	VSUBPD    Y10, Y7, Y1        // rt = r − dt
	VSUBPD    Y1, Y10, Y2        // d = dt − rt
	VCMPPD    $0x1d, Y10, Y2, Y8 // d ≥ dt: the whole step
	VCMPPD    $0x12, Y0, Y2, Y9  // d ≤ 0: none of it
	VBLENDVPD Y8, Y12, Y13, Y3   // e
	VORPD     Y8, Y9, Y9
	VMOVUPD   (BX)(R9*8), Y4     // v0
	VMOVUPD   (SI)(R9*8), Y5
	VSUBPD    Y4, Y5, Y5
	VMULPD    Y3, Y5, Y5
	VSUBPD    Y5, Y4, Y6         // v = v0 − (J − v0)·e
	VCMPPD    $0x1e, Y14, Y6, Y8 // v > 1: a spike
	VCMPPD    $0x11, Y11, Y6, Y15
	VBLENDVPD Y15, Y11, Y6, Y6   // v < minV: minV
	VANDNPD   Y9, Y8, Y9         // fine: (full or none) and no spike
	VMOVMSKPD Y9, AX
	XORL      $0xf, AX           // the lanes left to the caller
	MOVB      AX, (R10)
	JNZ       lif2bad
	VMOVUPD   Y0, (DI)(R9*8)
	VMOVUPD   Y6, (BX)(R9*8)
	VMOVUPD   Y1, (R8)(R9*8)
	JMP       lif2next

lif2bad:
	INCQ      R11
	VMOVUPD   (DI)(R9*8), Y5
	VBLENDVPD Y9, Y0, Y5, Y5
	VMOVUPD   Y5, (DI)(R9*8)
	VBLENDVPD Y9, Y6, Y4, Y4
	VMOVUPD   Y4, (BX)(R9*8)
	VBLENDVPD Y9, Y1, Y7, Y7
	VMOVUPD   Y7, (R8)(R9*8)

lif2next:
	INCQ R10
	ADDQ $4, R9
	CMPQ R9, DX
	JLT  lif2loop

lif2end:
	MOVQ R11, nbad+56(FP)
	VZEROUPPER
	RET

// FOLD16 sets yt to the four lane sums (v0 + v1) + (v2 + v3) of a row's
// partial sums v0..v3 (v0 is overwritten).
#define FOLD16(v0, v1, v2, v3) \
	VADDPD v1, v0, v0 \
	VADDPD v3, v2, v2 \
	VADDPD v2, v0, v0

// func dotAVX2(a, x *float64, n int) float64
TEXT ·dotAVX2(SB), NOSPLIT, $0-32
	MOVQ   a+0(FP), SI
	MOVQ   x+8(FP), BX
	MOVQ   n+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ   CX, DX
	SHRQ   $4, DX
	JZ     dot2xtail

dot2xloop:
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VFMADD231PD (BX), Y4, Y0
	VFMADD231PD 32(BX), Y5, Y1
	VFMADD231PD 64(BX), Y6, Y2
	VFMADD231PD 96(BX), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, BX
	DECQ        DX
	JNZ         dot2xloop

dot2xtail:
	ANDQ $15, CX
	JZ   dot2xreduce
	TAILBASE
	VMOVUPD     (R10), Y8
	VMASKMOVPD  (SI), Y8, Y4
	VMASKMOVPD  (BX), Y8, Y5
	VFMADD231PD Y5, Y4, Y0
	VMOVUPD     32(R10), Y8
	VMASKMOVPD  32(SI), Y8, Y4
	VMASKMOVPD  32(BX), Y8, Y5
	VFMADD231PD Y5, Y4, Y1
	VMOVUPD     64(R10), Y8
	VMASKMOVPD  64(SI), Y8, Y4
	VMASKMOVPD  64(BX), Y8, Y5
	VFMADD231PD Y5, Y4, Y2
	VMOVUPD     96(R10), Y8
	VMASKMOVPD  96(SI), Y8, Y4
	VMASKMOVPD  96(BX), Y8, Y5
	VFMADD231PD Y5, Y4, Y3

dot2xreduce:
	FOLD16(Y0, Y1, Y2, Y3)
	VEXTRACTF128 $1, Y0, X1
	VHADDPD      X1, X0, X0
	VHADDPD      X0, X0, X0
	VZEROUPPER
	VMOVSD       X0, ret+24(FP)
	RET

// TAIL2 adds chunk off of the last block (mask at off(R10)) of rows SI
// and DI times x (BX) to the sums va and vb.
#define TAIL2(off, va, vb) \
	VMOVUPD     off(R10), Y12 \
	VMASKMOVPD  off(BX), Y12, Y13 \
	VMASKMOVPD  off(SI), Y12, Y14 \
	VFMADD231PD Y14, Y13, va \
	VMASKMOVPD  off(DI), Y12, Y14 \
	VFMADD231PD Y14, Y13, vb

// func dot2AVX2(a, b, x *float64, n int) (ra, rb float64)
TEXT ·dot2AVX2(SB), NOSPLIT, $0-48
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   x+16(FP), BX
	MOVQ   n+24(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ   CX, DX
	SHRQ   $4, DX
	JZ     dot22tail

dot22loop:
	VMOVUPD     (BX), Y8
	VMOVUPD     32(BX), Y9
	VMOVUPD     64(BX), Y10
	VMOVUPD     96(BX), Y11
	VFMADD231PD (SI), Y8, Y0
	VFMADD231PD 32(SI), Y9, Y1
	VFMADD231PD 64(SI), Y10, Y2
	VFMADD231PD 96(SI), Y11, Y3
	VFMADD231PD (DI), Y8, Y4
	VFMADD231PD 32(DI), Y9, Y5
	VFMADD231PD 64(DI), Y10, Y6
	VFMADD231PD 96(DI), Y11, Y7
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, BX
	DECQ        DX
	JNZ         dot22loop

dot22tail:
	ANDQ $15, CX
	JZ   dot22reduce
	TAILBASE
	TAIL2(0, Y0, Y4)
	TAIL2(32, Y1, Y5)
	TAIL2(64, Y2, Y6)
	TAIL2(96, Y3, Y7)

dot22reduce:
	FOLD16(Y0, Y1, Y2, Y3)
	FOLD16(Y4, Y5, Y6, Y7)
	VHADDPD      Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VZEROUPPER
	VMOVSD       X0, ra+32(FP)
	VMOVHPD      X0, rb+40(FP)
	RET

// func vecMatAVX2(y, x, m *float64, k, d int)
//
// vecMatAVX512 with 32 outputs in eight vectors, then four at a time;
// the last d mod 4 columns are left to the caller.
TEXT ·vecMatAVX2(SB), NOSPLIT, $0-40
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ k+24(FP), R10
	MOVQ d+32(FP), R11
	MOVQ R11, R12
	SHLQ $3, R12
	MOVQ R11, R13
	SHRQ $5, R13
	JZ   vm2x4

vm2x32:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ   R8, AX
	XORQ   BX, BX
	CMPQ   R10, $0
	JEQ    vm2x32store

vm2x32row:
	VBROADCASTSD (SI)(BX*8), Y8
	VMULPD       (AX), Y8, Y9
	VMULPD       32(AX), Y8, Y10
	VMULPD       64(AX), Y8, Y11
	VMULPD       96(AX), Y8, Y12
	VADDPD       Y9, Y0, Y0
	VADDPD       Y10, Y1, Y1
	VADDPD       Y11, Y2, Y2
	VADDPD       Y12, Y3, Y3
	VMULPD       128(AX), Y8, Y9
	VMULPD       160(AX), Y8, Y10
	VMULPD       192(AX), Y8, Y11
	VMULPD       224(AX), Y8, Y12
	VADDPD       Y9, Y4, Y4
	VADDPD       Y10, Y5, Y5
	VADDPD       Y11, Y6, Y6
	VADDPD       Y12, Y7, Y7
	ADDQ         R12, AX
	INCQ         BX
	CMPQ         BX, R10
	JLT          vm2x32row

vm2x32store:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	ADDQ    $256, DI
	ADDQ    $256, R8
	DECQ    R13
	JNZ     vm2x32

vm2x4:
	MOVQ R11, R13
	ANDQ $31, R13
	SHRQ $2, R13
	JZ   vm2done

vm2x4col:
	VXORPD Y0, Y0, Y0
	MOVQ   R8, AX
	XORQ   BX, BX
	CMPQ   R10, $0
	JEQ    vm2x4store

vm2x4row:
	VBROADCASTSD (SI)(BX*8), Y8
	VMULPD       (AX), Y8, Y9
	VADDPD       Y9, Y0, Y0
	ADDQ         R12, AX
	INCQ         BX
	CMPQ         BX, R10
	JLT          vm2x4row

vm2x4store:
	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, R8
	DECQ    R13
	JNZ     vm2x4col

vm2done:
	VZEROUPPER
	RET

// ENSTAIL runs chunk off of EnsDot2's last block under its mask (at
// off(R10)): the rates (masked loads read zeros past the end), times amp,
// stored to a under the mask, zeroed past the end, summed against d1
// into va and d2 into vb (for one row d2 is d1 again, its sums dropped).
#define ENSTAIL(off, va, vb) \
	VMOVUPD     off(R10), Y15 \
	VMASKMOVPD  off(DI), Y15, Y11 \
	VMASKMOVPD  off(SI), Y15, Y12 \
	VMULPD      Y11, Y8, Y11 \
	VADDPD      Y12, Y11, Y11 \
	VMAXPD      Y11, Y10, Y11 \
	VMULPD      Y11, Y9, Y11 \
	VMASKMOVPD  Y11, Y15, off(R11) \
	VANDPD      Y15, Y11, Y11 \
	VMASKMOVPD  off(R8), Y15, Y12 \
	VFMADD231PD Y12, Y11, va \
	VMASKMOVPD  off(R9), Y15, Y12 \
	VFMADD231PD Y12, Y11, vb

// ENSRATE sets t to the rates max(0, bias + enc·x) of the four neurons
// at off (bias SI, enc DI; x in Y8, zero in Y10).
#define ENSRATE(off, t) \
	VMULPD off(DI), Y8, t \
	VADDPD off(SI), t, t \
	VMAXPD t, Y10, t

// func ensDot2AVX2(a, bias, enc, d1, d2 *float64, n int, x, amp float64, mode int) (s1, s2 float64)
//
// ensDot2AVX512 with the sixteen partial sums of each row in four 4-wide
// vectors (d1: Y0–Y3, d2: Y4–Y7); mode as there.
TEXT ·ensDot2AVX2(SB), NOSPLIT, $0-88
	MOVQ         a+0(FP), R11
	MOVQ         bias+8(FP), SI
	MOVQ         enc+16(FP), DI
	MOVQ         d1+24(FP), R8
	MOVQ         d2+32(FP), R9
	MOVQ         n+40(FP), CX
	VBROADCASTSD x+48(FP), Y8
	VBROADCASTSD amp+56(FP), Y9
	MOVQ         mode+64(FP), R12
	VXORPD       Y10, Y10, Y10
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3
	VXORPD       Y4, Y4, Y4
	VXORPD       Y5, Y5, Y5
	VXORPD       Y6, Y6, Y6
	VXORPD       Y7, Y7, Y7
	MOVQ         CX, DX
	SHRQ         $4, DX
	JZ           ens2tail
	CMPQ         R12, $6
	JEQ          ens2unit1
	CMPQ         R12, $2
	JEQ          ens2unit2

ens2general:
	ENSRATE(0, Y11)
	ENSRATE(32, Y12)
	ENSRATE(64, Y13)
	ENSRATE(96, Y14)
	VMULPD      Y11, Y9, Y11
	VMULPD      Y12, Y9, Y12
	VMULPD      Y13, Y9, Y13
	VMULPD      Y14, Y9, Y14
	VMOVUPD     Y11, (R11)
	VMOVUPD     Y12, 32(R11)
	VMOVUPD     Y13, 64(R11)
	VMOVUPD     Y14, 96(R11)
	VFMADD231PD (R8), Y11, Y0
	VFMADD231PD 32(R8), Y12, Y1
	VFMADD231PD 64(R8), Y13, Y2
	VFMADD231PD 96(R8), Y14, Y3
	VFMADD231PD (R9), Y11, Y4
	VFMADD231PD 32(R9), Y12, Y5
	VFMADD231PD 64(R9), Y13, Y6
	VFMADD231PD 96(R9), Y14, Y7
	ADDQ        $128, R11
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	ADDQ        $128, R9
	DECQ        DX
	JNZ         ens2general
	JMP         ens2tail

ens2unit2:
	ENSRATE(0, Y11)
	ENSRATE(32, Y12)
	ENSRATE(64, Y13)
	ENSRATE(96, Y14)
	VFMADD231PD (R8), Y11, Y0
	VFMADD231PD 32(R8), Y12, Y1
	VFMADD231PD 64(R8), Y13, Y2
	VFMADD231PD 96(R8), Y14, Y3
	VFMADD231PD (R9), Y11, Y4
	VFMADD231PD 32(R9), Y12, Y5
	VFMADD231PD 64(R9), Y13, Y6
	VFMADD231PD 96(R9), Y14, Y7
	ADDQ        $128, R11
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	ADDQ        $128, R9
	DECQ        DX
	JNZ         ens2unit2
	JMP         ens2tail

ens2unit1:
	ENSRATE(0, Y11)
	ENSRATE(32, Y12)
	ENSRATE(64, Y13)
	ENSRATE(96, Y14)
	VFMADD231PD (R8), Y11, Y0
	VFMADD231PD 32(R8), Y12, Y1
	VFMADD231PD 64(R8), Y13, Y2
	VFMADD231PD 96(R8), Y14, Y3
	ADDQ        $128, R11
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	DECQ        DX
	JNZ         ens2unit1

ens2tail:
	ANDQ $15, CX
	JZ   ens2reduce
	TAILBASE
	ENSTAIL(0, Y0, Y4)
	ENSTAIL(32, Y1, Y5)
	ENSTAIL(64, Y2, Y6)
	ENSTAIL(96, Y3, Y7)

ens2reduce:
	FOLD16(Y0, Y1, Y2, Y3)
	FOLD16(Y4, Y5, Y6, Y7)
	VHADDPD      Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VZEROUPPER
	VMOVSD       X0, s1+72(FP)
	VMOVHPD      X0, s2+80(FP)
	RET

// OCTRATE sets lo, hi to the rates amp·max(0, bias + enc·x) of the
// eight ensembles' neuron-vector at b (x at R8, zero Y12, amp Y15).
#define OCTRATE(b, lo, hi) \
	VMOVUPD 64(b), lo \
	VMOVUPD 96(b), hi \
	VMULPD  (R8), lo, lo \
	VMULPD  32(R8), hi, hi \
	VADDPD  (b), lo, lo \
	VADDPD  32(b), hi, hi \
	VMAXPD  lo, Y12, lo \
	VMAXPD  hi, Y12, hi \
	VMULPD  lo, Y15, lo \
	VMULPD  hi, Y15, hi

// func ensOctAVX2(p *float64, n int, two bool, x *[8]float64, amp float64, s1, s2 *[8]float64)
//
// EnsOct with 4-wide vectors: each ensemble-octet vector is two halves.
// The stripes are walked one at a time in the pack's order (j = 0..3,
// then i = j, j+4, j+8, j+12), each stripe's sums (Y0, Y1; second row
// Y2, Y3) folded at once as the AVX-512 kernels do: u = s_j + s_{j+4}
// (Y4–Y7), v = s_{j+8} + s_{j+12} (Y8–Y11), t_j = u + v, then
// (t0 + t1) + (t2 + t3) with t0 + t1 and t2 + t3 kept in the frame.
// amp 1 multiplies exactly (1·r = r). n ≥ 1.
TEXT ·ensOctAVX2(SB), NOSPLIT, $256-56
	MOVQ         p+0(FP), SI
	MOVQ         n+8(FP), DI
	MOVBQZX      two+16(FP), R9
	MOVQ         x+24(FP), R8
	VBROADCASTSD amp+32(FP), Y15
	VXORPD       Y12, Y12, Y12
	MOVQ         $192, CX
	TESTQ        R9, R9
	JZ           octwidth
	MOVQ         $256, CX

octwidth:
	XORQ R10, R10 // j

octj:
	XORQ R11, R11 // q

octq:
	// stripe i = j + 4q: (n − i + 15) / 16 neurons
	MOVQ   R11, DX
	SHLQ   $2, DX
	ADDQ   R10, DX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ   DI, R12
	SUBQ   DX, R12
	JLE    octfold
	ADDQ   $15, R12
	SHRQ   $4, R12
	TESTQ  R9, R9
	JNZ    octtwo

octone:
	OCTRATE(SI, Y13, Y14)
	VFMADD231PD 128(SI), Y13, Y0
	VFMADD231PD 160(SI), Y14, Y1
	ADDQ        CX, SI
	DECQ        R12
	JNZ         octone
	JMP         octfold

octtwo:
	OCTRATE(SI, Y13, Y14)
	VFMADD231PD 128(SI), Y13, Y0
	VFMADD231PD 160(SI), Y14, Y1
	VFMADD231PD 192(SI), Y13, Y2
	VFMADD231PD 224(SI), Y14, Y3
	ADDQ        CX, SI
	DECQ        R12
	JNZ         octtwo

octfold:
	CMPQ    R11, $1
	JEQ     octq1
	JGT     octq23
	VMOVAPD Y0, Y4
	VMOVAPD Y1, Y5
	VMOVAPD Y2, Y6
	VMOVAPD Y3, Y7
	JMP     octnextq

octq1:
	VADDPD Y0, Y4, Y4
	VADDPD Y1, Y5, Y5
	VADDPD Y2, Y6, Y6
	VADDPD Y3, Y7, Y7
	JMP    octnextq

octq23:
	CMPQ    R11, $3
	JEQ     octq3
	VMOVAPD Y0, Y8
	VMOVAPD Y1, Y9
	VMOVAPD Y2, Y10
	VMOVAPD Y3, Y11
	JMP     octnextq

octq3:
	VADDPD Y0, Y8, Y8
	VADDPD Y1, Y9, Y9
	VADDPD Y2, Y10, Y10
	VADDPD Y3, Y11, Y11
	VADDPD Y8, Y4, Y4 // t_j = u + v
	VADDPD Y9, Y5, Y5
	VADDPD Y10, Y6, Y6
	VADDPD Y11, Y7, Y7
	// j even: the pair's first t (frame 0 for j = 0, 128 for j = 2);
	// j odd: add the pair's second
	MOVQ R10, AX
	ANDQ $2, AX
	SHLQ $6, AX
	TESTQ $1, R10
	JNZ   octjodd
	VMOVUPD Y4, 0(SP)(AX*1)
	VMOVUPD Y5, 32(SP)(AX*1)
	VMOVUPD Y6, 64(SP)(AX*1)
	VMOVUPD Y7, 96(SP)(AX*1)
	JMP     octnextq

octjodd:
	VADDPD  0(SP)(AX*1), Y4, Y4
	VADDPD  32(SP)(AX*1), Y5, Y5
	VADDPD  64(SP)(AX*1), Y6, Y6
	VADDPD  96(SP)(AX*1), Y7, Y7
	VMOVUPD Y4, 0(SP)(AX*1)
	VMOVUPD Y5, 32(SP)(AX*1)
	VMOVUPD Y6, 64(SP)(AX*1)
	VMOVUPD Y7, 96(SP)(AX*1)

octnextq:
	INCQ R11
	CMPQ R11, $4
	JLT  octq
	INCQ R10
	CMPQ R10, $4
	JLT  octj

	// (t0 + t1) + (t2 + t3)
	VMOVUPD 0(SP), Y4
	VMOVUPD 32(SP), Y5
	VMOVUPD 64(SP), Y6
	VMOVUPD 96(SP), Y7
	VADDPD  128(SP), Y4, Y4
	VADDPD  160(SP), Y5, Y5
	VADDPD  192(SP), Y6, Y6
	VADDPD  224(SP), Y7, Y7
	MOVQ    s1+40(FP), AX
	VMOVUPD Y4, (AX)
	VMOVUPD Y5, 32(AX)
	MOVQ    s2+48(FP), AX
	VMOVUPD Y6, (AX)
	VMOVUPD Y7, 32(AX)
	VZEROUPPER
	RET
