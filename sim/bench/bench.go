package bench

import (
	"bufio"
	"fmt"
	"github.com/neurogo/neurogo/internal/machine"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/networks"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// TotalNeurons is the benchmark's neuron budget (the NengoDL paper, §5.1).
const TotalNeurons = 9984

// Models lists the benchmark models in the order they are run.
var Models = []string{"integrator", "cconv", "basal_ganglia", "pes"}

// Config is one benchmark protocol.
type Config struct {
	Warmup  float64 // seconds simulated before timing
	Seconds float64 // seconds simulated per timed repeat
	Repeats int
	Seed    int64
	DT      float64
	// Progress, if non-nil, receives one line per phase (build, warm-up,
	// each repeat) so long runs show where they are.
	Progress io.Writer
	// Opt selects the graph optimizer's passes (nil: all of them).
	Opt *sim.Optimizations
	// Unroll is the simulator's steps per dispatch (sim.Unroll; 0 or 1:
	// step by step).
	Unroll int
	// CopyGBps is the copy bandwidth measured in the same run
	// (CopyBandwidth); when positive, results carry the roofline fraction.
	CopyGBps float64
}

// Optimizations returns the passes c selects: *c.Opt, or all.
func (c Config) Optimizations() sim.Optimizations {
	if c.Opt != nil {
		return *c.Opt
	}
	return sim.AllOptimizations()
}

// OptName names o as the --opt flag spells it: "all", "none", or the
// passes that are on joined by "+" (e.g. "merge+sort").
func OptName(o sim.Optimizations) string {
	if o == sim.AllOptimizations() {
		return "all"
	}
	return o.String()
}

// ParseOpt parses the --opt flag: "all", "none", or a comma-separated
// list of the passes simplify, merge and sort, at most one planner
// (level, greedy, tree, tree:DEPTH, transitive; a planner implies merge)
// and a sorter (groups, metablock; implies sort), e.g. "all,tree" or
// "merge,transitive,metablock".
func ParseOpt(s string) (sim.Optimizations, error) {
	var o sim.Optimizations
	switch strings.TrimSpace(s) {
	case "all", "":
		return sim.AllOptimizations(), nil
	case "none":
		return o, nil
	}
	planner := ""
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		name, depth, hasDepth := strings.Cut(f, ":")
		switch {
		case f == "all":
			o.Simplify, o.Merge, o.Sort = true, true, true
		case f == "simplify":
			o.Simplify = true
		case f == "merge":
			o.Merge = true
		case f == "sort":
			o.Sort = true
		case slices.Contains(sim.Sorters, f):
			o.Sort = true
			if f != "groups" {
				o.Sorter = f
			}
		case slices.Contains(sim.Planners, name) && (!hasDepth || name == "tree"):
			if planner != "" {
				return o, fmt.Errorf("--opt %q: two planners (%s, %s): choose one", s, planner, name)
			}
			planner = name
			o.Merge = true
			if name != "level" {
				o.Planner = name
			}
			if hasDepth {
				d, err := strconv.Atoi(depth)
				if err != nil || d < 1 {
					return o, fmt.Errorf("--opt %q: tree depth %q: want a positive integer", s, depth)
				}
				o.TreeDepth = d
			}
		default:
			return o, fmt.Errorf("--opt %q: %q is not a pass or planner: want all, none or a comma-separated list of simplify, merge, sort, one planner of %s (tree:DEPTH) and a sorter (%s)", s, f, strings.Join(sim.Planners, ", "), strings.Join(sim.Sorters, ", "))
		}
	}
	return o, nil
}

// Default is the full protocol: 0.1 s warm-up, 5 repeats of 5 s.
func Default() Config { return Config{Warmup: 0.1, Seconds: 5, Repeats: 5, DT: 0.001} }

// Quick is the CI protocol: 0.05 s warm-up, 2 repeats of 1 s.
func Quick() Config { return Config{Warmup: 0.05, Seconds: 1, Repeats: 2, DT: 0.001} }

// Steps returns the number of steps in one timed repeat.
func (c Config) Steps() int { return int(math.Round(c.Seconds / c.DT)) }

// NeuronsPerD returns 9984 / dims (integer division), at least 1.
func NeuronsPerD(dims int) int { return max(1, TotalNeurons/dims) }

