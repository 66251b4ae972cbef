//go:build !purego

#include "textflag.h"

// The conversions (cvt32_arm64.go), eight values per iteration; n > 0 a
// multiple of 8. Go's assembler has no vector FCVTN, FCVTL or FADD: they
// are encoded here (Vd, Vn, Vm register numbers).

// FCVTN Vd.2S, Vn.2D (the low half of Vd; the high half cleared)
#define FCVTN(n, d) WORD $(0x0E616800 | ((n)<<5) | (d))
// FCVTN2 Vd.4S, Vn.2D (the high half of Vd)
#define FCVTN2(n, d) WORD $(0x4E616800 | ((n)<<5) | (d))
// FCVTL Vd.2D, Vn.2S (the low half of Vn)
#define FCVTL(n, d) WORD $(0x0E617800 | ((n)<<5) | (d))
// FCVTL2 Vd.2D, Vn.4S (the high half of Vn)
#define FCVTL2(n, d) WORD $(0x4E617800 | ((n)<<5) | (d))
// FADD Vd.2D, Vn.2D, Vm.2D
#define FADD2D(m, n, d) WORD $(0x4E60D400 | ((m)<<16) | ((n)<<5) | (d))

// func to32NEON(dst *float32, src *float64, n int)
TEXT ·to32NEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), R0
	MOVD src+8(FP), R1
	MOVD n+16(FP), R2

to32loop:
	VLD1.P 64(R1), [V0.D2, V1.D2, V2.D2, V3.D2]
	FCVTN(0, 4)
	FCVTN2(1, 4)
	FCVTN(2, 5)
	FCVTN2(3, 5)
	VST1.P [V4.S4, V5.S4], 32(R0)
	SUBS   $8, R2, R2
	BNE    to32loop
	RET

// func add32NEON(dst *float64, src *float32, n int)
TEXT ·add32NEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), R0
	MOVD src+8(FP), R1
	MOVD n+16(FP), R2

add32loop:
	VLD1.P 32(R1), [V0.S4, V1.S4]
	VLD1   (R0), [V16.D2, V17.D2, V18.D2, V19.D2]
	FCVTL(0, 2)
	FCVTL2(0, 3)
	FCVTL(1, 4)
	FCVTL2(1, 5)
	FADD2D(2, 16, 16)
	FADD2D(3, 17, 17)
	FADD2D(4, 18, 18)
	FADD2D(5, 19, 19)
	VST1.P [V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	SUBS   $8, R2, R2
	BNE    add32loop
	RET

// func biasAdd32NEON(dst, bias *float64, src *float32, n int)
TEXT ·biasAdd32NEON(SB), NOSPLIT, $0-32
	MOVD dst+0(FP), R0
	MOVD bias+8(FP), R3
	MOVD src+16(FP), R1
	MOVD n+24(FP), R2

bias32loop:
	VLD1.P 32(R1), [V0.S4, V1.S4]
	VLD1.P 64(R3), [V16.D2, V17.D2, V18.D2, V19.D2]
	FCVTL(0, 2)
	FCVTL2(0, 3)
	FCVTL(1, 4)
	FCVTL2(1, 5)
	FADD2D(2, 16, 16)
	FADD2D(3, 17, 17)
	FADD2D(4, 18, 18)
	FADD2D(5, 19, 19)
	VST1.P [V16.D2, V17.D2, V18.D2, V19.D2], 64(R0)
	SUBS   $8, R2, R2
	BNE    bias32loop
	RET
