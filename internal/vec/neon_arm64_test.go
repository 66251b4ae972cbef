//go:build arm64 && !purego

package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"unsafe"
)

// The NEON kernels against the portable loops: every exported function
// runs on the same input once with the assembly and once with useNEON
// off, and the results must agree bit for bit, ±0 included. A NaN must
// meet a NaN, of any payload: where two NaNs of different payloads meet
// in an addition or product, the one that comes out depends on the
// operand order, which the Go compiler does not keep for commutative
// operations.

// withNEON runs f with the assembly on or off.
func withNEON(on bool, f func()) {
	prevUse, prevVec, prevWhy := useNEON, Vectorized, why
	useNEON, Vectorized = on, on
	if !on {
		why = "forced by a test"
	}
	defer func() { useNEON, Vectorized, why = prevUse, prevVec, prevWhy }()
	f()
}

// neonLengths: 0…70, then some large and odd ones.
func neonLengths() []int {
	var ns []int
	for n := 0; n <= 70; n++ {
		ns = append(ns, n)
	}
	return append(ns, 127, 128, 129, 255, 1000, 1023)
}

// specials are mixed into the random data.
var specials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	5e-324, -math.MaxFloat64, math.Float64frombits(0x7ff8000000000123)}

// neonData returns n values (from offset off into a longer slice, so the
// slice is not 16-byte aligned for odd off): normal values of the given
// scale, a fraction frac of them special.
func neonData(rng *rand.Rand, n, off int, scale, frac float64) []float64 {
	b := make([]float64, n+off+3)
	for i := range b {
		b[i] = rng.NormFloat64() * scale
		if rng.Float64() < frac {
			b[i] = specials[rng.IntN(len(specials))]
		}
	}
	return b[off : off+n : off+n]
}

func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Fatalf("%s: [%d] = %v (%#x), portable %v (%#x)", what, i, got[i],
				math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
}

// compare runs f with and without NEON on copies of the inputs and checks
// that it leaves the same bits in every slice and returns the same values.
func compare(t *testing.T, what string, in [][]float64, f func(s [][]float64) []float64) {
	t.Helper()
	run := func(on bool) ([][]float64, []float64) {
		s := make([][]float64, len(in))
		for i, v := range in {
			// a copy with the input's alignment (16-byte or 8 off)
			off := 0
			if len(v) > 0 {
				off = int(uintptr(unsafe.Pointer(&v[0]))/8) % 2
			}
			b := make([]float64, len(v)+2)
			s[i] = b[off : off+copy(b[off:], v) : off+len(v)]
		}
		var r []float64
		withNEON(on, func() { r = f(s) })
		return s, r
	}
	gs, gr := run(true)
	ws, wr := run(false)
	for i := range gs {
		sameBits(t, fmt.Sprintf("%s: slice %d", what, i), gs[i], ws[i])
	}
	sameBits(t, what+": results", gr, wr)
}

func TestNEONElementwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, frac := range []float64{0, 0.2} {
		for _, n := range neonLengths() {
			off := rng.IntN(3)
			a, b, x := neonData(rng, n, off, 1, frac), neonData(rng, n, off+1, 1e3, frac), neonData(rng, n, off, 1, frac)
			y := neonData(rng, n, off+1, 1, frac)
			name := func(f string) string { return fmt.Sprintf("%s n=%d off=%d frac=%v", f, n, off, frac) }
			for _, s := range []float64{0.3, -2.5, 0, math.Inf(1), math.NaN()} {
				compare(t, name(fmt.Sprintf("Relu amp=%v", s)), [][]float64{y, b}, func(v [][]float64) []float64 {
					Relu(v[0], v[1], s)
					return nil
				})
				compare(t, name(fmt.Sprintf("Axpy s=%v", s)), [][]float64{y, a}, func(v [][]float64) []float64 {
					Axpy(v[0], v[1], s)
					return nil
				})
				compare(t, name(fmt.Sprintf("Scale s=%v", s)), [][]float64{y, a}, func(v [][]float64) []float64 {
					Scale(v[0], v[1], s)
					return nil
				})
				compare(t, name(fmt.Sprintf("AxpyTo s=%v", s)), [][]float64{y, b, a}, func(v [][]float64) []float64 {
					AxpyTo(v[0], v[1], v[2], s)
					return nil
				})
				compare(t, name(fmt.Sprintf("AxpyRelu s=%v", s)), [][]float64{y, b, a}, func(v [][]float64) []float64 {
					AxpyRelu(v[0], v[1], v[2], s, 1.5)
					return nil
				})
				compare(t, name(fmt.Sprintf("AxpyRelu amp=%v", s)), [][]float64{y, b, a}, func(v [][]float64) []float64 {
					AxpyRelu(v[0], v[1], v[2], 0.7, s)
					return nil
				})
				compare(t, name(fmt.Sprintf("GainRelu amp=%v", s)), [][]float64{y, x, a, b}, func(v [][]float64) []float64 {
					GainRelu(v[0], v[1], v[2], v[3], s)
					return nil
				})
				compare(t, name(fmt.Sprintf("Lowpass a=%v", s)), [][]float64{y, x, b}, func(v [][]float64) []float64 {
					Lowpass(v[0], v[1], v[2], s, 0.1)
					Lowpass(v[2], v[1], v[2], 0.9, s) // in place, y = u
					return nil
				})
				compare(t, name(fmt.Sprintf("CountPositive mx=%v", s)), [][]float64{y, x, a, b}, func(v [][]float64) []float64 {
					return []float64{CountPositive(v[0], v[1], v[2], v[3], s)}
				})
				// currents of ±0 only: which zero is the maximum
				// depends on which came first
				zs := make([]float64, n)
				for i := range zs {
					zs[i] = math.Copysign(0, float64(rng.IntN(2)*2-1))
				}
				compare(t, name(fmt.Sprintf("CountPositive zeros mx=%v", s)), [][]float64{y, x, zs, zs}, func(v [][]float64) []float64 {
					return []float64{CountPositive(v[0], v[1], v[2], v[3], math.Min(s, -1))}
				})
			}
			compare(t, name("MulInc"), [][]float64{y, a, x}, func(v [][]float64) []float64 {
				MulInc(v[0], v[1], v[2])
				return nil
			})
			compare(t, name("Add"), [][]float64{y, b}, func(v [][]float64) []float64 {
				Add(v[0], v[1])
				return nil
			})
			compare(t, name("FirstNaN"), [][]float64{b}, func(v [][]float64) []float64 {
				return []float64{float64(FirstNaN(v[0]))}
			})
		}
	}
}

// FirstNaN with one NaN at every position, and with ±Inf but no NaN.
func TestNEONFirstNaN(t *testing.T) {
	for _, n := range []int{8, 9, 16, 23, 64, 71} {
		for i := range n {
			x := make([]float64, n)
			x[(i+3)%n] = math.Inf(1 - 2*(i%2))
			x[i] = math.NaN()
			if i > 0 {
				x[i-1] = math.Inf(-1)
			}
			withNEON(true, func() {
				if got := FirstNaN(x); got != i {
					t.Fatalf("n=%d: FirstNaN = %d, want %d", n, got, i)
				}
			})
			x[i] = 1
			withNEON(true, func() {
				if got := FirstNaN(x); got != -1 {
					t.Fatalf("n=%d without NaN: FirstNaN = %d, want -1", n, got)
				}
			})
		}
	}
}

func TestNEONDots(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, frac := range []float64{0, 0.05, 0.3} {
		for _, n := range neonLengths() {
			off := rng.IntN(3)
			a0, a1, a2, a3 := neonData(rng, n, off, 1, frac), neonData(rng, n, off+1, 1e200, frac),
				neonData(rng, n, off, 1e-200, frac), neonData(rng, n, off+1, 1, frac)
			x := neonData(rng, n+2, off, 1e3, frac) // longer than the rows
			name := func(f string) string { return fmt.Sprintf("%s n=%d off=%d frac=%v", f, n, off, frac) }
			compare(t, name("Dot"), [][]float64{a0, x}, func(v [][]float64) []float64 {
				return []float64{Dot(v[0], v[1]), Dot(v[1][:n], v[0])}
			})
			compare(t, name("Dot2"), [][]float64{a0, a1, x}, func(v [][]float64) []float64 {
				s, u := Dot2(v[0], v[1], v[2])
				return []float64{s, u}
			})
			compare(t, name("Dot4"), [][]float64{a0, a1, a2, a3, x}, func(v [][]float64) []float64 {
				s0, s1, s2, s3 := Dot4(v[0], v[1], v[2], v[3], v[4])
				return []float64{s0, s1, s2, s3}
			})
			// Dot itself against the reference loop, NEON on
			withNEON(true, func() {
				sameBits(t, name("Dot against dotGo"), []float64{Dot(a1, x)}, []float64{dotGo(a1, x)})
			})
			for _, two := range []bool{false, true} {
				for _, amp := range []float64{1, 0.37, 2.5} {
					for _, keep := range []bool{false, true} {
						compare(t, name(fmt.Sprintf("EnsDot2 two=%v amp=%v keep=%v", two, amp, keep)),
							[][]float64{make([]float64, n), a0, a1, a2, a3}, func(v [][]float64) []float64 {
								var d2 []float64
								if two {
									d2 = v[4]
								}
								s1, s2 := EnsDot2(v[0], keep, v[1], v[2], 0.3, amp, v[3], d2)
								if !keep {
									clear(v[0]) // scratch
								}
								return []float64{s1, s2}
							})
					}
				}
			}
		}
	}
}

func TestNEONDotRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, frac := range []float64{0, 0.1} {
		for _, nx := range []int{0, 1, 2, 7, 15, 16, 17, 33, 70, 129} {
			for _, nrows := range []int{0, 1, 2, 3, 5, 8} {
				w := neonData(rng, nrows*nx+1, 1, 1, frac)
				x := neonData(rng, nx+1, 0, 1, frac)
				rows := make([]int, nrows)
				for k := range rows {
					rows[k] = rng.IntN(nrows)
				}
				name := fmt.Sprintf("DotRows nx=%d rows=%d frac=%v", nx, nrows, frac)
				compare(t, name, [][]float64{make([]float64, nrows), w, x}, func(v [][]float64) []float64 {
					DotRows(v[0], v[1], nx, nil, v[2])
					return nil
				})
				compare(t, name+" indexed", [][]float64{make([]float64, nrows), w, x}, func(v [][]float64) []float64 {
					DotRows(v[0], v[1], nx, rows, v[2])
					return nil
				})
				for _, lanes := range []int{1, 2, 4, 5, 6, 9} {
					in := [][]float64{w}
					for range lanes {
						in = append(in, make([]float64, nrows), neonData(rng, nx, rng.IntN(2), 1, frac))
					}
					compare(t, fmt.Sprintf("%s lanes=%d", name, lanes), in, func(v [][]float64) []float64 {
						out, xs := make([][]float64, lanes), make([][]float64, lanes)
						for l := range lanes {
							out[l], xs[l] = v[1+2*l], v[2+2*l]
						}
						DotRowsLanes(out, v[0], nx, xs)
						return nil
					})
				}
			}
		}
	}
}

func TestNEONEnsOct(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, frac := range []float64{0, 0.02} {
		for n := 1; n <= 70; n += 1 + n/8 {
			for _, two := range []bool{false, true} {
				for _, amp := range []float64{1, 0.37, 2.5} {
					p := neonData(rng, n*OctWidth(two), rng.IntN(2), 1, frac)
					var x, y [8]float64
					for e := range 8 {
						x[e], y[e] = rng.NormFloat64(), rng.NormFloat64()
					}
					name := fmt.Sprintf("EnsOct n=%d two=%v amp=%v frac=%v", n, two, amp, frac)
					compare(t, name, [][]float64{p}, func(v [][]float64) []float64 {
						s1, s2 := [8]float64{9, 9, 9, 9, 9, 9, 9, 9}, [8]float64{9, 9, 9, 9, 9, 9, 9, 9}
						EnsOct(v[0], n, two, &x, amp, &s1, &s2)
						return append(s1[:], s2[:]...)
					})
					if !two {
						compare(t, "EnsOct1Lanes2 "+name, [][]float64{p}, func(v [][]float64) []float64 {
							var sa, sb [8]float64
							EnsOct1Lanes2(v[0], n, &x, &y, &sa, &sb)
							return append(sa[:], sb[:]...)
						})
					}
				}
			}
		}
	}
}

