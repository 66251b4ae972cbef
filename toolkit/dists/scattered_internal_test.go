package dists

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
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
	// against gonum's InvRegIncBeta); both are accurate to a few ulps,
	// amplified where dθ/dz = 1/(2π√(z(1-z))) is large (measured:
	// 3.6e-15).
	sctTol = 1e-12
	// sctApproxTol: Nengo's default "sct-approx" interpolates a 200-point
	// table of B⁻¹(x; k/2, 1/2) linearly, which is coarse near x = 0 for
	// large k and near x = 1 (the equator, where arcsin √z is steep): it
	// differs from the exact transform by up to 3.1e-2 over the fixture
	// (the edge sample y = 1e-9 at k = 6). The bound only catches a wrong
	// coordinate order or angle, which give O(1) errors.
	sctApproxTol = 0.05
)

type nengoScattered struct {
	Phi         []float64
	Quasirandom []struct {
		N, D   int
		Offset []float64
		Perm   []int
		Z      []float64
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
	worst, worstApprox := 0.0, 0.0
	for _, c := range f.Sct {
		k := c.K
		n := len(c.Samples) / k
		dst := make([]float64, k+1)
		for i := range n {
			sphericalTransform(dst, c.Samples[i*k:(i+1)*k])
			var norm float64
			for j, v := range dst {
				norm += v * v
				e := math.Abs(v - c.Mapped[i*(k+1)+j])
				worst = math.Max(worst, e)
				if e > sctTol {
					t.Errorf("sct k=%d sample %d [%d]: %v, Nengo (sct) %v", k, i, j, v, c.Mapped[i*(k+1)+j])
				}
				ea := math.Abs(v - c.MappedApprox[i*(k+1)+j])
				worstApprox = math.Max(worstApprox, ea)
				if ea > sctApproxTol {
					t.Errorf("sct k=%d sample %d [%d]: %v, Nengo (sct-approx) %v", k, i, j, v, c.MappedApprox[i*(k+1)+j])
				}
			}
			if math.Abs(norm-1) > 1e-12 {
				t.Errorf("sct k=%d sample %d: |x|² = %v", k, i, norm)
			}
		}
	}
	t.Logf("sct: max |difference| from Nengo's sct %.3g, from its sct-approx %.3g", worst, worstApprox)
}
