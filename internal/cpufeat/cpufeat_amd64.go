package cpufeat

// cpuid returns CPUID's registers for leaf eax, sub-leaf ecx.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns XCR0 (XGETBV with ECX = 0); call it only when CPUID
// reports OSXSAVE.
func xgetbv() (eax, edx uint32)

func init() {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 1 {
		return
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return
	}
	xcr0, _ := xgetbv()
	osYMM := xcr0&0x6 == 0x6   // XMM and YMM state
	osZMM := xcr0&0xe6 == 0xe6 // and opmask, ZMM0–15 upper halves, ZMM16–31
	if !osYMM {
		return
	}
	X86.HasFMA = ecx1&fma != 0
	if maxLeaf < 7 {
		return
	}
	_, ebx7, _, _ := cpuid(7, 0)
	bit := func(n uint) bool { return ebx7&(1<<n) != 0 }
	X86.HasAVX2 = bit(5)
	if osZMM && bit(16) {
		X86.HasAVX512F = true
		X86.HasAVX512DQ = bit(17)
		X86.HasAVX512BW = bit(30)
		X86.HasAVX512VL = bit(31)
	}
}
