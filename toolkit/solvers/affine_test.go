package solvers

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// reluBlocks are rectified-linear activities amp·max(0, g⊙(X·Eᵀ) + b)
// with their features (Affine) and, if cols, column subsets
// (ColumnBlocks).
type reluBlocks struct {
	X, E       *mat.Dense // m×d, n×d
	g, b       []float64
	amp        float64
	cols       bool
	calls, sub int // Rows and RowsCols calls
}

func (r *reluBlocks) Dims() (int, int) {
	m, _ := r.X.Dims()
	n, _ := r.E.Dims()
	return m, n
}

func (r *reluBlocks) at(i, j int) float64 {
	J := r.g[j]*mat.Dot(r.X.RowView(i), r.E.RowView(j)) + r.b[j]
	return r.amp * math.Max(0, J)
}

func (r *reluBlocks) Rows(dst []float64, i0, i1 int) error {
	r.calls++
	_, n := r.Dims()
	for i := i0; i < i1; i++ {
		for j := range n {
			dst[(i-i0)*n+j] = r.at(i, j)
		}
	}
	return nil
}

type reluColBlocks struct{ *reluBlocks }

func (r reluColBlocks) RowsCols(dst []float64, i0, i1 int, cols []int) error {
	r.sub++
	for i := i0; i < i1; i++ {
		for c, j := range cols {
			dst[(i-i0)*len(cols)+c] = r.at(i, j)
		}
	}
	return nil
}

func (r *reluBlocks) Features() (Z, C *mat.Dense) {
	m, d := r.X.Dims()
	n, _ := r.E.Dims()
	Z = mat.NewDense(m, d+1, nil)
	for i := range m {
		for k := range d {
			Z.Set(i, k, r.X.At(i, k))
		}
		Z.Set(i, d, 1)
	}
	C = mat.NewDense(d+1, n, nil)
	for j := range n {
		for k := range d {
			C.Set(k, j, r.amp*r.g[j]*r.E.At(j, k))
		}
		C.Set(d, j, r.amp*r.b[j])
	}
	return Z, C
}

// newRelu makes m eval points in the unit ball of d dimensions and n
// neurons with unit encoders and intercepts uniform in [-1, 1], as
// Nengo's defaults: at d = 32 about a quarter of the neurons are active at
// every point, a quarter silent at all.
func newRelu(m, n, d int, seed uint64) *reluBlocks {
	rng := rand.New(rand.NewPCG(seed, 3))
	unit := func(v []float64) {
		s := 0.0
		for _, x := range v {
			s += x * x
		}
		for k := range v {
			v[k] /= math.Sqrt(s)
		}
	}
	X := mat.NewDense(m, d, nil)
	for i := range m {
		row := X.RawRowView(i)
		for k := range row {
			row[k] = rng.NormFloat64()
		}
		unit(row)
		rad := math.Pow(rng.Float64(), 1/float64(d))
		for k := range row {
			row[k] *= rad
		}
	}
	E := mat.NewDense(n, d, nil)
	g, b := make([]float64, n), make([]float64, n)
	for j := range n {
		row := E.RawRowView(j)
		for k := range row {
			row[k] = rng.NormFloat64()
		}
		unit(row)
		c := rng.Float64()*2 - 1 // intercept
		g[j] = (50 + 50*rng.Float64()) / (1 - c)
		b[j] = -g[j] * c
	}
	return &reluBlocks{X: X, E: E, g: g, b: b, amp: 0.5}
}

// TestAffineSolve: the decoders through the features and the elimination
// of the always-active neurons equal the dense Cholesky solve, with and
// without column subsets, for LstsqL2 and LstsqL2nz, and with no mixed
// neuron at all.
func TestAffineSolve(t *testing.T) {
	const m, n, d, dy = 600, 300, 32, 3
	for _, cols := range []bool{false, true} {
		for _, allLinear := range []bool{false, true} {
			r := newRelu(m, n, d, 5)
			if allLinear { // intercepts beyond every point: active everywhere or silent
				for j := range n {
					if r.b[j] > 0 {
						r.b[j] += 2 * r.g[j]
					} else {
						r.b[j] -= 2 * r.g[j]
					}
				}
			}
			var A Blocks = r
			if cols {
				A = reluColBlocks{r}
			}
			Ad := mat.NewDense(m, n, nil)
			if err := r.Rows(Ad.RawMatrix().Data, 0, m); err != nil {
				t.Fatal(err)
			}
			Ysin := mat.NewDense(m, dy, nil)
			for i := range m {
				for k := range dy {
					Ysin.Set(i, k, math.Sin(float64(3*i+k)))
				}
			}
			// the identity decode: the targets are the eval points (the
			// features' first columns, see accumulateAffine); and a small
			// regularisation (an ill-conditioned system)
			Yid := mat.DenseCopyOf(r.X)
			for _, tc := range []struct {
				s BlockSolver
				Y *mat.Dense
			}{{NewLstsqL2(), Ysin}, {LstsqL2nz{Reg: 0.1}, Ysin}, {NewLstsqL2(), Yid}, {LstsqL2{Reg: 1e-3}, Ysin}} {
				s, Y := tc.s, tc.Y
				sc, err := scan(A, 64)
				if err != nil {
					t.Fatal(err)
				}
				var nLin, nMixed int
				for j := range n {
					switch {
					case sc.pos[j] == m:
						nLin++
					case sc.pos[j] > 0:
						nMixed++
					}
				}
				if nLin < affineMinLinear*(d+1) || (nMixed == 0) != allLinear {
					t.Fatalf("cols %v allLinear %v: %d linear and %d mixed neurons: the test does not cover the path", cols, allLinear, nLin, nMixed)
				}
				r.calls, r.sub = 0, 0
				got, err := s.SolveBlocks(A, Y)
				if err != nil {
					t.Fatal(err)
				}
				if cols && !allLinear && r.sub == 0 {
					t.Errorf("ColumnBlocks not used")
				}
				want, err := s.Solve(Ad, Y)
				if err != nil {
					t.Fatal(err)
				}
				tol := gramTol
				if l, ok := s.(LstsqL2); ok && l.Reg < 0.01 {
					// the system's condition grows as 1/Reg²: both solves
					// round at ~1e-10 here (still 1e-4 of the required 1e-6)
					tol = 1e-7
				}
				if e := relErr(got, want); e > tol {
					t.Errorf("cols %v allLinear %v %s: rel err %g > %g (%d linear, %d mixed)", cols, allLinear, s.Name(), e, tol, nLin, nMixed)
				}
			}
		}
	}
}

// TestSyrkPar: the blocked parallel AᵀA equals one Syrk.
func TestSyrkPar(t *testing.T) {
	A, _ := randActivities(300, 257, 1, 9)
	for _, n := range []int{257, 7} {
		sub := A.Slice(0, 300, 0, n).(*mat.Dense)
		want := mat.NewSymDense(n, nil)
		want.SymRankK(want, 1, sub.T())
		got := newNormalEq(n, 1).G
		syrkParMin(sub.RawMatrix(), got, 0)
		for i := range n {
			for j := i; j < n; j++ {
				w, g := want.At(i, j), got.Data[i*got.Stride+j]
				if math.Abs(w-g) > 1e-12*math.Abs(w) {
					t.Fatalf("n %d: [%d][%d] = %v, want %v", n, i, j, g, w)
				}
			}
		}
	}
}
