//go:build goexperiment.simd && amd64

package vec

import "testing"

// TestMatchesPortableAVX2 runs the portable comparison with the AVX-512
// kernels switched off, so the 4-wide AVX2 paths are checked on machines
// that have both.
func TestMatchesPortableAVX2(t *testing.T) {
	if !avx512 {
		t.Skip("no AVX-512: TestMatchesPortable already runs the AVX2 paths")
	}
	avx512 = false
	defer func() { avx512 = true }()
	TestMatchesPortable(t)
}

// TestEnsOctAVX2 checks EnsOct's fallback against the AVX2 EnsDot2.
func TestEnsOctAVX2(t *testing.T) {
	if !avx512 {
		t.Skip("no AVX-512: TestEnsOct already runs the fallback")
	}
	avx512 = false
	defer func() { avx512 = true }()
	TestEnsOct(t)
}