// Network returns benchmark model at dims dimensions with neuronsPerD
// neurons per dimension and RectifiedLinear neurons on every ensemble.
func Network(model string, dims, neuronsPerD int, seed int64) (*toolkit.Network, error) {
	f, ok := networks.Benchmarks()[model]
	if !ok {
		return nil, fmt.Errorf("bench: model %q: must be one of %s", model, strings.Join(Models, ", "))
	}
	net, err := f(dims, neuronsPerD, seed)
	if err != nil {
		return nil, err
	}
	for _, e := range net.AllEnsembles() {
		e.NeuronType = neurons.NewRectifiedLinear()
	}
	return net, nil
}

// Result is one row of the benchmark: a (model, dims, batch, backend)
// cell. Times are wall-clock; Seconds is the mean over repeats of the
// time to simulate Config.Seconds, for the whole batch.
type Result struct {
	Model         string  `json:"model"`
	Dims          int     `json:"dims"`
	Batch         int     `json:"batch"`
	Backend       string  `json:"backend"`
	Unroll        int     `json:"unroll,omitempty"` // steps per dispatch (sim.Unroll)
	Seconds       float64 `json:"seconds"`
	RealtimeRatio float64 `json:"realtime_ratio"`
	CILow         float64 `json:"ci_low"`
	CIHigh        float64 `json:"ci_high"`
	USPerStep     float64 `json:"us_per_step"`
	BuildS        float64 `json:"build_s"`
	AllocsPerStep float64 `json:"allocs_per_step"`
	PeakRSSMB     float64 `json:"peak_rss_mb"`
	Neurons       int     `json:"neurons"`
	Ensembles     int     `json:"ensembles"`
	Simulated     float64 `json:"simulated_s"`
	Steps         int     `json:"steps"` // per timed repeat
	Repeats       int     `json:"repeats"`
	// Opt names the optimizer passes the model was built with (OptName);
	// Operators and Groups are the operators after simplification and the
	// merged groups executed per step (sim.Plan).
	Opt       string `json:"opt"`
	Operators int    `json:"operators"`
	Groups    int    `json:"groups"`
	// Roofline: BytesPerStep is the memory a step touches (weights and
	// state, sim.Plan.BytesPerStep, times the batch: every lane has its
	// own store), GBps = BytesPerStep / seconds per step / 1e9, CopyGBps
	// the copy bandwidth measured in the same run (CopyBandwidth) and
	// Roofline = GBps / CopyGBps (0 when no bandwidth was measured).
	BytesPerStep int64   `json:"bytes_per_step"`
	GBps         float64 `json:"gbps"`
	CopyGBps     float64 `json:"copy_gbps"`
	Roofline     float64 `json:"roofline"`
	// Filled by Compare: Nengo's time for the same work (batch × one
	// serial run) and NengoTime / Seconds.
	NengoTime      *float64 `json:"nengo_time,omitempty"`
	NengoUSPerStep *float64 `json:"nengo_us_per_step,omitempty"`
	NengoBuildS    *float64 `json:"nengo_build_s,omitempty"`
	NengoPeakRSSMB *float64 `json:"nengo_peak_rss_mb,omitempty"`
	Speedup        *float64 `json:"speedup,omitempty"`
	// Filled by CompareBeside: another neurogo binary on the same cell.
	Beside *Beside `json:"beside,omitempty"`
}

// JSON returns r as one line of JSON (no trailing newline).
func (r Result) JSON() ([]byte, error) { return machine.MarshalLine(sanitize(r)) }

// sanitize replaces NaN and Inf (not representable in JSON) by 0.
func sanitize(r Result) Result {
	for _, p := range []*float64{&r.Seconds, &r.RealtimeRatio, &r.CILow, &r.CIHigh, &r.USPerStep, &r.BuildS, &r.AllocsPerStep, &r.PeakRSSMB, &r.GBps, &r.CopyGBps, &r.Roofline} {
		if math.IsNaN(*p) || math.IsInf(*p, 0) {
			*p = 0
		}
	}
	return r
}

// ResetPeakRSS asks Linux to reset this process's peak RSS (VmHWM); it is
// a no-op where /proc/self/clear_refs is missing or not writable.
func ResetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// PeakRSSMB returns this process's peak resident set (VmHWM) in MiB,
// or NaN where /proc/self/status is unavailable.
func PeakRSSMB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return math.NaN()
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fs := strings.Fields(rest)
			if len(fs) > 0 {
				kb, err := strconv.ParseFloat(fs[0], 64)
				if err == nil {
					return kb / 1024
				}
			}
		}
	}
	return math.NaN()
}

const allocMetric = "/gc/heap/allocs:objects"

