//go:build purego || !amd64

package neurons

// Without the AVX-512 kernels (other architectures, arm64 included, and
// the build tag purego) LIFRateDeriv is its scalar loop and
// LIFRateDeriv32 computes in float64 (LIFRateDeriv's scalar loop).

const lifPortable = 0

// lifImpl is always the scalar loop here.
var lifImpl = lifPortable

type lifVariant struct {
	name string
	impl int
}

// lifVariants lists the kernels this build can run: the scalar loop.
func lifVariants() []lifVariant { return []lifVariant{{"portable", lifPortable}} }

// lifRateSoftDerivVec processes nothing: the scalar loop does all of
// LIFRateDeriv.
func lifRateSoftDerivVec(t SoftLIFRate, J, out, d []float64) int { return 0 }

// lifRateSoftDeriv32Vec processes nothing: LIFRateDeriv32 is
// LIFRateDeriv's scalar loop.
func lifRateSoftDeriv32Vec(t SoftLIFRate, J, out, d []float64) int { return 0 }
