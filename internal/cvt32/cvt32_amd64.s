//go:build !purego

#include "textflag.h"

// The conversions (cvt32_amd64.go). Each kernel takes n > 0, a multiple
// of its vector width: four or eight vectors per iteration while that
// many remain, then one at a time. VZEROUPPER before returning (SSE code
// after dirty upper halves runs several times slower).

// func to32AVX512(dst *float32, src *float64, n int)
TEXT ·to32AVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	CMPQ CX, $32
	JB   to32x512one

to32x512four:
	VCVTPD2PS (SI), Y0
	VCVTPD2PS 64(SI), Y1
	VCVTPD2PS 128(SI), Y2
	VCVTPD2PS 192(SI), Y3
	VMOVUPS   Y0, (DI)
	VMOVUPS   Y1, 32(DI)
	VMOVUPS   Y2, 64(DI)
	VMOVUPS   Y3, 96(DI)
	ADDQ      $256, SI
	ADDQ      $128, DI
	SUBQ      $32, CX
	CMPQ      CX, $32
	JAE       to32x512four
	TESTQ     CX, CX
	JZ        to32x512done

to32x512one:
	VCVTPD2PS (SI), Y0
	VMOVUPS   Y0, (DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	SUBQ      $8, CX
	JNZ       to32x512one

to32x512done:
	VZEROUPPER
	RET

// func add32AVX512(dst *float64, src *float32, n int)
TEXT ·add32AVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	CMPQ CX, $32
	JB   add32x512one

add32x512four:
	VCVTPS2PD (SI), Z0
	VCVTPS2PD 32(SI), Z1
	VCVTPS2PD 64(SI), Z2
	VCVTPS2PD 96(SI), Z3
	VADDPD    (DI), Z0, Z0
	VADDPD    64(DI), Z1, Z1
	VADDPD    128(DI), Z2, Z2
	VADDPD    192(DI), Z3, Z3
	VMOVUPD   Z0, (DI)
	VMOVUPD   Z1, 64(DI)
	VMOVUPD   Z2, 128(DI)
	VMOVUPD   Z3, 192(DI)
	ADDQ      $128, SI
	ADDQ      $256, DI
	SUBQ      $32, CX
	CMPQ      CX, $32
	JAE       add32x512four
	TESTQ     CX, CX
	JZ        add32x512done

add32x512one:
	VCVTPS2PD (SI), Z0
	VADDPD    (DI), Z0, Z0
	VMOVUPD   Z0, (DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	SUBQ      $8, CX
	JNZ       add32x512one

add32x512done:
	VZEROUPPER
	RET

// func biasAdd32AVX512(dst, bias *float64, src *float32, n int)
TEXT ·biasAdd32AVX512(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ bias+8(FP), BX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	CMPQ CX, $32
	JB   bias32x512one

bias32x512four:
	VCVTPS2PD (SI), Z0
	VCVTPS2PD 32(SI), Z1
	VCVTPS2PD 64(SI), Z2
	VCVTPS2PD 96(SI), Z3
	VADDPD    (BX), Z0, Z0
	VADDPD    64(BX), Z1, Z1
	VADDPD    128(BX), Z2, Z2
	VADDPD    192(BX), Z3, Z3
	VMOVUPD   Z0, (DI)
	VMOVUPD   Z1, 64(DI)
	VMOVUPD   Z2, 128(DI)
	VMOVUPD   Z3, 192(DI)
	ADDQ      $128, SI
	ADDQ      $256, BX
	ADDQ      $256, DI
	SUBQ      $32, CX
	CMPQ      CX, $32
	JAE       bias32x512four
	TESTQ     CX, CX
	JZ        bias32x512done

bias32x512one:
	VCVTPS2PD (SI), Z0
	VADDPD    (BX), Z0, Z0
	VMOVUPD   Z0, (DI)
	ADDQ      $32, SI
	ADDQ      $64, BX
	ADDQ      $64, DI
	SUBQ      $8, CX
	JNZ       bias32x512one

bias32x512done:
	VZEROUPPER
	RET

// func to32AVX2(dst *float32, src *float64, n int)
TEXT ·to32AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	CMPQ CX, $32
	JB   to32x256one

to32x256eight:
	VCVTPD2PSY (SI), X0
	VCVTPD2PSY 32(SI), X1
	VCVTPD2PSY 64(SI), X2
	VCVTPD2PSY 96(SI), X3
	VCVTPD2PSY 128(SI), X4
	VCVTPD2PSY 160(SI), X5
	VCVTPD2PSY 192(SI), X6
	VCVTPD2PSY 224(SI), X7
	VMOVUPS    X0, (DI)
	VMOVUPS    X1, 16(DI)
	VMOVUPS    X2, 32(DI)
	VMOVUPS    X3, 48(DI)
	VMOVUPS    X4, 64(DI)
	VMOVUPS    X5, 80(DI)
	VMOVUPS    X6, 96(DI)
	VMOVUPS    X7, 112(DI)
	ADDQ       $256, SI
	ADDQ       $128, DI
	SUBQ       $32, CX
	CMPQ       CX, $32
	JAE        to32x256eight
	TESTQ      CX, CX
	JZ         to32x256done

to32x256one:
	VCVTPD2PSY (SI), X0
	VMOVUPS    X0, (DI)
	ADDQ       $32, SI
	ADDQ       $16, DI
	SUBQ       $4, CX
	JNZ        to32x256one

to32x256done:
	VZEROUPPER
	RET

// func add32AVX2(dst *float64, src *float32, n int)
TEXT ·add32AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	CMPQ CX, $16
	JB   add32x256one

add32x256four:
	VCVTPS2PD (SI), Y0
	VCVTPS2PD 16(SI), Y1
	VCVTPS2PD 32(SI), Y2
	VCVTPS2PD 48(SI), Y3
	VADDPD    (DI), Y0, Y0
	VADDPD    32(DI), Y1, Y1
	VADDPD    64(DI), Y2, Y2
	VADDPD    96(DI), Y3, Y3
	VMOVUPD   Y0, (DI)
	VMOVUPD   Y1, 32(DI)
	VMOVUPD   Y2, 64(DI)
	VMOVUPD   Y3, 96(DI)
	ADDQ      $64, SI
	ADDQ      $128, DI
	SUBQ      $16, CX
	CMPQ      CX, $16
	JAE       add32x256four
	TESTQ     CX, CX
	JZ        add32x256done

add32x256one:
	VCVTPS2PD (SI), Y0
	VADDPD    (DI), Y0, Y0
	VMOVUPD   Y0, (DI)
	ADDQ      $16, SI
	ADDQ      $32, DI
	SUBQ      $4, CX
	JNZ       add32x256one

add32x256done:
	VZEROUPPER
	RET

// func biasAdd32AVX2(dst, bias *float64, src *float32, n int)
TEXT ·biasAdd32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ bias+8(FP), BX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	CMPQ CX, $16
	JB   bias32x256one

bias32x256four:
	VCVTPS2PD (SI), Y0
	VCVTPS2PD 16(SI), Y1
	VCVTPS2PD 32(SI), Y2
	VCVTPS2PD 48(SI), Y3
	VADDPD    (BX), Y0, Y0
	VADDPD    32(BX), Y1, Y1
	VADDPD    64(BX), Y2, Y2
	VADDPD    96(BX), Y3, Y3
	VMOVUPD   Y0, (DI)
	VMOVUPD   Y1, 32(DI)
	VMOVUPD   Y2, 64(DI)
	VMOVUPD   Y3, 96(DI)
	ADDQ      $64, SI
	ADDQ      $128, BX
	ADDQ      $128, DI
	SUBQ      $16, CX
	CMPQ      CX, $16
	JAE       bias32x256four
	TESTQ     CX, CX
	JZ        bias32x256done

bias32x256one:
	VCVTPS2PD (SI), Y0
	VADDPD    (BX), Y0, Y0
	VMOVUPD   Y0, (DI)
	ADDQ      $16, SI
	ADDQ      $32, BX
	ADDQ      $32, DI
	SUBQ      $4, CX
	JNZ       bias32x256one

bias32x256done:
	VZEROUPPER
	RET
