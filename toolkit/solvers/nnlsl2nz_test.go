package solvers_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/solvers"
	"gonum.org/v1/gonum/mat"
)

// nnlsNengoTol: decoders against nengo.solvers.NnlsL2nz (Nengo 4.1.0,
// SciPy 1.17.1's nnls, .cache/nengo-bench-venv): both solve the same Gram
// system exactly by an active-set method, so they agree to rounding; the
// largest difference measured is below 1e-15 absolute.
const nnlsNengoTol = 1e-12

// The expected decoders were printed by nengo.solvers.NnlsL2nz(reg=…)(A, Y)
// for the same A and Y (the "wave" data with NumPy's sin and cos).
func TestNnlsL2nzNengo(t *testing.T) {
	relu := func() (*mat.Dense, *mat.Dense) {
		var a, y []float64
		for i := range 11 {
			x := -1 + 0.2*float64(i)
			a = append(a, 100*max(x, 0), 100*max(-x, 0))
			y = append(y, x)
		}
		return mat.NewDense(11, 2, a), mat.NewDense(11, 1, y)
	}
	// 3 neurons, the third never active (sigma 1), two targets x and x²
	silent := func() (*mat.Dense, *mat.Dense) {
		A, Y := mat.NewDense(21, 3, nil), mat.NewDense(21, 2, nil)
		for i := range 21 {
			x := -1 + 0.1*float64(i)
			A.Set(i, 0, 80*max(x+0.5, 0))
			A.Set(i, 1, 120*max(0.3-x, 0))
			Y.Set(i, 0, x)
			Y.Set(i, 1, x*x)
		}
		return A, Y
	}
	// 30 points, 8 neurons active at 37–83% of them
	wave := func() (*mat.Dense, *mat.Dense) {
		A, Y := mat.NewDense(30, 8, nil), mat.NewDense(30, 2, nil)
		for i := range 30 {
			for j := range 8 {
				fj := float64(j)
				A.Set(i, j, max(0, 60*math.Sin(1.3*float64(i)+0.7*fj*fj+fj)+10*fj-20))
			}
			for j := range 2 {
				Y.Set(i, j, math.Cos(0.5*float64(i)+float64(j)))
			}
		}
		return A, Y
	}
	zero := func() (*mat.Dense, *mat.Dense) {
		Y := mat.NewDense(5, 1, []float64{1, 1, 1, 1, 1})
		return mat.NewDense(5, 3, nil), Y
	}
	for _, tc := range []struct {
		name string
		data func() (*mat.Dense, *mat.Dense)
		reg  float64
		want []float64 // X row-major, n×d
	}{
		{"relu reg 0.1", relu, 0.1, []float64{0.009777777777777778, 0.0}},
		{"relu reg 0", relu, 0, []float64{0.009995002498750623, 0.0}},
		{"relu reg 1", relu, 1, []float64{0.0030555555555555566, 0.0}},
		{"silent reg 0.1", silent, 0.1, []float64{0.006306749000858071, 0.004444469814512904, 0.0, 0.0038520316107835124, 0.0, 0.0}},
		{"silent reg 0", silent, 0, []float64{0.006589605523534739, 0.004638599224143921, 0.0, 0.003941388267389841, 0.0, 0.0}},
		{"silent reg 1", silent, 1, []float64{0.001187923657958149, 0.0008793986843461577, 0.0, 0.00114028083786802, 0.0, 0.0}},
		{"wave reg 0.1", wave, 0.1, []float64{0.0019148368546373158, 0.00015150279503086132, 0.00234662002405114, 0.0023372964875549057, 0.0003966863130294341, 0.0, 0.0, 0.0, 0.0018339084830261785, 0.001863607281253244, 0.00011472432090777549, 0.0010899815723470845, 0.003609221050287176, 0.0027967405074184044, 0.001267334321987873, 0.000538203459006763}},
		{"wave reg 1", wave, 1, []float64{0.0006276003569501166, 0.0003967442892763419, 0.0005829497310427431, 0.0005272801801723025, 0.0005058348084060659, 0.0003646210224616493, 0.00041855922021240364, 0.0004285867047762203, 0.0006361936567718451, 0.0006303415059548562, 0.0004879011999055609, 0.00047439138257008006, 0.0011990121950149848, 0.0008364234597971707, 0.0006569748244071973, 0.0006020678683907292}},
		{"all silent", zero, 0.1, []float64{0, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			A, Y := tc.data()
			A0, Y0 := mat.DenseCopyOf(A), mat.DenseCopyOf(Y)
			X, err := solvers.NnlsL2nz{Reg: tc.reg}.Solve(A, Y)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(A, A0) || !mat.Equal(Y, Y0) {
				t.Error("Solve modified A or Y")
			}
			n, d := X.Dims()
			if n*d != len(tc.want) {
				t.Fatalf("X is %d×%d, want %d values", n, d, len(tc.want))
			}
			worst := 0.0
			for i := range n {
				for j := range d {
					v := X.At(i, j)
					if v < 0 {
						t.Errorf("X[%d,%d] = %v < 0", i, j, v)
					}
					worst = math.Max(worst, math.Abs(v-tc.want[i*d+j]))
				}
			}
			t.Logf("max |X - Nengo| = %.3g", worst)
			if worst > nnlsNengoTol {
				t.Errorf("max |X - Nengo| = %.3g > %g: got %v", worst, nnlsNengoTol, mat.Formatted(X.T()))
			}
		})
	}
}

