package hxtorch

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/neurogo/neurogo/accel/analog"
	"github.com/neurogo/neurogo/accel/jit"
	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/viz"
)

// AccelRow is one measurement of BenchAccel (one JSON row of
// `neurogo bench accel --json`).
type AccelRow struct {
	Sweep string `json:"sweep"` // "size" (square matrices, fixed batch) or "batch" (256², varying batch)
	Rows  int    `json:"rows"`
	Cols  int    `json:"cols"`
	Batch int    `json:"batch"`
	// Mode: "gemm_float32" (the host CPU's float32 GEMM on all cores),
	// "mock_partner" (the pipeline with a fast mock communication
	// partner: software overhead alone), "emulated" (the pipeline with
	// the emulated chip computing).
	Mode string `json:"mode"`
	// MACsPerSecond is rows·cols·batch per second including the static
	// configuration; FractionOfGEMM divides it by the float32 GEMM rate
	// of the same shape measured in the same run.
	MACsPerSecond  float64 `json:"macs_per_second"`
	FractionOfGEMM float64 `json:"fraction_of_gemm"`
	Seconds        float64 `json:"seconds"`
	// Per stage (pipeline modes): configuration, and the summed time of
	// the JIT stages (they overlap across goroutines).
	ConfigureSeconds   float64 `json:"configure_seconds,omitempty"`
	PreprocessSeconds  float64 `json:"preprocess_seconds,omitempty"`
	BuildSeconds       float64 `json:"build_seconds,omitempty"`
	ExecuteSeconds     float64 `json:"execute_seconds,omitempty"`
	PostprocessSeconds float64 `json:"postprocess_seconds,omitempty"`
	// ArrayUtilisation is the partition's synapse utilisation; ChipBusy
	// the fraction of the wall time the chips executed.
	ArrayUtilisation float64 `json:"array_utilisation,omitempty"`
	ChipBusy         float64 `json:"chip_busy,omitempty"`
	// The rates the link model gives for a real setup (all configuration
	// and data through the 1 Gbit/s host link or the 8 Gbit/s chip I/O).
	HostLinkMACs float64 `json:"host_link_macs_per_second,omitempty"`
	ChipLinkMACs float64 `json:"chip_link_macs_per_second,omitempty"`
	// ChipTimeMACs is the rate the chips' own timing model allows
	// (Matrix.ChipTime, num_sends 1, no wait between events).
	ChipTimeMACs float64 `json:"chip_time_macs_per_second,omitempty"`
}

// AccelBenchOptions sizes BenchAccel.
type AccelBenchOptions struct {
	// MaxLog2 is the largest square matrix 2^MaxLog2 (default 14, Fig 8);
	// EmulatedMaxLog2 the largest run on the computing emulation
	// (default 12; larger ones take minutes).
	MaxLog2, EmulatedMaxLog2 int
	// Batch of the size sweep (default 2000); MaxBatchLog2 the largest
	// batch 2^k of the batch sweep at 256² (default 14).
	Batch, MaxBatchLog2 int
	// MinSeconds: every figure is the best of repeated runs lasting at
	// least this long together (default 0.5).
	MinSeconds float64
	Seed       int64
	Log        io.Writer
}