// LIF over several steps, with refractory periods that end before, at,
// inside and after the step, spikes, NaN and ±Inf currents.
func TestNEONLIF(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, par := range [][5]float64{{0.001, 0.02, 0.002, -1, 1}, {0.001, 0.05, 0.001, 0, 2.5},
		{0, 0.02, 0.002, -1, 1}, {0.002, 0.02, 0, -0.5, 1}} {
		dt := par[0]
		for _, n := range neonLengths() {
			J := neonData(rng, n, rng.IntN(2), 2, 0.05)
			v, r := neonData(rng, n, rng.IntN(2), 0.5, 0.02), make([]float64, n)
			for i := range r {
				r[i] = []float64{0, dt, 2 * dt, dt / 2, -dt, math.Copysign(0, -1), rng.Float64() * 0.003}[rng.IntN(7)]
			}
			if n > 0 {
				r[0] = math.NaN()
			}
			name := fmt.Sprintf("LIF %v n=%d", par, n)
			compare(t, name, [][]float64{J, make([]float64, n), v, r}, func(s [][]float64) []float64 {
				for range 5 {
					LIF(par[0], par[1], par[2], par[3], par[4], s[0], s[1], s[2], s[3])
				}
				return nil
			})
		}
	}
}

func TestNEONVecMat(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, frac := range []float64{0, 0.1} {
		for _, d := range []int{0, 1, 7, 8, 9, 16, 31, 40, 70} {
			for _, nx := range []int{0, 1, 2, 5, 17} {
				m := neonData(rng, nx*d, rng.IntN(2), 1, frac)
				x := neonData(rng, nx, rng.IntN(2), 1, frac)
				y := neonData(rng, d+1, 0, 1, frac)
				compare(t, fmt.Sprintf("VecMat d=%d nx=%d frac=%v", d, nx, frac), [][]float64{y, x, m},
					func(v [][]float64) []float64 {
						VecMat(v[0], v[1], v[2], d)
						return nil
					})
			}
		}
	}
}

func TestNEONKernels(t *testing.T) {
	if os.Getenv("NEUROGO_VEC") == "" {
		if k := Kernels(); k != "NEON assembly (arm64)" || !Vectorized {
			t.Errorf("Kernels() = %q, Vectorized = %v", k, Vectorized)
		}
	}
	withNEON(false, func() {
		if k := Kernels(); k != "portable Go loops (forced by a test)" || Vectorized {
			t.Errorf("forced off: Kernels() = %q, Vectorized = %v", k, Vectorized)
		}
	})
}

// TestNEONEnvCap: NEUROGO_VEC=portable switches NEON off, neon or an
// empty value leaves it on, another value is named by Kernels.
func TestNEONEnvCap(t *testing.T) {
	for _, c := range []struct {
		env  string
		use  bool
		want string
	}{
		{"", true, "NEON assembly (arm64)"},
		{"neon", true, "NEON assembly (arm64)"},
		{"portable", false, "portable Go loops (NEUROGO_VEC=portable)"},
		{"avx2", true, `NEON assembly (arm64) (NEUROGO_VEC="avx2" is not portable or neon)`},
	} {
		use, w := envCap(true, "", c.env)
		prevUse, prevWhy := useNEON, why
		useNEON, why = use, w
		k := Kernels()
		useNEON, why = prevUse, prevWhy
		if use != c.use || k != c.want {
			t.Errorf("NEUROGO_VEC=%q: NEON %v, Kernels() = %q; want %v, %q", c.env, use, k, c.use, c.want)
		}
	}
}

// TestVariantsNEON runs the shared comparisons with the reference Go
// loops (vec_test.go) once with the NEON kernels and once with the
// portable loops forced.
func TestVariantsNEON(t *testing.T) {
	tests := []struct {
		name string
		f    func(*testing.T)
	}{
		{"MatchesPortable", TestMatchesPortable},
		{"ReluNaN", TestReluNaN},
		{"LIFMatchesPortable", TestLIFMatchesPortable},
		{"EnsOct", TestEnsOct},
		{"DotRows", TestDotRows},
		{"DotRowsLanes", TestDotRowsLanes},
		{"FirstNaN", TestFirstNaN},
		{"VecMat", TestVecMat},
		{"Kernels", TestKernels},
	}
	for _, on := range []bool{true, false} {
		name := map[bool]string{true: "NEON", false: "portable"}[on]
		t.Run(name, func(t *testing.T) {
			withNEON(on, func() {
				for _, tc := range tests {
					t.Run(tc.name, tc.f)
				}
			})
		})
	}
}
