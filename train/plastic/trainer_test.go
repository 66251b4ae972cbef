package plastic

import (
	"math"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
)

// constDriver writes fixed per-pool vectors (one agent's values, repeated
// for every agent) each frame.
type constDriver struct {
	vals   map[string][]float64
	agents int
}

func (d *constDriver) Start(agents int, out, in map[string][3]int, seed int64) error {
	d.agents = agents
	return nil
}

func (d *constDriver) Frame(t int, in, out map[string][]float64) error {
	for pool, buf := range out {
		v := d.vals[pool]
		for a := 0; a < d.agents; a++ {
			copy(buf[a*len(v):(a+1)*len(v)], v)
		}
	}
	return nil
}

var (
	fitInput  = []float64{0.5, -1, 0.25, 1}
	fitTarget = []float64{0.3, -0.6}
)

// fitNet is the end-to-end network: in [4] → out [2] by the dense
// synapse-pool w (trained), in → aux [2] by v (never trained), and the
// target pool tgt written by the driver with in. plasts are added as
// given.
func fitNet(agents int, plasts ...*stream.Plasticity) *stream.Net {
	return periods(&stream.Net{
		Name:   "fit",
		Agents: agents,
		NeuronPools: []*stream.NeuronPool{
			{Name: "in", Shape: [3]int{4, 1, 1}},
			{Name: "out", Shape: [3]int{2, 1, 1}},
			{Name: "aux", Shape: [3]int{2, 1, 1}},
			{Name: "tgt", Shape: [3]int{2, 1, 1}},
		},
		SynapsePools: []*stream.SynapsePool{
			{Name: "w", Source: [][]string{{"in"}}, Target: "out", RF: [][]int{{0}}},
			{Name: "v", Source: [][]string{{"in"}}, Target: "aux", RF: [][]int{{0}}},
		},
		Plasticities: plasts,
		Interfaces: []*stream.Interface{
			{Name: "drv", Type: "test", Out: []string{"in", "tgt"}},
		},
	})
}

// periods sets the Period of every item left at 0 to 1 (the loader's
// default; Validate requires ≥ 1 on a Net built in Go).
func periods(n *stream.Net) *stream.Net {
	for _, p := range n.NeuronPools {
		p.Period = max(p.Period, 1)
	}
	for _, p := range n.SynapsePools {
		p.Period = max(p.Period, 1)
	}
	for _, p := range n.Plasticities {
		p.Period = max(p.Period, 1)
	}
	return n
}

var (
	refW = stream.ParamRef{Kind: "sp", Item: "w", Name: "W_0_0"}
	refV = stream.ParamRef{Kind: "sp", Item: "v", Name: "W_0_0"}
	refB = stream.ParamRef{Kind: "np", Item: "out", Name: "b"}
)

func mseFit(name string, lr float64) *stream.Plasticity {
	return &stream.Plasticity{
		Name: name, Type: "loss", LossFunction: "mse", Period: 1,
		Source: "out", SourceT: 1, Target: "tgt", TargetT: 0,
		Params: []stream.ParamRef{refW}, LR: lr,
	}
}

