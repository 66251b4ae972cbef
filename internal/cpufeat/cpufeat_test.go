package cpufeat

import (
	"runtime"
	"testing"
)

// The implications between the features hold on every machine.
func TestImplications(t *testing.T) {
	if (X86.HasAVX512DQ || X86.HasAVX512BW || X86.HasAVX512VL) && !X86.HasAVX512F {
		t.Errorf("AVX-512 extensions without AVX512F: %+v", X86)
	}
	if runtime.GOARCH != "amd64" && (X86.HasAVX2 || X86.HasFMA || X86.HasAVX512F) {
		t.Errorf("x86 features on %s: %+v", runtime.GOARCH, X86)
	}
	if runtime.GOARCH == "arm64" && !ARM64.HasASIMD {
		t.Error("arm64 without Advanced SIMD")
	}
	t.Logf("x86 %+v, arm64 %+v", X86, ARM64)
}
