package dists

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Tolerances for the Nengo fixture (testdata/nengo_scattered.json).
const (
	// phiTol: Newton's method as Nengo runs it; both stop at the same
	// iterate up to rounding.
	phiTol = 1e-15
	// rdTol: (s + i·α) mod 1 in the same float64 operations, but α_j =
	// φ^-(j+1) from Go's math.Pow and NumPy's power may differ in the last
	// bit, which i ≤ 20 multiplies (measured: 3.6e-15).
	rdTol = 1e-14
	// sctTol: against Nengo's exact method "sct" (SciPy's betaincinv
	// against invBetaHalf, Halley's method on gonum's RegIncBeta; see
	// TestInvBetaHalf); both are accurate to a few ulps,
	// amplified where dθ/dz = 1/(2π√(z(1-z))) is large (measured:
	// 3.6e-15 for k ≤ 6, 1.1e-13 with k up to 1200).
	sctTol = 1e-12
	// sctApproxTol: against Nengo's default "sct-approx", the same
	// linear interpolation of B⁻¹(x; k/2, 1/2) between the same knots;
	// the table here is rebuilt with gonum, Nengo's with SciPy: knots
	// within 3.3e-14, values within 1.7e-12, which the interpolation and
	// arcsin √z (steep near z = 1) carry into the points (measured:
	// 1.1e-13 over the fixture, k up to 1200).
	sctApproxTol = 1e-12
	// lookupTol: the interpolated B⁻¹ itself, against Nengo's
	// _betaincinv22.lookup at 900 points per dims, tabulated, between
	// tabulated and above the table (measured: see TestBetaLookupNengo).
	lookupTol = 1e-11
	// approxExactTol: Nengo's "sct-approx" differs from "sct" by up to
	// 0.030 over the fixture (k up to 1200; the edge sample y = 1e-9 at
	// k = 6); the check only shows that Nengo's two methods are the same
	// transform up to the table's interpolation error.
	approxExactTol = 0.05
)

type nengoScattered struct {
	Phi         []float64
	Quasirandom []struct {
		N, D   int
		Offset []float64
		Perm   []int
		Z      []float64
	}
	InvBeta []struct {
		Dims int
		P, Z []float64
	}
	Lookup []struct {
		Dims int
		X, Y []float64
	}
	Sct []struct {
		K       int
		Samples []float64
		Mapped  []float64
		// MappedApprox is Nengo's default "sct-approx".
		MappedApprox []float64 `json:"mapped_approx"`
	}
}

