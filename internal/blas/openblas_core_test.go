package blas

import (
	"strings"
	"testing"
)

func TestOpenBLASMismatch(t *testing.T) {
	for _, tc := range []struct {
		arch         string
		avx512, avx2 bool
		core         string
		want         string // substring of the reason, "" for none
	}{
		{"amd64", true, true, "Prescott", "do not use this CPU's AVX-512"},
		{"amd64", true, true, "Haswell", "do not use this CPU's AVX-512"},
		{"amd64", true, true, "SkylakeX", ""},
		{"amd64", true, true, "SapphireRapids", ""},
		{"amd64", false, true, "Prescott", "do not use this CPU's AVX2"},
		{"amd64", false, true, "Haswell", ""},
		{"amd64", false, true, "Zen", ""},
		{"amd64", false, false, "Prescott", ""},
		{"arm64", false, false, "NeoverseN1", ""},
	} {
		got := openBLASMismatch(tc.arch, tc.avx512, tc.avx2, tc.core)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s avx512 %v avx2 %v core %q: %q, want %q", tc.arch, tc.avx512, tc.avx2, tc.core, got, tc.want)
		}
	}
}
