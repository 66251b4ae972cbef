package optim

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Tolerances.
const (
	// handTol: the hand values are the same formulas evaluated in Python
	// float64 (testdata/hand_values.py), possibly in another order; a few ulp.
	handTol = 1e-12
	// convTol: distance to the quadratic's minimum after the given steps.
	convTol = 1e-3
	// schedTol: schedules are closed forms; a few ulp of math.Pow/Cos.
	schedTol = 1e-12
)

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// grads are the gradients of the three hand-computed steps.
var grads = [3][2]float64{{0.5, -1}, {0.2, 0.4}, {-0.3, 1.5}}

func TestFirstThreeSteps(t *testing.T) {
	cases := []struct {
		name string
		opt  Optimizer
		want [3][2]float64 // Value after steps 1, 2, 3 from [1, −2]
	}{
		{"SGD", &SGD{LR: 0.1}, [3][2]float64{{0.95, -1.9}, {0.93, -1.94}, {0.96, -2.09}}},
		{"SGD momentum", &SGD{LR: 0.1, Momentum: 0.9},
			[3][2]float64{{0.95, -1.9}, {0.885, -1.85}, {0.8565, -1.955}}},
		{"SGD Nesterov", &SGD{LR: 0.1, Momentum: 0.9, Nesterov: true},
			[3][2]float64{{0.905, -1.81}, {0.8265, -1.805}, {0.83085, -2.0495}}},
		{"Adam defaults", &Adam{},
			[3][2]float64{{0.9990000063245154, -1.9990000031622677}, {0.9981014363988028, -1.9986543983295235},
				{0.9978058845779315, -1.9990177465573657}}},
		{"Adam set", &Adam{LR: 0.1, Beta1: 0.5, Beta2: 0.9, Epsilon: 1e-3},
			[3][2]float64{{0.9006284806712606, -1.900315230918326}, {0.8207894180605132, -1.8914170603127858},
				{0.8330313678746241, -1.9674850204393424}}},
		{"RMSProp defaults", &RMSProp{},
			[3][2]float64{{0.9968377243398303, -1.9968377233398313}, {0.9956091348608789, -1.998066313196141},
				{0.9972643457248421, -2.000716307427992}}},
		{"RMSProp centered momentum", &RMSProp{LR: 0.01, Rho: 0.8, Momentum: 0.5, Centered: true},
			[3][2]float64{{0.9750000124999938, -1.9750000062499984}, {0.9515891301905688, -1.9717847741286783},
				{0.9526636494026889, -1.9904418014244905}}},
		{"Adagrad defaults", &Adagrad{},
			[3][2]float64{{0.9991548458881286, -1.9990465375016635}, {0.9988345896318005, -1.9994028857924673},
				{0.9992676022711927, -2.000203526518758}}},
		{"Adagrad set", &Adagrad{LR: 0.5, InitialAccumulator: 1},
			[3][2]float64{{0.7763932222500193, -1.6464466344067246}, {0.6883481393693942, -1.7825293886354203},
				{0.8160366081136422, -2.1396722287714756}}},
		{"SGD in Clip (off)", &Clip{Opt: &SGD{LR: 0.1}}, [3][2]float64{{0.95, -1.9}, {0.93, -1.94}, {0.96, -2.09}}},
		{"SGD in Multi", &Multi{Rules: []Rule{{Match: "Dense", Opt: &SGD{LR: 0.1}}}},
			[3][2]float64{{0.95, -1.9}, {0.93, -1.94}, {0.96, -2.09}}},
	}
	for _, c := range cases {
		v := &Var{Name: "d.w", Kind: "Dense", Value: []float64{1, -2}, Grad: make([]float64, 2)}
		for s := range 3 {
			copy(v.Grad, grads[s][:])
			if err := c.opt.Step([]*Var{v}, s+1); err != nil {
				t.Fatalf("%s: step %d: %v", c.name, s+1, err)
			}
			for j := range 2 {
				if !near(v.Value[j], c.want[s][j], handTol) {
					t.Errorf("%s: step %d: Value[%d] = %.17g, want %.17g", c.name, s+1, j, v.Value[j], c.want[s][j])
				}
			}
		}
	}
}