// Run measures one cell on the CPU simulator with protocol c.
func Run(model string, dims, batch int, c Config) (Result, error) {
	r := Result{Model: model, Dims: dims, Batch: batch, Backend: "neurogo-cpu", Simulated: c.Seconds, Repeats: c.Repeats}
	if c.Repeats < 1 || !(c.Seconds > 0) || !(c.Warmup >= 0) || !(c.DT > 0) {
		return r, fmt.Errorf("bench: config %+v: need Repeats ≥ 1, Seconds > 0, Warmup ≥ 0, DT > 0", c)
	}
	net, err := Network(model, dims, NeuronsPerD(dims), c.Seed)
	if err != nil {
		return r, err
	}
	return runNet(net, model, dims, batch, c)
}

// runNet measures net (benchmark model at dims) with protocol c.
func runNet(net *toolkit.Network, model string, dims, batch int, c Config) (Result, error) {
	r := Result{Model: model, Dims: dims, Batch: batch, Backend: "neurogo-cpu", Simulated: c.Seconds, Repeats: c.Repeats}
	logf := func(format string, a ...any) {
		if c.Progress != nil {
			fmt.Fprintf(c.Progress, "  %s D=%d batch=%d: "+format+"\n", append([]any{model, dims, batch}, a...)...)
		}
	}
	for _, e := range net.AllEnsembles() {
		r.Neurons += e.N
		r.Ensembles++
	}
	opt := c.Optimizations()
	r.Opt = OptName(opt)
	runtime.GC()
	ResetPeakRSS()
	logf("building (%d neurons, %d ensembles, optimizer %s)", r.Neurons, r.Ensembles, r.Opt)
	t0 := time.Now()
	m, err := sim.Build(net, sim.DT(c.DT), sim.CheckNaN(false), sim.Optimize(opt))
	if err != nil {
		return r, err
	}
	r.BuildS = time.Since(t0).Seconds()
	plan := m.Plan()
	r.Operators, r.Groups = plan.Simplified, plan.Groups
	r.BytesPerStep = plan.BytesPerStep * int64(batch)
	// the timing marks are taken by the progress callback, which an
	// unrolled simulator calls once per block: blocks must end on them
	warmSteps, steps := int(math.Round(c.Warmup/c.DT)), c.Steps()
	unroll := max(c.Unroll, 1)
	for unroll > 1 && (warmSteps%unroll != 0 || steps%unroll != 0) {
		unroll--
	}
	r.Unroll = unroll
	s, err := sim.NewFromModel(m, sim.Batch(batch), sim.Unroll(unroll))
	if err != nil {
		return r, err
	}
	defer s.Close()
	// the build's garbage is collected now, not by a background GC
	// during the timed steps
	runtime.GC()

	warm := warmSteps
	r.Steps = steps
	if steps < 1 {
		return r, fmt.Errorf("bench: Seconds = %g with DT = %g: less than one step", c.Seconds, c.DT)
	}
	total := warm + c.Repeats*steps
	// Boundaries at which the clock is read: after warm-up and after every
	// repeat. Everything the hook touches is allocated here.
	marks := make([]time.Time, c.Repeats+1)
	sample := []metrics.Sample{{Name: allocMetric}}
	var allocs0 uint64
	next := 0
	boundary := func(done int) bool {
		return done == warm+next*steps
	}
	s.Progress = func(done, _ int) {
		if next > c.Repeats || !boundary(done) {
			return
		}
		marks[next] = time.Now()
		if next == 0 {
			metrics.Read(sample)
			allocs0 = sample[0].Value.Uint64()
			marks[0] = time.Now()
		}
		next++
	}
	logf("warm-up %g s, then %d × %g s", c.Warmup, c.Repeats, c.Seconds)
	if warm == 0 { // the hook first fires after step 1: take the mark now
		metrics.Read(sample)
		allocs0 = sample[0].Value.Uint64()
		marks[0] = time.Now()
		next = 1
	}
	// RunSteps first reserves the probes' storage for all the steps (MBs
	// at once), which started a garbage collection during the warm-up
	// now and then; its worker goroutines were counted as the steps'
	// allocations (0.002–0.007 per step). The steps allocate nothing,
	// so collection is off while they run.
	gcPercent := debug.SetGCPercent(-1)
	err = s.RunSteps(total)
	debug.SetGCPercent(gcPercent)
	if err != nil {
		return r, fmt.Errorf("bench: %s D=%d batch=%d: %w", model, dims, batch, err)
	}
	metrics.Read(sample)
	allocs1 := sample[0].Value.Uint64()
	r.PeakRSSMB = PeakRSSMB()
	if next != c.Repeats+1 {
		return r, fmt.Errorf("bench: internal: %d of %d timing marks taken", next, c.Repeats+1)
	}
	// metrics.Read itself may allocate on its first call; count only
	// what the timed steps did.
	r.AllocsPerStep = float64(allocs1-allocs0) / float64(c.Repeats*steps)
	times := make([]float64, c.Repeats)
	ratios := make([]float64, c.Repeats)
	for i := range times {
		times[i] = marks[i+1].Sub(marks[i]).Seconds()
		ratios[i] = times[i] / c.Seconds
	}
	r.Seconds, _, _ = MeanCI(times)
	r.RealtimeRatio, r.CILow, r.CIHigh = MeanCI(ratios)
	r.USPerStep = r.Seconds / float64(steps) * 1e6
	r.GBps = float64(r.BytesPerStep) / (r.USPerStep * 1e-6) / 1e9
	if c.CopyGBps > 0 {
		r.CopyGBps = c.CopyGBps
		r.Roofline = r.GBps / c.CopyGBps
	}
	logf("%.2f µs/step, build %.2f s, %.3g allocs/step, peak RSS %.0f MiB, %.1f MB/step = %.2f GB/s (%.0f%% of copy)", r.USPerStep, r.BuildS, r.AllocsPerStep, r.PeakRSSMB, float64(r.BytesPerStep)/1e6, r.GBps, 100*r.Roofline)
	return r, nil
}