func newFit(t testing.TB, agents int, o Options, plasts ...*stream.Plasticity) (*frames.Sim, *Trainer) {
	t.Helper()
	drv := &constDriver{vals: map[string][]float64{"in": fitInput, "tgt": fitTarget}}
	s, err := frames.New(fitNet(agents, plasts...), frames.Options{Seed: 7, Workers: 2, Drivers: map[string]stream.Driver{"drv": drv}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	tr, err := Attach(s, o)
	if err != nil {
		t.Fatal(err)
	}
	return s, tr
}

func param(t testing.TB, s *frames.Sim, r stream.ParamRef) []float64 {
	t.Helper()
	v, err := s.Param(r)
	if err != nil {
		t.Fatal(err)
	}
	return append([]float64(nil), v...)
}

func maxDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// Frames of the end-to-end fit: the target is reached by a linear map, so
// plain gradient descent at lr 0.5 converges geometrically.
const (
	fitFrames = 200
	fitDrop   = 10 // required loss reduction factor
)

// TestFitEndToEnd trains w by an mse loss plasticity: the loss drops by
// ≥ fitDrop within fitFrames, and only the listed parameter changes.
func TestFitEndToEnd(t *testing.T) {
	s, tr := newFit(t, 3, Options{}, mseFit("fit", 0.5))
	w0, v0, b0 := param(t, s, refW), param(t, s, refV), param(t, s, refB)
	if err := s.Run(fitFrames); err != nil {
		t.Fatal(err)
	}
	h := tr.History("fit")
	if len(h) != fitFrames {
		t.Fatalf("history has %d values, want %d", len(h), fitFrames)
	}
	// Frame 0 sees the zero initial state of in; from frame 1 on the
	// driver's input is present.
	first, last := h[1], h[len(h)-1]
	t.Logf("mse loss: frame 1 %.4g, frame %d %.4g", first, fitFrames-1, last)
	if !(last*fitDrop <= first) {
		t.Errorf("loss fell from %v to %v, want a factor ≥ %d", first, last, fitDrop)
	}
	if got := tr.Losses()["fit"]; got != last {
		t.Errorf("Losses()[fit] = %v, History's last %v", got, last)
	}
	if maxDiff(w0, param(t, s, refW)) == 0 {
		t.Error("trained W did not change")
	}
	if d := maxDiff(v0, param(t, s, refV)); d != 0 {
		t.Errorf("untrained sp v changed by %v", d)
	}
	if d := maxDiff(b0, param(t, s, refB)); d != 0 {
		t.Errorf("untrained bias of out changed by %v", d)
	}
}

// TestStartFrameAndPeriod: nothing is applied before StartFrame, then one
// update per Period.
func TestStartFrameAndPeriod(t *testing.T) {
	p := mseFit("fit", 0.1)
	p.StartFrame, p.Period, p.Offset = 5, 3, 1
	s, tr := newFit(t, 1, Options{}, p)
	w := param(t, s, refW)
	var ran []int
	for f := 0; f < 14; f++ {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		w1 := param(t, s, refW)
		if maxDiff(w, w1) != 0 {
			ran = append(ran, f)
		}
		w = w1
	}
	want := []int{7, 10, 13} // f ≥ 5 with f % 3 == 1
	if len(ran) != len(want) || ran[0] != 7 || ran[1] != 10 || ran[2] != 13 {
		t.Errorf("W changed on frames %v, want %v", ran, want)
	}
	if n := len(tr.History("fit")); n != len(want) {
		t.Errorf("history has %d values, want %d", n, len(want))
	}
}

// TestSumOfUpdates: two plasticities on one parameter add their updates
// (the statestream paper, §2.2), checked against runs with each plasticity alone.
func TestSumOfUpdates(t *testing.T) {
	reg := &stream.Plasticity{Name: "reg", Type: "L_regularizer", L1: 0.01, L2: 0.1, LR: 0.2, Period: 1, Params: []stream.ParamRef{refW}}
	mk := func() []*stream.Plasticity {
		ps := []*stream.Plasticity{mseFit("a", 0.3), mseFit("b", 0.3), reg}
		for _, p := range ps {
			p.StartFrame = 1 // every run reaches frame 1 with the same W
		}
		return ps
	}
	delta := func(only []string) []float64 {
		s, _ := newFit(t, 2, Options{Only: only}, mk()...)
		if err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		w0 := param(t, s, refW)
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		w1 := param(t, s, refW)
		for i := range w1 {
			w1[i] -= w0[i]
		}
		return w1
	}
	da, db, dr := delta([]string{"a"}), delta([]string{"b"}), delta([]string{"reg"})
	all := delta(nil)
	const sumTol = 1e-12
	for i := range all {
		want := da[i] + db[i] + dr[i]
		if math.Abs(all[i]-want) > sumTol || da[i] == 0 || db[i] == 0 || dr[i] == 0 {
			t.Errorf("ΔW[%d] = %v with all three, want %v + %v + %v", i, all[i], da[i], db[i], dr[i])
		}
	}
}

// TestSetEnabled: a paused plasticity changes nothing; resumed, it does.
func TestSetEnabled(t *testing.T) {
	s, tr := newFit(t, 1, Options{}, mseFit("fit", 0.1))
	if err := tr.SetEnabled("fit", false); err != nil {
		t.Fatal(err)
	}
	w := param(t, s, refW)
	if err := s.Run(5); err != nil {
		t.Fatal(err)
	}
	if maxDiff(w, param(t, s, refW)) != 0 {
		t.Error("disabled plasticity changed W")
	}
	if err := tr.SetEnabled("fit", true); err != nil {
		t.Fatal(err)
	}
	if err := s.Run(1); err != nil {
		t.Fatal(err)
	}
	if maxDiff(w, param(t, s, refW)) == 0 {
		t.Error("re-enabled plasticity did not change W")
	}
	if err := tr.SetEnabled("nope", true); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("SetEnabled(nope): %v", err)
	}
}

// TestHebbianEndToEnd: one frame of each Hebbian variant on a 2-pool
// network equals lr·(±(1/A) Σ_a x_i(t)·x_j(t+1)) (dt: x_j(t+1) − x_j(t)),
// with the states read from the Sim.
func TestHebbianEndToEnd(t *testing.T) {
	const lr, agents = 0.05, 2
	for _, typ := range []string{"hebbian", "anti_hebbian", "dt_hebbian", "dt_anti_hebbian"} {
		p := &stream.Plasticity{Name: "h", Type: typ, Source: "in", Target: "out", LR: lr, Period: 1, Params: []stream.ParamRef{refW}}
		s, tr := newFit(t, agents, Options{}, p)
		if err := s.Run(3); err != nil {
			t.Fatal(err)
		}
		x := append([]float64(nil), mustOf(t)(s.State("in"))...)
		y0 := append([]float64(nil), mustOf(t)(s.State("out"))...)
		w0 := param(t, s, refW)
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		y1 := mustOf(t)(s.State("out"))
		w1 := param(t, s, refW)
		sign, dt := hebbMode(typ)
		var norm float64
		for i := 0; i < 4; i++ {
			for j := 0; j < 2; j++ {
				var e float64
				for a := 0; a < agents; a++ {
					y := y1[a*2+j]
					if dt {
						y -= y0[a*2+j]
					}
					e += x[a*4+i] * y
				}
				want := w0[i*2+j] + lr*sign*e/agents
				norm += (lr * e / agents) * (lr * e / agents)
				if math.Abs(w1[i*2+j]-want) > exactTol {
					t.Errorf("%s: W[%d,%d] = %v, want %v", typ, i, j, w1[i*2+j], want)
				}
			}
		}
		if got := tr.Losses()["h"]; math.Abs(got-math.Sqrt(norm)) > exactTol {
			t.Errorf("%s: Losses = %v, want the update norm %v", typ, got, math.Sqrt(norm))
		}
	}
}

// mustOf returns a function that passes a ([]float64, error) result on,
// failing t on an error.
func mustOf(t testing.TB) func([]float64, error) []float64 {
	return func(v []float64, err error) []float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// TestRegularizerEndToEnd: an L2 regulariser alone with grad_desc scales
// the weights by (1 − lr·L2) per frame.
func TestRegularizerEndToEnd(t *testing.T) {
	const lr, l2, n = 0.1, 0.5, 6
	p := &stream.Plasticity{Name: "r", Type: "L_regularizer", L2: l2, LR: lr, Period: 1, Params: []stream.ParamRef{refW, refV}}
	s, _ := newFit(t, 1, Options{}, p)
	w0, v0 := param(t, s, refW), param(t, s, refV)
	if err := s.Run(n); err != nil {
		t.Fatal(err)
	}
	f := math.Pow(1-lr*l2, n)
	for _, c := range []struct {
		ref    stream.ParamRef
		before []float64
	}{{refW, w0}, {refV, v0}} {
		got := param(t, s, c.ref)
		for i := range got {
			if math.Abs(got[i]-f*c.before[i]) > exactTol {
				t.Errorf("%v[%d] = %v, want %v", c.ref, i, got[i], f*c.before[i])
			}
		}
	}
}

// TestCheckpoint: optimiser state saved with State and restored with
// SetState continues bit-identically (Adam, whose moments and step count
// matter); without it the continuation differs.
func TestCheckpoint(t *testing.T) {
	adam := func() *stream.Plasticity {
		p := mseFit("fit", 0.05)
		p.Optimizer = "adam"
		return p
	}
	a, ta := newFit(t, 2, Options{}, adam())
	if err := a.Run(10); err != nil {
		t.Fatal(err)
	}
	st := ta.State()
	if st["fit/#step"][0] != 10 {
		t.Errorf("step = %v, want 10", st["fit/#step"])
	}
	resume := func(restore bool) []float64 {
		b, tb := newFit(t, 2, Options{}, adam())
		if err := b.Run(2); err != nil { // driver pools hold their values
			t.Fatal(err)
		}
		copy(mustOf(t)(b.Param(refW)), mustOf(t)(a.Param(refW)))
		if restore {
			if err := tb.SetState(st); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Run(5); err != nil {
			t.Fatal(err)
		}
		return param(t, b, refW)
	}
	with, without := resume(true), resume(false)
	if err := a.Run(5); err != nil {
		t.Fatal(err)
	}
	want := param(t, a, refW)
	if d := maxDiff(with, want); d != 0 {
		t.Errorf("restored run differs from the uninterrupted one by %v", d)
	}
	if maxDiff(without, want) == 0 {
		t.Error("a run without the restored state matches too: the test cannot tell")
	}
	if err := ta.SetState(map[string][]float64{"nope/x/m": {1}}); err == nil {
		t.Error("SetState accepted a key of no plasticity")
	}
}

// TestAttachErrors: each bad plasticity is refused with an error naming
// the plasticity and the key.
func TestAttachErrors(t *testing.T) {
	cases := []struct {
		name string
		edit func(p *stream.Plasticity)
		only []string
		want string
	}{
		{"loss function", func(p *stream.Plasticity) { p.LossFunction = "mse2" }, nil, `"p": loss_function: "mse2" unknown`},
		{"no params", func(p *stream.Plasticity) { p.Params = nil }, nil, `"p": parameter: empty`},
		{"missing param", func(p *stream.Plasticity) { p.Params = []stream.ParamRef{{Kind: "sp", Item: "w", Name: "W_3_0"}} }, nil, `"p": parameter[0]`},
		{"twice", func(p *stream.Plasticity) { p.Params = []stream.ParamRef{refW, refW} }, nil, `"p": parameter[1]: sp/w/W_0_0 listed twice`},
		{"optimizer", func(p *stream.Plasticity) { p.Optimizer = "adagrad" }, nil, `"p": optimizer "adagrad" unknown`},
		{"only", func(p *stream.Plasticity) {}, []string{"q"}, `Options.Only names "q"`},
		{"hebbian wrong sp", func(p *stream.Plasticity) {
			p.Type, p.Source, p.Target, p.Params = "hebbian", "in", "out", []stream.ParamRef{refV}
		}, nil, `"p": parameter[0]: sp/v/W_0_0 connects "in" → "aux"`},
		{"hebbian bias", func(p *stream.Plasticity) {
			p.Type, p.Source, p.Target, p.Params = "hebbian", "in", "out", []stream.ParamRef{refB}
		}, nil, `"p": parameter[0]: np/out/b`},
		{"mask", func(p *stream.Plasticity) { p.Mask = "nomask" }, nil, `"p": mask: no neuron-pool "nomask"`},
		{"regularizer", func(p *stream.Plasticity) { p.Type, p.L1 = "L_regularizer", -1 }, nil, `"p": l1: -1`},
	}
	for _, c := range cases {
		p := mseFit("p", 0.1)
		c.edit(p)
		drv := &constDriver{vals: map[string][]float64{"in": fitInput, "tgt": fitTarget}}
		net := fitNet(1, p)
		net.Plasticities = nil // validated here, not by the executor
		s, err := frames.New(net, frames.Options{Seed: 1, Drivers: map[string]stream.Driver{"drv": drv}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		net.Plasticities = []*stream.Plasticity{p}
		_, err = Attach(s, Options{Only: c.only})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// allocAllowance is the number of allocations per frame tolerated in
// steady state: the frame executor allows itself ≤ 2 for runtime noise
// (sim/frames TestNoAllocs); this package adds none.
const allocAllowance = 2

// TestAllocs: once warmed up, a frame with loss, Hebbian and regulariser
// plasticities (Adam and grad_desc) allocates at most allocAllowance.
func TestAllocs(t *testing.T) {
	adam := mseFit("fit", 0.01)
	adam.Optimizer = "adam"
	heb := &stream.Plasticity{Name: "h", Type: "dt_hebbian", Source: "in", Target: "aux", LR: 1e-3, Period: 1, Params: []stream.ParamRef{refV}}
	reg := &stream.Plasticity{Name: "r", Type: "L_regularizer", L2: 0.01, LR: 0.1, Period: 1, Params: []stream.ParamRef{refW, refB}}
	s, _ := newFit(t, 4, Options{History: 16}, adam, heb, reg)
	if err := s.Run(20); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(50, func() {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("allocations per frame: %v", n)
	if n > allocAllowance {
		t.Errorf("%v allocations per frame, want ≤ %d", n, allocAllowance)
	}
}

// TestMaskEndToEnd: a mask pool of zeros removes every position (loss 0,
// W unchanged); a mask of ones changes nothing against no mask.
func TestMaskEndToEnd(t *testing.T) {
	run := func(mask []float64) (loss float64, w []float64) {
		p := mseFit("fit", 0.2)
		net := fitNet(2, p)
		if mask != nil {
			p.Mask = "m"
			net.NeuronPools = append(net.NeuronPools, &stream.NeuronPool{Name: "m", Shape: [3]int{1, 1, 1}, Period: 1})
			net.Interfaces[0].Out = append(net.Interfaces[0].Out, "m")
		}
		drv := &constDriver{vals: map[string][]float64{"in": fitInput, "tgt": fitTarget, "m": mask}}
		s, err := frames.New(net, frames.Options{Seed: 7, Drivers: map[string]stream.Driver{"drv": drv}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		tr, err := Attach(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		w0 := param(t, s, refW)
		if err := s.Run(3); err != nil {
			t.Fatal(err)
		}
		w = param(t, s, refW)
		for i := range w {
			w[i] -= w0[i]
		}
		return tr.Losses()["fit"], w
	}
	l0, d0 := run([]float64{0})
	if l0 != 0 || maxDiff(d0, make([]float64, len(d0))) != 0 {
		t.Errorf("zero mask: loss %v, ΔW %v, want 0 and no change", l0, d0)
	}
	l1, d1 := run([]float64{1})
	ln, dn := run(nil)
	if l1 != ln || maxDiff(d1, dn) != 0 || ln == 0 {
		t.Errorf("mask of ones: loss %v ΔW %v; no mask: loss %v ΔW %v", l1, d1, ln, dn)
	}
}