func loadScattered(t *testing.T) nengoScattered {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "nengo_scattered.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f nengoScattered
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// φ_d, the R_d points (before the shuffle, whose permutation the fixture
// records) and the spherical coordinate transform equal Nengo's.
func TestScatteredNengo(t *testing.T) {
	f := loadScattered(t)
	for i, want := range f.Phi {
		if got := rdPhi(i + 1); math.Abs(got-want) > phiTol {
			t.Errorf("phi(%d) = %v, Nengo %v", i+1, got, want)
		}
	}
	for _, c := range f.Quasirandom {
		u := rdSequence(c.N, c.D, c.Offset)
		maxErr := 0.0
		for r, p := range c.Perm {
			for j := range c.D {
				maxErr = math.Max(maxErr, math.Abs(u[p*c.D+j]-c.Z[r*c.D+j]))
			}
		}
		if maxErr > rdTol {
			t.Errorf("R_d n=%d d=%d: max |error| %g > %g", c.N, c.D, maxErr, rdTol)
		}
	}
	worst, worstApprox, approxExact := 0.0, 0.0, 0.0
	for _, c := range f.Sct {
		k := c.K
		n := len(c.Samples) / k
		dst := make([]float64, k+1)
		curves := sctCurves(k)
		for _, m := range []struct {
			name  string
			exact bool
			want  []float64
			tol   float64
			worst *float64
		}{
			{"sct", true, c.Mapped, sctTol, &worst},
			{"sct-approx", false, c.MappedApprox, sctApproxTol, &worstApprox},
		} {
			for i := range n {
				sphericalTransform(dst, c.Samples[i*k:(i+1)*k], curves, m.exact)
				var norm float64
				for j, v := range dst {
					norm += v * v
					e := math.Abs(v - m.want[i*(k+1)+j])
					*m.worst = math.Max(*m.worst, e)
					if e > m.tol {
						t.Errorf("%s k=%d sample %d [%d]: %v, Nengo %v", m.name, k, i, j, v, m.want[i*(k+1)+j])
					}
				}
				if math.Abs(norm-1) > 1e-12 {
					t.Errorf("%s k=%d sample %d: |x|² = %v", m.name, k, i, norm)
				}
			}
		}
		for i, v := range c.MappedApprox {
			approxExact = math.Max(approxExact, math.Abs(v-c.Mapped[i]))
		}
		if approxExact > approxExactTol {
			t.Errorf("k=%d: Nengo's sct-approx and sct differ by %g > %g", k, approxExact, approxExactTol)
		}
	}
	t.Logf("sct: max |difference| from Nengo's sct %.3g, sct-approx from Nengo's sct-approx %.3g; Nengo's sct-approx from its sct %.3g", worst, worstApprox, approxExact)
}

// The interpolated B⁻¹ of "sct-approx" equals Nengo's _betaincinv22.lookup.
func TestBetaLookupNengo(t *testing.T) {
	f := loadScattered(t)
	if len(f.Lookup) == 0 {
		t.Fatal("no lookup cases in the fixture")
	}
	for _, c := range f.Lookup {
		xp, yp := betaLookup(c.Dims)
		worst := 0.0
		for i, x := range c.X {
			got := interp(x, xp, yp)
			e := math.Abs(got - c.Y[i])
			worst = math.Max(worst, e)
			if e > lookupTol {
				t.Errorf("dims=%d x=%v: %v, Nengo %v", c.Dims, x, got, c.Y[i])
			}
		}
		t.Logf("dims=%d: max |difference| %.3g", c.Dims, worst)
	}
}

// interp follows numpy.interp at and outside the knots.
func TestInterp(t *testing.T) {
	xp, yp := []float64{0, 1, 3}, []float64{10, 20, 0}
	for _, tc := range []struct{ x, want float64 }{
		{-1, 10}, {0, 10}, {0.5, 15}, {1, 20}, {2, 10}, {3, 0}, {4, 0},
	} {
		if got := interp(tc.x, xp, yp); got != tc.want {
			t.Errorf("interp(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
	if got := interp(math.NaN(), xp, yp); !math.IsNaN(got) {
		t.Errorf("interp(NaN) = %v", got)
	}
}

// betaCurve.at, which starts the bracket search in x's bucket, equals
// interp over all the knots bit for bit.
func TestBetaCurveAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dims := range []int{1, 3, 26, 27, 191, 345, 1000, 1200} {
		c := newBetaCurve(betaLookup(dims))
		xs := slices.Clone(c.xp)
		for b := range betaBuckets + 1 {
			e := float64(b) / betaBuckets
			xs = append(xs, e, math.Nextafter(e, 0), math.Nextafter(e, 2))
		}
		for range 20000 {
			xs = append(xs, rng.Float64(), math.Pow(rng.Float64(), 50))
		}
		xs = append(xs, -1, 0, 1, 2, math.Inf(1), 5e-324)
		for _, x := range xs {
			if got, want := c.at(x), interp(x, c.xp, c.yp); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("dims=%d x=%v: at %v, interp %v", dims, x, got, want)
			}
		}
	}
}

// TestRotateRows: every element is the sum over l in order of the
// rounded products x_l·rot_lj (the definition the samples' values rest
// on), bit for bit, for sizes around the vector widths.
func TestRotateRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, d := range []int{1, 3, 8, 13, 16, 192} {
		for _, n := range []int{1, 2, 5} {
			xs, rot := make([]float64, n*d), make([]float64, d*d)
			for i := range xs {
				xs[i] = rng.NormFloat64()
			}
			for i := range rot {
				rot[i] = rng.NormFloat64()
			}
			want := make([]float64, n*d)
			for i := range n {
				for j := range d {
					acc := 0.0
					for l := range d {
						acc += float64(xs[i*d+l] * rot[l*d+j])
					}
					want[i*d+j] = acc
				}
			}
			rotateRows(xs, rot, d)
			for k := range want {
				if math.Float64bits(xs[k]) != math.Float64bits(want[k]) {
					t.Fatalf("d=%d n=%d: element %d = %v, want %v", d, n, k, xs[k], want[k])
				}
			}
		}
	}
}
