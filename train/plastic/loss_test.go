package plastic

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/optim"
)

// Tolerances of the finite-difference checks: central differences with
// step fdStep have truncation error O(h²·f”') ≈ 1e-10 for these smooth
// losses on O(1) inputs, and rounding error ≈ 1e-16/h ≈ 1e-10; fdTol
// leaves a factor of ~100 over both (relative to max(1, |g|)).
const (
	fdStep = 1e-5
	fdTol  = 1e-7
	// exactTol is for closed-form values computed two ways in float64.
	exactTol = 1e-12
)

// TestLossValues checks each loss against its definition on a small
// hand-computed case (2 positions × 2 features).
func TestLossValues(t *testing.T) {
	x := []float64{0.2, 0.8, 0.6, 0.4}
	y := []float64{0, 1, 1, 0}
	hy := []float64{-1, 1, 1, -1} // hinge labels
	cases := []struct {
		name string
		y    []float64
		mask []float64
		want float64
	}{
		{"mse", y, nil, (0.04 + 0.04 + 0.16 + 0.16) / 4},
		{"mae", y, nil, (0.2 + 0.2 + 0.4 + 0.4) / 4},
		{"hinge", hy, nil, (1.2 + 0.2 + 0.4 + 1.4) / 4},
		{"negloglikelihood", y, nil, -(math.Log(0.8+Eps) + math.Log(0.6+Eps)) / 4},
		{"categorical_crossentropy", y, nil, -(math.Log(0.8+Eps) + math.Log(0.6+Eps)) / 2},
		{"minimize", nil, nil, 2.0 / 4},
		{"maximize", nil, nil, -2.0 / 4},
		// The mask removes position 1; N and P still count it (statestream).
		{"mse", y, []float64{1, 0}, 0.08 / 4},
		{"categorical_crossentropy", y, []float64{1, 0}, -math.Log(0.8+Eps) / 2},
	}
	for _, c := range cases {
		f := lossNames[c.name]
		got := lossEval(f, x, c.y, c.mask, 2, len(x), nil, nil)
		if math.Abs(got-c.want) > exactTol {
			t.Errorf("%s mask=%v: loss %v, want %v", c.name, c.mask, got, c.want)
		}
	}
}

// TestLossGradients checks ∂L/∂x and ∂L/∂y of every loss against central
// finite differences, with and without a mask, away from the kinks of mae
// and hinge.
func TestLossGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const c, pos = 3, 4
	n := c * pos
	for name, f := range lossNames {
		for _, masked := range []bool{false, true} {
			x := make([]float64, n)
			y := make([]float64, n)
			for i := range x {
				x[i] = 0.05 + 0.9*rng.Float64() // probabilities for the logs
				y[i] = rng.Float64()
				if f == lossHinge {
					y[i] = 2*y[i] - 1
				}
				if f == lossMAE && math.Abs(x[i]-y[i]) < 0.01 {
					y[i] += 0.1
				}
				if f == lossHinge && math.Abs(1-x[i]*y[i]) < 0.01 {
					y[i] *= 0.5
				}
			}
			var mask []float64
			if masked {
				mask = []float64{1, 0, 0.5, 2}
			}
			var yy []float64
			if f.hasTarget() {
				yy = y
			}
			gx := make([]float64, n)
			gy := make([]float64, n)
			lossEval(f, x, yy, mask, c, len(x), gx, gy)
			check := func(which string, v, g []float64) {
				for i := range v {
					old := v[i]
					v[i] = old + fdStep
					lp := lossEval(f, x, yy, mask, c, len(x), nil, nil)
					v[i] = old - fdStep
					lm := lossEval(f, x, yy, mask, c, len(x), nil, nil)
					v[i] = old
					fd := (lp - lm) / (2 * fdStep)
					if math.Abs(fd-g[i]) > fdTol*math.Max(1, math.Abs(fd)) {
						t.Errorf("%s masked=%v: ∂L/∂%s[%d] = %v, finite difference %v", name, masked, which, i, g[i], fd)
					}
				}
			}
			check("x", x, gx)
			if f.hasTarget() {
				check("y", y, gy)
			} else {
				for i, g := range gy {
					if g != 0 {
						t.Errorf("%s: ∂L/∂y[%d] = %v without a target", name, i, g)
					}
				}
			}
		}
	}
}