// BenchAccel measures Fig 8 of the hxtorch paper on the emulated system (one
// MockConfig chip): MAC/s against the matrix size at a fixed batch, and
// against the batch at 256², for the float32 GEMM of the host CPU, the
// pipeline with a mock communication partner (overhead only) and the
// pipeline with the emulated chip, all in one run.
func BenchAccel(o AccelBenchOptions) ([]AccelRow, error) {
	if o.MaxLog2 == 0 {
		o.MaxLog2 = 14
	}
	if o.EmulatedMaxLog2 == 0 {
		o.EmulatedMaxLog2 = 12
	}
	if o.Batch == 0 {
		o.Batch = 2000
	}
	if o.MaxBatchLog2 == 0 {
		o.MaxBatchLog2 = 14
	}
	if o.MinSeconds == 0 {
		o.MinSeconds = 0.5
	}
	if o.MaxLog2 < 0 || o.MaxLog2 > 15 || o.MaxBatchLog2 < 0 || o.MaxBatchLog2 > 16 || o.Batch < 1 {
		return nil, fmt.Errorf("repro: BenchAccel: MaxLog2 %d (0..15), MaxBatchLog2 %d (0..16), Batch %d (≥ 1)", o.MaxLog2, o.MaxBatchLog2, o.Batch)
	}
	logf := func(format string, a ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format, a...)
		}
	}
	sys, err := analog.New(analog.MockConfig())
	if err != nil {
		return nil, err
	}
	var rows []AccelRow
	measure := func(sweep string, n, batch int, emulate bool) error {
		rng := rand.New(rand.NewPCG(uint64(o.Seed), uint64(n*131+batch)))
		x := make([]float64, batch*n)
		for i := range x {
			x[i] = float64(rng.IntN(analog.InputMax + 1))
		}
		w := make([]float64, n*n)
		for i := range w {
			w[i] = float64(rng.IntN(2*analog.WeightMax+1) - analog.WeightMax)
		}
		gemm := gemmRate(x, w, batch, n, o.MinSeconds)
		if interrupt.Requested() { // gemmRate stops after the repeat running
			return fmt.Errorf("repro: BenchAccel interrupted at %d² batch %d (float32 GEMM): %w", n, batch, interrupt.ErrInterrupted)
		}
		macs := float64(batch) * float64(n) * float64(n)
		rows = append(rows, AccelRow{Sweep: sweep, Rows: n, Cols: n, Batch: batch, Mode: "gemm_float32", MACsPerSecond: gemm, FractionOfGEMM: 1, Seconds: macs / gemm})
		logf("%-5s %6d² batch %5d  gemm_float32  %9.3g MAC/s\n", sweep, n, batch, gemm)
		y := make([]float64, batch*n)
		modes := []string{"mock_partner"}
		if emulate {
			modes = append(modes, "emulated")
		}
		for _, mode := range modes {
			var best *AccelRow
			start := time.Now()
			for rep := 0; rep < 20 && (rep < 1 || time.Since(start).Seconds() < o.MinSeconds); rep++ {
				if interrupt.Requested() {
					return fmt.Errorf("repro: BenchAccel interrupted at %d² batch %d (%s): %w", n, batch, mode, interrupt.ErrInterrupted)
				}
				t0 := time.Now()
				m, err := sys.Configure(w, n, n, analog.Op{})
				if err != nil {
					return err
				}
				cfg := time.Since(t0)
				st, err := m.Run(context.Background(), x, batch, y, analog.PipelineOptions{MockPartner: mode == "mock_partner", Trace: true})
				if err != nil {
					return err
				}
				secs := (cfg + st.Wall).Seconds()
				p := m.Partition()
				r := AccelRow{Sweep: sweep, Rows: n, Cols: n, Batch: batch, Mode: mode, Seconds: secs,
					MACsPerSecond: macs / secs, ConfigureSeconds: cfg.Seconds(),
					PreprocessSeconds: st.Preprocess.Seconds(), BuildSeconds: st.Build.Seconds(),
					ExecuteSeconds: st.Execute.Seconds(), PostprocessSeconds: st.Postprocess.Seconds(),
					ArrayUtilisation: p.Utilisation(), ChipBusy: st.Trace.Utilisation(0),
					HostLinkMACs: p.LinkRate(batch, density(x), jit.HostLink()),
					ChipLinkMACs: p.LinkRate(batch, density(x), jit.ChipLink()),
					ChipTimeMACs: macs / m.ChipTime(batch, density(x)).Seconds()}
				r.FractionOfGEMM = r.MACsPerSecond / gemm
				if best == nil || r.Seconds < best.Seconds {
					best = &r
				}
			}
			rows = append(rows, *best)
			logf("%-5s %6d² batch %5d  %-12s  %9.3g MAC/s  %.2f of GEMM  (configure %.3g s, pre %.3g, build %.3g, execute %.3g, post %.3g; host link %.3g, chip link %.3g MAC/s)\n",
				sweep, n, batch, mode, best.MACsPerSecond, best.FractionOfGEMM, best.ConfigureSeconds, best.PreprocessSeconds, best.BuildSeconds, best.ExecuteSeconds, best.PostprocessSeconds, best.HostLinkMACs, best.ChipLinkMACs)
		}
		return nil
	}
	for k := 0; k <= o.MaxLog2; k++ {
		if err := measure("size", 1<<k, o.Batch, k <= o.EmulatedMaxLog2); err != nil {
			return nil, err
		}
	}
	for k := 0; k <= o.MaxBatchLog2; k++ {
		if err := measure("batch", 256, 1<<k, true); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

func density(x []float64) float64 {
	nz := 0
	for _, v := range x {
		if v != 0 {
			nz++
		}
	}
	return float64(nz) / float64(max(len(x), 1))
}

// gemmRate measures float32 C = X·W (batch×n · n×n) on all cores (row
// blocks of X per goroutine), best of repeats, in MAC/s. It stops after
// the repeat running when the interrupt flag (package interrupt) is set
// (one repeat is one GEMM: seconds at 16384²).
func gemmRate(x, w []float64, batch, n int, minSec float64) float64 {
	x32 := make([]float32, len(x))
	for i, v := range x {
		x32[i] = float32(v)
	}
	w32 := make([]float32, len(w))
	for i, v := range w {
		w32[i] = float32(v)
	}
	c := make([]float32, batch*n)
	workers := min(runtime.GOMAXPROCS(0), batch)
	run := func() {
		var wg sync.WaitGroup
		for i := range workers {
			lo, hi := i*batch/workers, (i+1)*batch/workers
			if hi == lo {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				blas32.Implementation().Sgemm(blas.NoTrans, blas.NoTrans, hi-lo, n, n, 1, x32[lo*n:hi*n], n, w32, n, 0, c[lo*n:hi*n], n)
			}()
		}
		wg.Wait()
	}
	best := math.Inf(1)
	start := time.Now()
	for rep := 0; rep < 50 && (rep < 2 || time.Since(start).Seconds() < minSec) && !interrupt.Requested(); rep++ {
		t0 := time.Now()
		run()
		best = math.Min(best, time.Since(t0).Seconds())
	}
	return float64(batch) * float64(n) * float64(n) / best
}

// AccelSummary condenses BenchAccel's rows into the figures that
// Fig 8's discussion quotes.
type AccelSummary struct {
	// MinFractionOneChip is the smallest FractionOfGEMM of the mock
	// partner pipeline over square matrices at least one chip large
	// (signed: 128 rows × 512 columns = 256² weights).
	MinFractionOneChip float64 `json:"min_fraction_of_gemm_one_chip"`
	// ModelCrossoverBatch is the batch at which the static configuration
	// volume equals the data volume at 256² (the cost model), and
	// MeasuredCrossoverBatch the batch at which the measured pipeline
	// time (mock partner) equals the configuration time (log-log
	// interpolation in the batch sweep; 0 if not bracketed).
	ModelCrossoverBatch    float64 `json:"model_crossover_batch"`
	MeasuredCrossoverBatch float64 `json:"measured_crossover_batch"`
}

// SummarizeAccel computes the AccelSummary of rows.
func SummarizeAccel(rows []AccelRow) AccelSummary {
	s := AccelSummary{MinFractionOneChip: math.NaN()}
	for _, r := range rows {
		if r.Sweep == "size" && r.Mode == "mock_partner" && r.Rows*r.Cols >= 256*256 {
			if math.IsNaN(s.MinFractionOneChip) || r.FractionOfGEMM < s.MinFractionOneChip {
				s.MinFractionOneChip = r.FractionOfGEMM
			}
		}
	}
	sys, _ := analog.New(analog.MockConfig())
	if p, err := sys.Partition(256, 256, false); err == nil {
		s.ModelCrossoverBatch = p.CrossoverBatch(float64(analog.InputMax) / (analog.InputMax + 1))
	}
	var prev *AccelRow
	for i := range rows {
		r := &rows[i]
		if r.Sweep != "batch" || r.Mode != "mock_partner" {
			continue
		}
		data := r.Seconds - r.ConfigureSeconds
		if prev != nil {
			d0 := prev.Seconds - prev.ConfigureSeconds
			c0, c1 := prev.ConfigureSeconds, r.ConfigureSeconds
			if d0 < c0 && data >= c1 && d0 > 0 && data > 0 {
				// log(data/config) crosses 0 between the two batches
				f0, f1 := math.Log(d0/c0), math.Log(data/c1)
				t := f0 / (f0 - f1)
				s.MeasuredCrossoverBatch = math.Exp(math.Log(float64(prev.Batch)) + t*(math.Log(float64(r.Batch))-math.Log(float64(prev.Batch))))
			}
		}
		prev = r
	}
	return s
}

// AccelFigures draws Fig 8 of the hxtorch paper from BenchAccel's rows: MAC/s
// against the number of matrix elements at the size sweep's batch (left)
// and against the batch size at 256² (right), for the float32 GEMM, the
// pipeline with the mock partner and with the emulated chip, and the
// rates the link model gives for the 1 Gbit/s host link and the 8 Gbit/s
// chip I/O.
func AccelFigures(rows []AccelRow) (bySize, byBatch *viz.Plot, err error) {
	series := func(sweep string, x func(AccelRow) float64) []viz.Series {
		var out []viz.Series
		for _, m := range []struct{ mode, label string }{
			{"gemm_float32", "float32 GEMM (host CPU)"},
			{"mock_partner", "pipeline, mock partner (overhead only)"},
			{"emulated", "pipeline, emulated chip"},
		} {
			s := viz.Series{Label: m.label}
			for _, r := range rows {
				if r.Sweep == sweep && r.Mode == m.mode {
					s.X = append(s.X, x(r))
					s.Y = append(s.Y, r.MACsPerSecond)
				}
			}
			if len(s.X) > 0 {
				out = append(out, s)
			}
		}
		for _, l := range []struct {
			label string
			host  bool
		}{{"host link 1 Gbit/s (model)", true}, {"chip I/O 8 Gbit/s (model)", false}} {
			s := viz.Series{Label: l.label, Dashed: true}
			for _, r := range rows {
				if r.Sweep == sweep && r.Mode == "mock_partner" {
					s.X = append(s.X, x(r))
					if l.host {
						s.Y = append(s.Y, r.HostLinkMACs)
					} else {
						s.Y = append(s.Y, r.ChipLinkMACs)
					}
				}
			}
			if len(s.X) > 0 {
				out = append(out, s)
			}
		}
		return out
	}
	bySize, err = viz.Line(series("size", func(r AccelRow) float64 { return float64(r.Rows * r.Cols) }), viz.LineOptions{
		Frame: viz.Frame{Title: "MAC rate vs matrix size (square, batch 2000)", XLabel: "matrix elements", YLabel: "MAC/s"}, LogX: true, LogY: true, Markers: true})
	if err != nil {
		return nil, nil, err
	}
	byBatch, err = viz.Line(series("batch", func(r AccelRow) float64 { return float64(r.Batch) }), viz.LineOptions{
		Frame: viz.Frame{Title: "MAC rate vs batch size (256²)", XLabel: "batch size", YLabel: "MAC/s"}, LogX: true, LogY: true, Markers: true})
	return bySize, byBatch, err
}