func TestConvergenceQuadratic(t *testing.T) {
	// f(p) = Σ a_j (p_j − c_j)², minimum at c.
	a := []float64{1, 10}
	c := []float64{3, -1}
	cases := []struct {
		name  string
		opt   Optimizer
		steps int
	}{
		{"SGD", &SGD{LR: 0.02}, 2000},
		{"SGD momentum", &SGD{LR: 0.01, Momentum: 0.9}, 2000},
		{"SGD Nesterov", &SGD{LR: 0.01, Momentum: 0.9, Nesterov: true}, 2000},
		{"Adam", &Adam{LR: 0.05}, 3000},
		{"RMSProp", &RMSProp{LR: 0.01, Schedule: ExponentialDecay{Initial: 0.01, DecayRate: 0.5, Steps: 300}}, 4000},
		{"RMSProp centered momentum", &RMSProp{LR: 0.001, Momentum: 0.9, Centered: true,
			Schedule: CosineDecay{Initial: 0.003, Steps: 4000}}, 4000},
		{"Adagrad", &Adagrad{LR: 0.5}, 3000},
		{"Clip(Adam)", &Clip{Opt: &Adam{LR: 0.05}, MaxNorm: 1}, 3000},
	}
	for _, tc := range cases {
		v := &Var{Name: "p", Value: []float64{0, 0}, Grad: make([]float64, 2)}
		for s := 1; s <= tc.steps; s++ {
			for j := range v.Value {
				v.Grad[j] = 2 * a[j] * (v.Value[j] - c[j])
			}
			if err := tc.opt.Step([]*Var{v}, s); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		for j := range c {
			if math.Abs(v.Value[j]-c[j]) > convTol {
				t.Errorf("%s: p[%d] = %g after %d steps, want %g ± %g", tc.name, j, v.Value[j], tc.steps, c[j], convTol)
			}
		}
	}
}

func TestSchedules(t *testing.T) {
	cases := []struct {
		s    Schedule
		step int
		want float64
	}{
		{Constant{LR: 0.3}, 1, 0.3},
		{Constant{LR: 0.3}, 1000, 0.3},
		{StepDecay{Initial: 1, Factor: 0.5, Every: 10}, 1, 1},
		{StepDecay{Initial: 1, Factor: 0.5, Every: 10}, 10, 1},
		{StepDecay{Initial: 1, Factor: 0.5, Every: 10}, 11, 0.5},
		{StepDecay{Initial: 1, Factor: 0.5, Every: 10}, 31, 0.125},
		{ExponentialDecay{Initial: 0.1, DecayRate: 0.96, Steps: 100}, 1, 0.1},
		{ExponentialDecay{Initial: 0.1, DecayRate: 0.96, Steps: 100}, 51, 0.1 * math.Sqrt(0.96)},
		{ExponentialDecay{Initial: 0.1, DecayRate: 0.96, Steps: 100}, 201, 0.1 * 0.96 * 0.96},
		{ExponentialDecay{Initial: 0.1, DecayRate: 0.96, Steps: 100, Staircase: true}, 199, 0.1 * 0.96},
		{CosineDecay{Initial: 2, Steps: 100}, 1, 2},
		{CosineDecay{Initial: 2, Steps: 100}, 51, 1},
		{CosineDecay{Initial: 2, Steps: 100}, 26, 2 * 0.5 * (1 + math.Sqrt(0.5))},
		{CosineDecay{Initial: 2, Steps: 100}, 101, 0},
		{CosineDecay{Initial: 2, Steps: 100, Alpha: 0.1}, 101, 0.2},
		{CosineDecay{Initial: 2, Steps: 100, Alpha: 0.1}, 5000, 0.2},
		{CosineDecay{Initial: 2, Steps: 100, Alpha: 0.1}, 51, 2 * (0.9*0.5 + 0.1)},
	}
	for _, c := range cases {
		if got := c.s.Rate(c.step); !near(got, c.want, schedTol) {
			t.Errorf("%s.Rate(%d) = %.17g, want %.17g", c.s.Name(), c.step, got, c.want)
		}
	}
	// The optimiser uses the schedule, not LR.
	v := &Var{Name: "p", Value: []float64{0}, Grad: []float64{1}}
	o := &SGD{LR: 100, Schedule: StepDecay{Initial: 1, Factor: 0.1, Every: 1}}
	for s := 1; s <= 3; s++ {
		if err := o.Step([]*Var{v}, s); err != nil {
			t.Fatal(err)
		}
	}
	if want := -(1 + 0.1 + 0.01); !near(v.Value[0], want, handTol) {
		t.Errorf("scheduled SGD: %g, want %g", v.Value[0], want)
	}
}

func TestClip(t *testing.T) {
	cases := []struct {
		name               string
		maxNorm, maxVal    float64
		a, b, wantA, wantB []float64
	}{
		{"off", 0, 0, []float64{3, 4}, []float64{0, 12}, []float64{3, 4}, []float64{0, 12}},
		{"norm 13 → 6.5", 6.5, 0, []float64{3, 4}, []float64{0, 12}, []float64{1.5, 2}, []float64{0, 6}},
		{"norm below bound", 20, 0, []float64{3, 4}, []float64{0, 12}, []float64{3, 4}, []float64{0, 12}},
		{"value", 0, 3.5, []float64{3, -4}, []float64{0, 12}, []float64{3, -3.5}, []float64{0, 3.5}},
		{"norm then value", 6.5, 1.8, []float64{3, 4}, []float64{0, -12}, []float64{1.5, 1.8}, []float64{0, -1.8}},
		{"huge gradients", 5, 0, []float64{3e200, 4e200}, []float64{0, 0}, []float64{3, 4}, []float64{0, 0}},
	}
	for _, c := range cases {
		va := &Var{Name: "a", Value: make([]float64, 2), Grad: append([]float64(nil), c.a...)}
		vb := &Var{Name: "b", Value: make([]float64, 2), Grad: append([]float64(nil), c.b...)}
		o := &Clip{Opt: &SGD{LR: 1}, MaxNorm: c.maxNorm, MaxValue: c.maxVal}
		if err := o.Step([]*Var{va, vb}, 1); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for j := range 2 {
			if !near(va.Grad[j], c.wantA[j], handTol) || !near(vb.Grad[j], c.wantB[j], handTol) {
				t.Errorf("%s: grads %v %v, want %v %v", c.name, va.Grad, vb.Grad, c.wantA, c.wantB)
			}
			if va.Value[j] != -va.Grad[j] {
				t.Errorf("%s: the inner SGD did not see the clipped gradient: %v", c.name, va.Value)
			}
		}
	}
}

func TestMultiRouting(t *testing.T) {
	mk := func(name, kind string) *Var {
		return &Var{Name: name, Kind: kind, Value: []float64{0}, Grad: []float64{1}}
	}
	vars := []*Var{
		mk("dense1.kernel", "Dense"),            // rule 0 by kind
		mk("conv1.kernel", "Conv2D"),            // rule 1 by prefix
		mk("conv10.kernel", "Conv2D"),           // rule 2 by kind (not prefix "conv1")
		mk("conv1", "Conv2D"),                   // rule 1 by name
		mk(`Ensemble "a".encoders`, "Ensemble"), // default
	}
	m := &Multi{
		Rules: []Rule{
			{Match: "Dense", Opt: &SGD{LR: 1}},
			{Match: "conv1", Opt: &SGD{LR: 2}},
			{Match: "Conv2D", Opt: &SGD{LR: 3}},
		},
		Default: &SGD{LR: 4},
	}
	if err := m.Step(vars, 1); err != nil {
		t.Fatal(err)
	}
	want := []float64{-1, -2, -3, -2, -4}
	for i, v := range vars {
		if v.Value[0] != want[i] {
			t.Errorf("%s: %g, want %g", v.Name, v.Value[0], want[i])
		}
	}
	m.Default = nil
	err := m.Step(vars, 2)
	if err == nil || !strings.Contains(err.Error(), `Ensemble \"a\".encoders`) {
		t.Errorf("unmatched var with nil Default: %v, want an error naming it", err)
	}
	if vars[0].Value[0] != -1 {
		t.Errorf("a refused Multi step updated %s", vars[0].Name)
	}
}

func TestStateRoundTrip(t *testing.T) {
	makers := map[string]func() Optimizer{
		"SGD":     func() Optimizer { return &SGD{LR: 0.1, Momentum: 0.9, Nesterov: true} },
		"Adam":    func() Optimizer { return &Adam{LR: 0.01} },
		"RMSProp": func() Optimizer { return &RMSProp{LR: 0.01, Momentum: 0.5, Centered: true} },
		"Adagrad": func() Optimizer { return &Adagrad{LR: 0.1} },
		"Clip":    func() Optimizer { return &Clip{Opt: &Adam{}, MaxNorm: 0.5} },
		"Multi": func() Optimizer {
			return &Multi{Rules: []Rule{{Match: "a", Opt: &Adam{}}, {Match: "Dense", Opt: &RMSProp{}}},
				Default: &Adagrad{}}
		},
	}
	grad := func(s, i, j int) float64 { return math.Sin(float64(7*s + 3*i + j)) }
	for name, mk := range makers {
		vars := func() []*Var {
			return []*Var{
				{Name: "a", Kind: "Conv2D", Value: []float64{1, 2, 3}, Grad: make([]float64, 3)},
				{Name: "b", Kind: "Dense", Value: []float64{-1, 0.5}, Grad: make([]float64, 2)},
				{Name: "c", Kind: "Ensemble", Value: []float64{4}, Grad: make([]float64, 1)},
			}
		}
		run := func(o Optimizer, vs []*Var, from, to int) {
			for s := from; s <= to; s++ {
				for i, v := range vs {
					for j := range v.Grad {
						v.Grad[j] = grad(s, i, j)
					}
				}
				if err := o.Step(vs, s); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
		}
		a, va := mk(), vars()
		run(a, va, 1, 3)
		st := a.State()
		if len(st) == 0 {
			t.Fatalf("%s: empty state after 3 steps", name)
		}
		b, vb := mk(), vars()
		for i := range vb {
			copy(vb[i].Value, va[i].Value)
		}
		if err := b.SetState(st); err != nil {
			t.Fatalf("%s: SetState: %v", name, err)
		}
		for k := range st { // State must not alias the optimiser's buffers
			st[k][0] = math.NaN()
		}
		run(a, va, 4, 6)
		run(b, vb, 4, 6)
		for i := range va {
			for j := range va[i].Value {
				if va[i].Value[j] != vb[i].Value[j] {
					t.Errorf("%s: %s[%d]: resumed %v, continuous %v", name, va[i].Name, j, vb[i].Value[j], va[i].Value[j])
				}
			}
		}
		sa, sb := a.State(), b.State()
		if len(sa) != len(sb) {
			t.Errorf("%s: state keys %d vs %d", name, len(sa), len(sb))
		}
		for k, x := range sa {
			for j := range x {
				if x[j] != sb[k][j] {
					t.Errorf("%s: state %s[%d] differs", name, k, j)
				}
			}
		}
	}
}

func TestStateKeys(t *testing.T) {
	m := &Multi{Rules: []Rule{{Match: "Dense", Opt: &Adam{}}}, Default: &SGD{LR: 0.1, Momentum: 0.9}}
	vs := []*Var{{Name: "d.w", Kind: "Dense", Value: []float64{1}, Grad: []float64{1}},
		{Name: "e", Kind: "Ensemble", Value: []float64{1}, Grad: []float64{1}}}
	if err := m.Step(vs, 1); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"rule0/d.w/m", "rule0/d.w/v", "default/e/momentum"} {
		if _, ok := m.State()[k]; !ok {
			t.Errorf("Multi state lacks %q: %v", k, m.State())
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	opts := map[string]Optimizer{
		"SGD":     &SGD{LR: 0.1, Momentum: 0.9, Schedule: CosineDecay{Initial: 0.1, Steps: 100}},
		"Adam":    &Adam{Schedule: ExponentialDecay{Initial: 0.1, DecayRate: 0.9, Steps: 10}},
		"RMSProp": &RMSProp{Momentum: 0.9, Centered: true, Schedule: StepDecay{Initial: 1, Factor: 0.5, Every: 3}},
		"Adagrad": &Adagrad{Schedule: Constant{LR: 0.1}},
		"Clip":    &Clip{Opt: &Adam{}, MaxNorm: 0.1, MaxValue: 0.01},
		"Multi":   &Multi{Rules: []Rule{{Match: "Dense", Opt: &Adam{}}}, Default: &SGD{LR: 0.1}},
	}
	for name, o := range opts {
		vs := []*Var{
			{Name: "d.w", Kind: "Dense", Value: make([]float64, 100), Grad: make([]float64, 100)},
			{Name: "e", Kind: "Ensemble", Value: make([]float64, 10), Grad: make([]float64, 10)},
		}
		step := 1
		fill := func() {
			for _, v := range vs {
				for j := range v.Grad {
					v.Grad[j] = 0.1
				}
			}
		}
		fill()
		if err := o.Step(vs, step); err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(20, func() {
			step++
			fill()
			if err := o.Step(vs, step); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Step after the first, want 0", name, allocs)
		}
	}
}

func TestErrors(t *testing.T) {
	ok := func() []*Var {
		return []*Var{{Name: "w", Kind: "Dense", Value: []float64{1, 2}, Grad: []float64{0.1, 0.2}}}
	}
	cases := []struct {
		name string
		opt  Optimizer
		vars []*Var
		step int
		want string // a substring of the error
	}{
		{"step 0", &SGD{LR: 0.1}, ok(), 0, "step = 0"},
		{"negative LR", &SGD{LR: -1}, ok(), 1, "LR = -1"},
		{"NaN LR", &Adam{LR: math.NaN()}, ok(), 1, "LR = NaN"},
		{"momentum > 1", &SGD{LR: 0.1, Momentum: 1.5}, ok(), 1, "Momentum = 1.5"},
		{"negative momentum", &RMSProp{Momentum: -0.1}, ok(), 1, "Momentum = -0.1"},
		{"Beta1 1", &Adam{Beta1: 1}, ok(), 1, "Beta1 = 1"},
		{"NaN Beta2", &Adam{Beta2: math.NaN()}, ok(), 1, "Beta2 = NaN"},
		{"negative epsilon", &Adagrad{Epsilon: -1}, ok(), 1, "Epsilon = -1"},
		{"negative accumulator", &Adagrad{InitialAccumulator: -1}, ok(), 1, "InitialAccumulator = -1"},
		{"Rho > 1", &RMSProp{Rho: 2}, ok(), 1, "Rho = 2"},
		{"bad schedule", &Adam{Schedule: StepDecay{Initial: 1, Factor: 0.5}}, ok(), 1, "Every = 0"},
		{"negative schedule", &Adam{Schedule: Constant{LR: -1}}, ok(), 1, "LR = -1"},
		{"length", &Adam{}, []*Var{{Name: "w", Value: []float64{1, 2}, Grad: []float64{1}}}, 1,
			`"w" () has 2 values but 1 gradients`},
		{"NaN gradient", &Adam{}, []*Var{{Name: "conv1.kernel", Value: []float64{1, 2}, Grad: []float64{1, math.NaN()}}}, 7,
			`step 7: gradient of "conv1.kernel" () is NaN at index 1`},
		{"Inf gradient", &SGD{}, []*Var{{Name: "b", Value: []float64{1}, Grad: []float64{math.Inf(-1)}}}, 1, "-Inf"},
		{"duplicate", &Adam{}, append(ok(), ok()...), 1, `"w" appears twice`},
		{"nil var", &Adam{}, []*Var{nil}, 1, "vars[0] is nil"},
		{"Clip nil", &Clip{}, ok(), 1, "Opt is nil"},
		{"Clip negative", &Clip{Opt: &SGD{}, MaxNorm: -1}, ok(), 1, "MaxNorm = -1"},
		{"Clip inner", &Clip{Opt: &SGD{LR: -1}}, ok(), 1, "LR = -1"},
		{"Clip NaN", &Clip{Opt: &SGD{}, MaxNorm: 1}, []*Var{{Name: "n", Value: []float64{1}, Grad: []float64{math.NaN()}}}, 1,
			`gradient of "n"`},
		{"Multi empty match", &Multi{Rules: []Rule{{Opt: &SGD{}}}}, ok(), 1, "Rules[0].Match is empty"},
		{"Multi nil opt", &Multi{Rules: []Rule{{Match: "x"}}}, ok(), 1, "nil Opt"},
		{"Multi inner", &Multi{Default: &Adam{Beta1: 2}}, ok(), 1, "Beta1 = 2"},
	}
	for _, c := range cases {
		before := make([][]float64, len(c.vars))
		for i, v := range c.vars {
			if v != nil {
				before[i] = append([]float64(nil), v.Value...)
			}
		}
		err := c.opt.Step(c.vars, c.step)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
			continue
		}
		for i, v := range c.vars {
			if v != nil {
				for j := range v.Value {
					if v.Value[j] != before[i][j] {
						t.Errorf("%s: a refused step changed %s", c.name, v.Name)
					}
				}
			}
		}
	}
	var nf *NonFiniteError
	err := (&Multi{Default: &Adam{}}).Step([]*Var{{Name: "p", Kind: "Dense", Value: []float64{0}, Grad: []float64{math.NaN()}}}, 3)
	if !errors.As(err, &nf) || nf.Var != "p" || nf.Step != 3 {
		t.Errorf("NaN gradient error %v is not a NonFiniteError for p at step 3", err)
	}
}

func TestSetStateErrors(t *testing.T) {
	cases := []struct {
		name string
		opt  Optimizer
		st   map[string][]float64
		want string
	}{
		{"no slot", &Adam{}, map[string][]float64{"w": {1}}, `key "w" must be`},
		{"unknown slot", &Adam{}, map[string][]float64{"w/velocity": {1}}, `slot "velocity"`},
		{"NaN", &SGD{}, map[string][]float64{"w/momentum": {math.NaN()}}, "must be finite"},
		{"Multi prefix", &Multi{Rules: []Rule{{Match: "x", Opt: &Adam{}}}}, map[string][]float64{"rule1/w/m": {1}}, `key "rule1/w/m"`},
		{"Multi inner", &Multi{Rules: []Rule{{Match: "x", Opt: &Adam{}}}}, map[string][]float64{"rule0/w/q": {1}}, `slot "q"`},
		{"Clip nil", &Clip{}, nil, "Opt is nil"},
	}
	for _, c := range cases {
		if err := c.opt.SetState(c.st); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// A restored buffer of the wrong length is refused at first sight.
	o := &Adam{}
	if err := o.SetState(map[string][]float64{"w/m": {1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	err := o.Step([]*Var{{Name: "w", Value: []float64{1}, Grad: []float64{1}}}, 1)
	if err == nil || !strings.Contains(err.Error(), `restored state "w/m" has 3 values but "w" has 1`) {
		t.Errorf("wrong-length restored state: %v", err)
	}
}

func TestClipMultiChecksFirst(t *testing.T) {
	v := &Var{Name: "w", Kind: "Dense", Value: []float64{1}, Grad: []float64{10}}
	o := &Clip{Opt: &Multi{Rules: []Rule{{Match: "Dense", Opt: &Adam{Beta2: 5}}}}, MaxValue: 1}
	if err := o.Step([]*Var{v}, 1); err == nil || !strings.Contains(err.Error(), "Beta2 = 5") {
		t.Errorf("Clip(Multi) with a bad inner optimiser: %v", err)
	}
	if v.Grad[0] != 10 || v.Value[0] != 1 {
		t.Errorf("a refused Clip(Multi) step changed the var: %+v", v)
	}
}

func BenchmarkAdamStep(b *testing.B) {
	vs := []*Var{
		{Name: "conv1.kernel", Value: make([]float64, 1<<16), Grad: make([]float64, 1<<16)},
		{Name: "dense.kernel", Value: make([]float64, 1<<12), Grad: make([]float64, 1<<12)},
	}
	for _, v := range vs {
		for j := range v.Grad {
			v.Grad[j] = 1e-3 * float64(j%7)
		}
	}
	o := &Clip{Opt: &Adam{}, MaxNorm: 1}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if err := o.Step(vs, i+1); err != nil {
			b.Fatal(err)
		}
	}
}
