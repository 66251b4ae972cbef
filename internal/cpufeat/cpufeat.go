package cpufeat

// X86 holds the amd64 features (all false on other architectures).
var X86 struct {
	HasAVX2     bool // AVX2 with the OS saving YMM state
	HasFMA      bool // FMA3 with the OS saving YMM state
	HasAVX512F  bool // AVX-512 Foundation with the OS saving ZMM and opmask state
	HasAVX512DQ bool // AVX-512 Doubleword and Quadword instructions (and F)
	HasAVX512BW bool // AVX-512 Byte and Word instructions (and F)
	HasAVX512VL bool // AVX-512 Vector Length extensions (and F)
}

// ARM64 holds the arm64 features (all false on other architectures).
var ARM64 struct {
	HasASIMD bool // Advanced SIMD (NEON)
}
