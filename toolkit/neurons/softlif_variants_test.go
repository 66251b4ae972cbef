package neurons

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"testing"
)

// After a deliberate change of the AVX-512 kernels' arithmetic,
// go test ./toolkit/neurons -run LIFRateDerivVariants -update-lif-golden
// stores their new results for the same currents (on a CPU with AVX-512).
var updateLIFGolden = flag.Bool("update-lif-golden", false, "store the AVX-512 kernels' results as the expected ones")

const lifGoldenFile = "testdata/lifratederiv_avx512.bin.gz"

// lifGolden is one parameter set of testdata/lifratederiv_avx512.bin.gz:
// currents and the AVX-512 kernels' results for them (LIFRateDeriv's out
// and d, LIFRateDeriv32's out and d), fix-ups included.
type lifGolden struct {
	s                     SoftLIFRate
	J, out, d, out32, d32 []float64
}

// readLIFGolden reads the stored results: for five parameter sets (σ from
// 1e-290 to 40), currents on a grid through the threshold region, random
// ones near and far from it, the domain edges 1 ± 36σ and their
// neighbours, ±0, ±Inf, NaN, ±1e300, subnormals, 1 ± one ulp, in random
// order. Little-endian: the number of sets, then per set σ, τ_rc, τ_ref,
// amplitude, the number of currents n and five arrays of n float64.
func readLIFGolden(t *testing.T) []lifGolden {
	f, err := os.Open(lifGoldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(raw)
	read := func(v any) {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	var nsets uint32
	read(&nsets)
	sets := make([]lifGolden, nsets)
	for i := range sets {
		var p [4]float64
		var n uint32
		read(&p)
		read(&n)
		g := &sets[i]
		g.s = SoftLIFRate{Sigma: p[0], TauRC: p[1], TauRef: p[2], Amplitude: p[3]}
		for _, a := range []*[]float64{&g.J, &g.out, &g.d, &g.out32, &g.d32} {
			*a = make([]float64, n)
			read(*a)
		}
	}
	return sets
}

// sameFloat: the same bits, or both NaN.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// TestLIFRateDerivVariants runs LIFRateDeriv and LIFRateDeriv32 with
// every kernel the CPU has, forced in turn: the AVX-512 kernels must give
// the stored results bit for bit, the scalar loop Step's and Deriv's
// values exactly (LIFRateDeriv32 too); each for the whole input and for
// sub-slices of every length from 0 to 70 at several starts, so that each
// value passes through every lane and through the padded tail.
func TestLIFRateDerivVariants(t *testing.T) {
	defer func(i int) { lifImpl = i }(lifImpl)
	sets := readLIFGolden(t)
	if *updateLIFGolden {
		writeLIFGolden(t, sets)
	}
	for _, v := range lifVariants() {
		lifImpl = v.impl
		for _, g := range sets {
			want, want32 := [2][]float64{g.out, g.d}, [2][]float64{g.out32, g.d32}
			if v.impl == lifPortable {
				o, d := make([]float64, len(g.J)), make([]float64, len(g.J))
				lifRateSoftDerivScalar(g.s, g.J, o, d)
				want, want32 = [2][]float64{o, d}, [2][]float64{o, d}
			}
			check := func(name string, lo, hi int) {
				J := g.J[lo:hi]
				for k, f := range []func(J, out, d []float64) error{g.s.LIFRateDeriv, g.s.LIFRateDeriv32} {
					w := [2][]float64{want[0][lo:hi], want[1][lo:hi]}
					fn := "LIFRateDeriv"
					if k == 1 {
						w = [2][]float64{want32[0][lo:hi], want32[1][lo:hi]}
						fn = "LIFRateDeriv32"
					}
					// a sentinel after each output
					out, d := make([]float64, len(J)+1), make([]float64, len(J)+1)
					out[len(J)], d[len(J)] = -7, -7
					if err := f(J, out[:len(J)], d[:len(J)]); err != nil {
						t.Fatal(err)
					}
					if out[len(J)] != -7 || d[len(J)] != -7 {
						t.Fatalf("%s %v %s: %s wrote past the end", v.name, g.s, name, fn)
					}
					for i := range J {
						if !sameFloat(out[i], w[0][i]) || !sameFloat(d[i], w[1][i]) {
							t.Fatalf("%s %v %s: %s(J = %v) = (%v, %v), want (%v, %v)",
								v.name, g.s, name, fn, J[i], out[i], d[i], w[0][i], w[1][i])
						}
					}
				}
			}
			check("all", 0, len(g.J))
			for n := range 71 {
				for _, lo := range []int{0, 1, 7, 16, 37} {
					check(fmt.Sprintf("J[%d:%d]", lo, lo+n), lo, lo+n)
				}
			}
			for lo := 0; lo < len(g.J); lo += 53 {
				check(fmt.Sprintf("J[%d:]", lo), lo, len(g.J))
			}
		}
	}
}

// writeLIFGolden recomputes the stored results with the AVX-512 kernels
// and writes them to lifGoldenFile.
func writeLIFGolden(t *testing.T, sets []lifGolden) {
	has := false
	for _, v := range lifVariants() {
		if v.name == "avx512" {
			lifImpl, has = v.impl, true
		}
	}
	if !has {
		t.Fatal("-update-lif-golden needs a CPU with AVX-512")
	}
	var buf bytes.Buffer
	write := func(v any) {
		if err := binary.Write(&buf, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	write(uint32(len(sets)))
	for i := range sets {
		g := &sets[i]
		if err := g.s.LIFRateDeriv(g.J, g.out, g.d); err != nil {
			t.Fatal(err)
		}
		if err := g.s.LIFRateDeriv32(g.J, g.out32, g.d32); err != nil {
			t.Fatal(err)
		}
		write([4]float64{g.s.Sigma, g.s.TauRC, g.s.TauRef, g.s.Amplitude})
		write(uint32(len(g.J)))
		for _, a := range [][]float64{g.J, g.out, g.d, g.out32, g.d32} {
			write(a)
		}
	}
	var zbuf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&zbuf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lifGoldenFile, zbuf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