// TestHebbian checks the four Hebbian variants against the formula on a
// 2-agent, 2 → 3 unit example computed by hand.
func TestHebbian(t *testing.T) {
	x := []float64{1, 2, 3, -1}           // agents × ns (2 × 2)
	y1 := []float64{1, 0, 2, -1, 1, 0.5}  // agents × nt (2 × 3), frame t+1
	y0 := []float64{0, 1, 1, 0.5, 0.5, 0} // frame t
	// hebbian: (1/2) Σ_a x[a,i]·y1[a,j]
	heb := []float64{
		(1*1 + 3*-1) / 2.0, (1*0 + 3*1) / 2.0, (1*2 + 3*0.5) / 2.0,
		(2*1 + -1*-1) / 2.0, (2*0 + -1*1) / 2.0, (2*2 + -1*0.5) / 2.0,
	}
	d := []float64{1, -1, 1, -1.5, 0.5, 0.5} // y1 − y0
	dt := []float64{
		(1*d[0] + 3*d[3]) / 2, (1*d[1] + 3*d[4]) / 2, (1*d[2] + 3*d[5]) / 2,
		(2*d[0] - 1*d[3]) / 2, (2*d[1] - 1*d[4]) / 2, (2*d[2] - 1*d[5]) / 2,
	}
	cases := []struct {
		typ  string
		y0   []float64
		sign float64
		want []float64
	}{
		{"hebbian", nil, 1, heb},
		{"anti_hebbian", nil, -1, heb},
		{"dt_hebbian", y0, 1, dt},
		{"dt_anti_hebbian", y0, -1, dt},
	}
	for _, c := range cases {
		sign, dtv := hebbMode(c.typ)
		if sign != c.sign || dtv != (c.y0 != nil) {
			t.Fatalf("%s: hebbMode = (%v, %v)", c.typ, sign, dtv)
		}
		dst := make([]float64, 6)
		hebbEstimate(dst, x, y1, c.y0, 2, 2, 3, sign)
		for i := range dst {
			if math.Abs(dst[i]-c.sign*c.want[i]) > exactTol {
				t.Errorf("%s: ΔW[%d] = %v, want %v", c.typ, i, dst[i], c.sign*c.want[i])
			}
		}
	}
}

// TestRegularizer checks the regulariser's direction and that SGD on it
// decays weights as expected: pure L2 multiplies w by (1 − lr·L2) per
// step; pure L1 moves every weight lr·L1 towards 0.
func TestRegularizer(t *testing.T) {
	const lr, l2, l1, steps = 0.1, 0.5, 0.01, 10
	w := []float64{1, -2, 0.5}
	g := make([]float64, 3)
	v := &optim.Var{Name: "w", Value: append([]float64(nil), w...), Grad: g}
	o := &optim.SGD{LR: lr}
	for s := 1; s <= steps; s++ {
		regGrad(g, v.Value, 0, l2)
		if err := o.Step([]*optim.Var{v}, s); err != nil {
			t.Fatal(err)
		}
	}
	f := math.Pow(1-lr*l2, steps)
	for i := range w {
		if math.Abs(v.Value[i]-w[i]*f) > exactTol {
			t.Errorf("L2: w[%d] = %v, want %v", i, v.Value[i], w[i]*f)
		}
	}
	v.Value = append(v.Value[:0], w...)
	for s := 1; s <= steps; s++ {
		regGrad(g, v.Value, l1, 0)
		if err := o.Step([]*optim.Var{v}, s+steps); err != nil {
			t.Fatal(err)
		}
	}
	for i := range w {
		want := w[i] - math.Copysign(steps*lr*l1, w[i])
		if math.Abs(v.Value[i]-want) > exactTol {
			t.Errorf("L1: w[%d] = %v, want %v", i, v.Value[i], want)
		}
	}
}

// TestOptimizerOptions checks the optimiser keys, their defaults and the
// errors naming plasticity and key.
func TestOptimizerOptions(t *testing.T) {
	cases := []struct {
		p    stream.Plasticity
		want string // optimiser name, or an error substring
	}{
		{stream.Plasticity{Name: "a"}, "SGD"},
		{stream.Plasticity{Name: "a", Optimizer: "grad_desc", LR: 0.1}, "SGD"},
		{stream.Plasticity{Name: "a", Optimizer: "adam", Momentum: 0.99, Decay: 0.999}, "Adam"},
		{stream.Plasticity{Name: "a", Optimizer: "rmsprop", Rho: 0.8}, "RMSProp"},
		{stream.Plasticity{Name: "a", LR: -1}, `plasticity "a": lr = -1`},
		{stream.Plasticity{Name: "a", LR: math.NaN()}, `lr = NaN`},
		{stream.Plasticity{Name: "b", Optimizer: "adam", Momentum: 1}, `plasticity "b": momentum = 1, must be in [0, 1)`},
		{stream.Plasticity{Name: "b", Optimizer: "adam", Decay: 2}, `decay = 2`},
		{stream.Plasticity{Name: "b", Optimizer: "rmsprop", Rho: -0.5}, `rho = -0.5`},
		{stream.Plasticity{Name: "c", Optimizer: "sgd"}, `plasticity "c": optimizer "sgd" unknown`},
	}
	for _, c := range cases {
		o, err := newOptimizer(&c.p)
		switch {
		case err != nil && !strings.Contains(err.Error(), c.want):
			t.Errorf("%+v: error %q, want it to contain %q", c.p, err, c.want)
		case err == nil && o.Name() != c.want:
			t.Errorf("%+v: optimiser %s, want %s", c.p, o.Name(), c.want)
		}
	}
	o, _ := newOptimizer(&stream.Plasticity{Name: "a", Optimizer: "adam", Momentum: 0.99})
	if a := o.(*optim.Adam); a.Beta1 != 0.99 || a.Beta2 != DefaultDecay || a.LR != DefaultLR {
		t.Errorf("adam: β1 %v β2 %v lr %v", a.Beta1, a.Beta2, a.LR)
	}
}