// CIHalfUS returns the half-width of r's 95 % interval in µs per step.
func (r Result) CIHalfUS() float64 {
	if r.Steps <= 0 {
		return 0
	}
	return (r.CIHigh - r.CILow) / 2 * r.Simulated / float64(r.Steps) * 1e6
}

// WriteTable prints results as a readable table: model, D, batch,
// neurogo µs/step ± CI half-width, Nengo µs/step (of the same work:
// batch serial runs) and speedup, sorted by model order, D, batch. When a
// row was measured beside another binary (CompareBeside), the other's
// µs/step and build time and the two ratios (this ÷ other) follow.
func WriteTable(w io.Writer, rs []Result) {
	order := map[string]int{}
	for i, m := range Models {
		order[m] = i
	}
	rs = append([]Result(nil), rs...)
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if order[a.Model] != order[b.Model] {
			return order[a.Model] < order[b.Model]
		}
		if a.Dims != b.Dims {
			return a.Dims < b.Dims
		}
		return a.Batch < b.Batch
	})
	beside := false
	for _, r := range rs {
		beside = beside || r.Beside != nil
	}
	fmt.Fprintf(w, "%-14s %4s %5s %-13s %22s %8s %8s %8s %6s %9s %14s %8s %9s", "model", "D", "batch", "opt", "neurogo µs/step", "build s", "allocs", "MB/step", "GB/s", "roofline", "nengo µs/step", "nengo b", "speedup")
	if beside {
		fmt.Fprintf(w, " %22s %9s %8s %8s", "beside µs/step", "beside b", "÷ step", "÷ build")
	}
	fmt.Fprintln(w)
	for _, r := range rs {
		ng, nb, sp := "-", "-", "-"
		if r.NengoUSPerStep != nil {
			ng = fmt.Sprintf("%.1f", *r.NengoUSPerStep)
		}
		if r.NengoBuildS != nil {
			nb = fmt.Sprintf("%.2f", *r.NengoBuildS)
		}
		if r.Speedup != nil {
			sp = fmt.Sprintf("%.2f×", *r.Speedup)
		}
		us := fmt.Sprintf("%.1f ± %.1f", r.USPerStep, r.CIHalfUS())
		fmt.Fprintf(w, "%-14s %4d %5d %-13s %22s %8.2f %8.3g %8.2f %6.2f %9s %14s %8s %9s", r.Model, r.Dims, r.Batch, r.Opt, us, r.BuildS, r.AllocsPerStep, float64(r.BytesPerStep)/1e6, r.GBps, roofline(r), ng, nb, sp)
		if b := r.Beside; b != nil {
			fmt.Fprintf(w, " %22s %9.2f %8.2f %8.2f", fmt.Sprintf("%.1f ± %.1f", b.USPerStep, b.CIHalfUS), b.BuildS, b.StepRatio, b.BuildRatio)
		} else if beside {
			fmt.Fprintf(w, " %22s %9s %8s %8s", "-", "-", "-", "-")
		}
		fmt.Fprintln(w)
	}
}

// roofline formats r.Roofline as a percentage ("-" without a measured
// bandwidth).
func roofline(r Result) string {
	if !(r.CopyGBps > 0) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*r.Roofline)
}