func TestNnlsL2nzErrors(t *testing.T) {
	A := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	for _, tc := range []struct {
		name string
		s    solvers.NnlsL2nz
		A, Y *mat.Dense
		want string
	}{
		{"negative reg", solvers.NnlsL2nz{Reg: -1}, A, mat.NewDense(2, 1, nil), "NnlsL2nz.Reg = -1"},
		{"NaN reg", solvers.NnlsL2nz{Reg: math.NaN()}, A, mat.NewDense(2, 1, nil), "NnlsL2nz.Reg = NaN"},
		{"nil", solvers.NewNnlsL2nz(), nil, nil, "must be non-nil"},
		{"rows", solvers.NewNnlsL2nz(), A, mat.NewDense(3, 1, nil), "rows(Y) = 3"},
		{"Inf activity", solvers.NewNnlsL2nz(), mat.NewDense(2, 2, []float64{math.Inf(1), 0, 0, 1}), mat.NewDense(2, 1, nil), "activities must be finite"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.s.Solve(tc.A, tc.Y)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if s := solvers.NewNnlsL2nz(); s.Name() != "NnlsL2nz" || s.Reg != 0.1 || s.Weights() {
		t.Errorf("NewNnlsL2nz() = %+v", s)
	}
}

// NnlsL2nz regularises each neuron by how often it is active. Decoding
// x and x² from a neuron tuned to x > -0.5, one tuned to x < 0.3 and one
// that never fires: the decoders stay non-negative (x is decoded from the
// first neuron alone), and the silent neuron gets none. Nengo 4.1 gives
// the same to 1e-17.
func ExampleNnlsL2nz() {
	A, Y := mat.NewDense(21, 3, nil), mat.NewDense(21, 2, nil)
	for i := range 21 {
		x := -1 + 0.1*float64(i)
		A.Set(i, 0, 80*max(x+0.5, 0))
		A.Set(i, 1, 120*max(0.3-x, 0))
		Y.Set(i, 0, x)
		Y.Set(i, 1, x*x)
	}
	X, err := solvers.NewNnlsL2nz().Solve(A, Y)
	for i := range 3 {
		fmt.Printf("neuron %d: %.6f %.6f\n", i, X.At(i, 0), X.At(i, 1))
	}
	fmt.Println(err)
	// Output:
	// neuron 0: 0.006307 0.004444
	// neuron 1: 0.000000 0.003852
	// neuron 2: 0.000000 0.000000
	// <nil>
}

// The solver's name, as in Nengo, and whether it solves for full weights.
func ExampleNnlsL2nz_Name() {
	s := solvers.NnlsL2nz{Reg: 0.1, W: true}
	fmt.Println(s.Name(), s.Weights(), s.Validate())
	// Output: NnlsL2nz true <nil>
}

// NewNnlsL2nz has Nengo's default regularisation.
func ExampleNewNnlsL2nz() {
	fmt.Println(solvers.NewNnlsL2nz().Reg)
	// Output: 0.1
}
