package cvt32

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// testValues returns n values for the tests: normal values
// of every magnitude, values that round to float32's overflow and
// underflow, halfway cases, ±0, ±Inf, NaN.
func testValues(r *rand.Rand, n int) []float64 {
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff0000000000001),                                  // signalling NaN
		math.MaxFloat32, -math.MaxFloat32, 3.4028235677973366e38, math.MaxFloat64, // float32 overflow
		1e-46, -1e-46, 1.401298464324817e-45, 7e-46, math.SmallestNonzeroFloat64, 1e-40, // float32 subnormals and underflow
		1 + 1.0/(1<<24), 1 + 3.0/(1<<24), // halfway between float32 neighbours: ties to even
	}
	v := make([]float64, n)
	for i := range v {
		switch k := r.IntN(10); {
		case k == 0:
			v[i] = special[r.IntN(len(special))]
		case k == 1:
			v[i] = math.Float64frombits(r.Uint64()) // any bit pattern
		default:
			v[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10))
		}
	}
	return v
}

// sameBits: a and b have the same bits, or are both NaN (the NaNs'
// payloads are the hardware's).
func sameBits64(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// TestVariants: every kernel the CPU has, forced in turn, gives the Go
// loops' values bit for bit (NaN for NaN), for lengths 0 to 70 and a few
// large ones, at every alignment of the slices' starts.
func TestVariants(t *testing.T) {
	defer func(i int) { impl = i }(impl)
	r := rand.New(rand.NewPCG(3, 2))
	lengths := []int{}
	for n := range 71 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 127, 128, 129, 1000, 4099)
	const maxOff = 3
	src := testValues(r, 4099+maxOff)
	bias := testValues(r, 4099+maxOff)
	src32 := make([]float32, len(src))
	for i, v := range testValues(r, len(src)) {
		src32[i] = float32(v)
	}
	acc := testValues(r, len(src))
	for _, v := range variants() {
		t.Logf("kernel %s", v.name)
		impl = v.impl
		for _, n := range lengths {
			for off := range maxOff + 1 {
				name := fmt.Sprintf("%s n %d off %d", v.name, n, off)
				s, b, s32 := src[off:off+n], bias[off:off+n], src32[off:off+n]

				// to32, with a sentinel after the end
				got, want := make([]float32, n+1), make([]float32, n+1)
				got[n], want[n] = -7, -7
				To32(got[:n], s)
				to32Go(want[:n], s)
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
						t.Fatalf("%s: to32[%d] of %v: %v, Go loop %v", name, i, s[min(i, n-1)], got[i], want[i])
					}
				}

				// add32
				g64, w64 := make([]float64, n+1), make([]float64, n+1)
				copy(g64, acc[off:off+n])
				copy(w64, acc[off:off+n])
				g64[n], w64[n] = -7, -7
				Add32(g64[:n], s32)
				add32Go(w64[:n], s32)
				for i := range g64 {
					if !sameBits64(g64[i], w64[i]) {
						t.Fatalf("%s: add32[%d]: %v, Go loop %v", name, i, g64[i], w64[i])
					}
				}

				// biasAdd32
				for i := range g64 {
					g64[i], w64[i] = -7, -7
				}
				BiasAdd32(g64[:n], b, s32)
				biasAdd32Go(w64[:n], b, s32)
				for i := range g64 {
					if !sameBits64(g64[i], w64[i]) {
						t.Fatalf("%s: biasAdd32[%d]: %v, Go loop %v", name, i, g64[i], w64[i])
					}
				}
			}
		}
	}
}

// BenchmarkVariants times each kernel the CPU has on 4 Ki values (in
// cache).
func BenchmarkVariants(b *testing.B) {
	defer func(i int) { impl = i }(impl)
	const n = 4096
	r := rand.New(rand.NewPCG(1, 2))
	s64, d64, bias := testValues(r, n), make([]float64, n), testValues(r, n)
	s32 := make([]float32, n)
	To32(s32, testValues(r, n))
	for _, v := range variants() {
		impl = v.impl
		for _, c := range []struct {
			name string
			f    func()
		}{
			{"To32", func() { To32(s32, s64) }},
			{"Add32", func() { Add32(d64, s32) }},
			{"BiasAdd32", func() { BiasAdd32(d64, bias, s32) }},
		} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				for range b.N {
					c.f()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/value")
			})
		}
	}
}
