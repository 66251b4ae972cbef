package vizbench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/neurogo/neurogo/viz"
	"github.com/sbinet/npyio"
	"gonum.org/v1/gonum/mat"
)

// The data and figure sizes of the bench.
const (
	Neurons = 1000  // raster rows
	Steps   = 10000 // raster time steps
	DT      = 0.001 // seconds per step
	RateHz  = 20.0  // mean firing rate of the raster's neurons
	Seed    = 1     // seed of the raster's spikes
	Classes = 10    // confusion matrix classes

	Width  = 640 // figure width in CSS px (points)
	Height = 400 // figure height in CSS px
	DPI    = 144 // PNG resolution: 2 pixels per CSS px

	// DefaultRepeat is the number of timed runs per figure and side.
	DefaultRepeat = 7
	// MatplotlibVersion is the matplotlib pinned in requirements.txt.
	MatplotlibVersion = "3.11.2"
	// ScriptPath is the peer's script, relative to the source tree.
	ScriptPath = "python/bench/viz_matplotlib.py"
)

// Figures are the figures measured, in order.
var Figures = []string{"raster", "confusion"}

// rasterColor is viz.SeriesColor(0), the colour of a one-group raster,
// as the peer's "#rrggbb".
func rasterColor() string {
	c := viz.SeriesColor(0)
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// Spikes returns the bench raster: Steps × Neurons, each step of each
// neuron spiking with probability RateHz·DT (a Bernoulli approximation of
// a Poisson process), spikes valued 1/DT as Nengo's spike probes record
// them. The rows share one backing slice, flat (row-major).
func Spikes(seed uint64) (spikes [][]float64, flat []float64) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	p := RateHz * DT
	flat = make([]float64, Steps*Neurons)
	for i := range flat {
		if rng.Float64() < p {
			flat[i] = 1 / DT
		}
	}
	spikes = make([][]float64, Steps)
	for s := range spikes {
		spikes[s] = flat[s*Neurons : (s+1)*Neurons : (s+1)*Neurons]
	}
	return spikes, flat
}

// Counts returns the bench confusion matrix, counts[true][predicted]:
// 10 classes of 100 examples, 80 to 98 correct, the errors spread over
// the neighbouring classes.
func Counts() [][]float64 {
	m := make([][]float64, Classes)
	for i := range m {
		m[i] = make([]float64, Classes)
		correct := 80 + (i*7)%19
		m[i][i] = float64(correct)
		wrong := 100 - correct
		for k := 0; wrong > 0; k++ {
			j := (i + 1 + k%3) % Classes
			if k%2 == 1 {
				j = (i + Classes - 1 - k%3) % Classes
			}
			n := min(wrong, 1+(i+k)%4)
			m[i][j] += float64(n)
			wrong -= n
		}
	}
	return m
}

// RenderRaster is the timed work of the raster on neurogo's side:
// viz.Raster at the default size, then its PNG.
func RenderRaster(spikes [][]float64, dt float64) ([]byte, error) {
	p, err := viz.Raster(spikes, dt, viz.RasterOptions{})
	if err != nil {
		return nil, err
	}
	return p.PNG(), nil
}

// RenderConfusion is the timed work of the confusion matrix on neurogo's
// side: viz.ConfusionMatrix (annotated, colour bar) at Width×Height, then
// its PNG.
func RenderConfusion(counts [][]float64) ([]byte, error) {
	p, err := viz.ConfusionMatrix(counts, nil, viz.ConfusionOptions{Frame: viz.Frame{Width: Width, Height: Height}})
	if err != nil {
		return nil, err
	}
	return p.PNG(), nil
}

// Options configures Run.
type Options struct {
	// Repeat is the number of timed runs per figure and side (0:
	// DefaultRepeat).
	Repeat int
	// Python runs the peer; "" measures neurogo alone.
	Python string
	// Script is the peer's script (the source tree's ScriptPath).
	Script string
	// Figures, when not "", receives the PNGs of the warm-up runs:
	// NAME-neurogo.png and NAME-matplotlib.png.
	Figures string
	// Progress receives one line per step; nil discards them.
	Progress io.Writer
}

// Side is one side's measurement of a figure.
type Side struct {
	MedianMS float64   `json:"median_ms"`
	RunsMS   []float64 `json:"runs_ms"`
	PNGBytes int       `json:"png_bytes"`
	Width    int       `json:"width"`  // PNG pixels
	Height   int       `json:"height"` // PNG pixels
	// ConvertMS is the median of the part of the peer's raster runs that
	// turns the dense matrix into spike times (included in MedianMS).
	ConvertMS float64 `json:"convert_ms,omitempty"`
}

// Result is one figure's row.
type Result struct {
	Figure   string `json:"figure"`
	Describe string `json:"describe"`
	Neurogo  Side   `json:"neurogo"`
	// Matplotlib and Ratio (Matplotlib.MedianMS ÷ Neurogo.MedianMS, above
	// 1: neurogo is faster) are set when the peer ran.
	Matplotlib *Side   `json:"matplotlib,omitempty"`
	Ratio      float64 `json:"ratio,omitempty"`
}

// Versions are the peer's versions.
type Versions struct {
	Python     string `json:"python"`
	Matplotlib string `json:"matplotlib"`
	Numpy      string `json:"numpy"`
	Backend    string `json:"backend"`
}

// Report is what Run measured.
type Report struct {
	Results []Result
	// Peer is the zero value when the peer did not run.
	Peer Versions
}

// MissingError reports a Python that cannot import the peer's packages.
type MissingError struct {
	Python string
	Err    string // the ImportError's message
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s cannot import matplotlib and NumPy (%s): install them with `%s -m pip install matplotlib==%s` (the version in requirements.txt; scripts/lib.sh ensure_python installs it into .cache/venv)",
		e.Python, e.Err, e.Python, MatplotlibVersion)
}

// describe is the text of each figure's row.
var describe = map[string]string{
	"raster":    fmt.Sprintf("spike raster, %d neurons × %d steps (%g s at dt = %g s), ~%g Hz", Neurons, Steps, Steps*DT, DT, RateHz),
	"confusion": fmt.Sprintf("confusion matrix %d×%d, annotated, colour bar", Classes, Classes),
}

// Run measures every figure on neurogo's side and, with o.Python, on
// matplotlib's, alternating the two.
func Run(ctx context.Context, o Options) (Report, error) {
	var rep Report
	if o.Repeat <= 0 {
		o.Repeat = DefaultRepeat
	}
	logf := func(format string, a ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, format+"\n", a...)
		}
	}
	spikes, flat := Spikes(Seed)
	counts := Counts()
	ours := map[string]func() ([]byte, error){
		"raster":    func() ([]byte, error) { return RenderRaster(spikes, DT) },
		"confusion": func() ([]byte, error) { return RenderConfusion(counts) },
	}

	var pr *peer
	if o.Python != "" {
		dir, err := os.MkdirTemp("", "neurogo-bench-viz-")
		if err != nil {
			return rep, err
		}
		defer os.RemoveAll(dir)
		logf("writing the data for matplotlib to %s", dir)
		if err := WriteData(dir, flat, counts); err != nil {
			return rep, err
		}
		pr, err = startPeer(ctx, o.Python, o.Script, dir)
		if err != nil {
			return rep, err
		}
		defer pr.close()
		rep.Peer = pr.versions
		logf("matplotlib %s (NumPy %s, Python %s, backend %s)", pr.versions.Matplotlib, pr.versions.Numpy, pr.versions.Python, pr.versions.Backend)
	}
	if o.Figures != "" {
		if err := os.MkdirAll(o.Figures, 0o755); err != nil {
			return rep, err
		}
	}

	// Warm-up: one run of each side, whose PNGs are checked (and kept).
	res := make([]Result, len(Figures))
	for k, fig := range Figures {
		res[k] = Result{Figure: fig, Describe: describe[fig]}
		b, err := ours[fig]()
		if err != nil {
			return rep, fmt.Errorf("%s: %w", fig, err)
		}
		w, h, err := pngSize(b)
		if err != nil {
			return rep, fmt.Errorf("%s: neurogo's PNG: %w", fig, err)
		}
		res[k].Neurogo = Side{PNGBytes: len(b), Width: w, Height: h}
		if o.Figures != "" {
			if err := os.WriteFile(filepath.Join(o.Figures, fig+"-neurogo.png"), b, 0o644); err != nil {
				return rep, err
			}
		}
		logf("warm-up %s: neurogo %d×%d px, %d bytes", fig, w, h, len(b))
		if pr == nil {
			continue
		}
		path := filepath.Join(pr.dir, fig+"-matplotlib.png")
		r, err := pr.run(fig, path)
		if err != nil {
			return rep, err
		}
		pb, err := os.ReadFile(path)
		if err != nil {
			return rep, fmt.Errorf("%s: matplotlib's PNG: %w", fig, err)
		}
		pw, ph, err := pngSize(pb)
		if err != nil {
			return rep, fmt.Errorf("%s: matplotlib's PNG %s: %w", fig, path, err)
		}
		if pw != w || ph != h {
			return rep, fmt.Errorf("%s: the PNGs differ in pixel size: neurogo %d×%d, matplotlib %d×%d: the figures are not the same size, the times would not compare", fig, w, h, pw, ph)
		}
		res[k].Matplotlib = &Side{PNGBytes: r.Bytes, Width: pw, Height: ph}
		if o.Figures != "" {
			if err := os.WriteFile(filepath.Join(o.Figures, fig+"-matplotlib.png"), pb, 0o644); err != nil {
				return rep, err
			}
		}
		logf("warm-up %s: matplotlib %d×%d px, %d bytes", fig, pw, ph, r.Bytes)
	}

	// Timed runs, alternating.
	conv := make([][]float64, len(Figures))
	for i := 0; i < o.Repeat; i++ {
		for k, fig := range Figures {
			timeOurs := func() error {
				runtime.GC()
				t0 := time.Now()
				b, err := ours[fig]()
				ms := float64(time.Since(t0)) / 1e6
				if err != nil {
					return fmt.Errorf("%s: %w", fig, err)
				}
				res[k].Neurogo.RunsMS = append(res[k].Neurogo.RunsMS, ms)
				if len(b) != res[k].Neurogo.PNGBytes {
					return fmt.Errorf("%s: neurogo's PNG changed size between runs (%d, then %d bytes)", fig, res[k].Neurogo.PNGBytes, len(b))
				}
				return nil
			}
			timePeer := func() error {
				r, err := pr.run(fig, "")
				if err != nil {
					return err
				}
				res[k].Matplotlib.RunsMS = append(res[k].Matplotlib.RunsMS, r.MS)
				if fig == "raster" {
					conv[k] = append(conv[k], r.ConvertMS)
				}
				return nil
			}
			steps := []func() error{timeOurs}
			if pr != nil {
				steps = append(steps, timePeer)
				if i%2 == 1 {
					steps[0], steps[1] = steps[1], steps[0]
				}
			}
			for _, f := range steps {
				if err := f(); err != nil {
					return rep, err
				}
			}
			line := fmt.Sprintf("run %d/%d %s: neurogo %.1f ms", i+1, o.Repeat, fig, last(res[k].Neurogo.RunsMS))
			if pr != nil {
				line += fmt.Sprintf(", matplotlib %.1f ms", last(res[k].Matplotlib.RunsMS))
			}
			logf("%s", line)
		}
	}
	for k := range res {
		res[k].Neurogo.MedianMS = Median(res[k].Neurogo.RunsMS)
		if m := res[k].Matplotlib; m != nil {
			m.MedianMS = Median(m.RunsMS)
			if len(conv[k]) > 0 {
				m.ConvertMS = Median(conv[k])
			}
			res[k].Ratio = m.MedianMS / res[k].Neurogo.MedianMS
		}
	}
	rep.Results = res
	return rep, nil
}

func last(xs []float64) float64 { return xs[len(xs)-1] }

// Median is the median of xs (the mean of the middle two for an even
// count); 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func pngSize(b []byte) (w, h int, err error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return 0, 0, err
	}
	return cfg.Width, cfg.Height, nil
}

// meta is meta.json: what the peer needs besides the arrays.
type meta struct {
	DT          float64  `json:"dt"`
	Width       int      `json:"width"`  // CSS px
	Height      int      `json:"height"` // CSS px
	DPI         int      `json:"dpi"`
	RasterColor string   `json:"raster_color"`
	ClassNames  []string `json:"class_names"`
}

// WriteData writes the peer's inputs to dir: raster.npy (float64
// [step][neuron], Steps × Neurons, from flat), counts.npy (float64
// [true][predicted]) and meta.json.
func WriteData(dir string, flat []float64, counts [][]float64) error {
	if len(flat) != Steps*Neurons {
		return fmt.Errorf("vizbench.WriteData: len(flat) = %d: must be Steps × Neurons = %d", len(flat), Steps*Neurons)
	}
	if err := writeNpy(filepath.Join(dir, "raster.npy"), mat.NewDense(Steps, Neurons, flat)); err != nil {
		return err
	}
	n := len(counts)
	cm := mat.NewDense(n, n, nil)
	for i, row := range counts {
		if len(row) != n {
			return fmt.Errorf("vizbench.WriteData: len(counts[%d]) = %d: must be %d (square)", i, len(row), n)
		}
		cm.SetRow(i, row)
	}
	if err := writeNpy(filepath.Join(dir, "counts.npy"), cm); err != nil {
		return err
	}
	names := make([]string, n)
	for i := range names {
		names[i] = strconv.Itoa(i) // viz.ConfusionMatrix's names for nil
	}
	b, err := json.Marshal(meta{DT: DT, Width: Width, Height: Height, DPI: DPI, RasterColor: rasterColor(), ClassNames: names})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "meta.json"), b, 0o644)
}

func writeNpy(path string, m *mat.Dense) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := npyio.Write(w, m); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// peer is the running matplotlib script: one command per line on its
// stdin, one JSON line per reply on its stdout.
type peer struct {
	python   string
	dir      string
	cmd      *exec.Cmd
	in       io.WriteCloser
	out      *bufio.Reader
	stderr   *bytes.Buffer
	versions Versions
}

// peerReply is one reply of the script.
type peerReply struct {
	Error     string  `json:"error"`
	Missing   bool    `json:"missing"`
	Figure    string  `json:"figure"`
	MS        float64 `json:"ms"`
	ConvertMS float64 `json:"convert_ms"`
	Bytes     int     `json:"bytes"`
	Versions
}

func startPeer(ctx context.Context, python, script, dir string) (*peer, error) {
	if script == "" {
		return nil, errors.New("vizbench: no peer script (Options.Script)")
	}
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("matplotlib's side: %w", err)
	}
	p := &peer{python: python, dir: dir, stderr: &bytes.Buffer{}}
	p.cmd = exec.CommandContext(ctx, python, script, "--data", dir)
	p.cmd.Stderr = p.stderr
	in, err := p.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", python, err)
	}
	p.in, p.out = in, bufio.NewReader(out)
	r, err := p.read() // the first line: versions, or why it cannot run
	if err != nil {
		p.close()
		return nil, err
	}
	p.versions = r.Versions
	return p, nil
}

// read reads one reply.
func (p *peer) read() (peerReply, error) {
	var r peerReply
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		werr := p.cmd.Wait()
		return r, fmt.Errorf("%s %s: no reply (%v, exit: %v): %s", p.python, ScriptPath, err, werr, tail(p.stderr.String()))
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return r, fmt.Errorf("%s: cannot read the reply %q: %w", ScriptPath, line, err)
	}
	if r.Missing {
		return r, &MissingError{Python: p.python, Err: r.Error}
	}
	if r.Error != "" {
		return r, fmt.Errorf("matplotlib's side: %s", r.Error)
	}
	return r, nil
}

// run draws fig once and, when save is not "", writes its PNG there.
func (p *peer) run(fig, save string) (peerReply, error) {
	cmd := fig
	if save != "" {
		cmd += " " + save
	}
	if _, err := fmt.Fprintln(p.in, cmd); err != nil {
		return peerReply{}, fmt.Errorf("matplotlib's side: %w: %s", err, tail(p.stderr.String()))
	}
	r, err := p.read()
	if err != nil {
		return r, fmt.Errorf("%s: %w", fig, err)
	}
	if r.Figure != fig {
		return r, fmt.Errorf("%s: matplotlib's side replied for %q", fig, r.Figure)
	}
	return r, nil
}

func (p *peer) close() {
	if p.in != nil {
		fmt.Fprintln(p.in, "quit")
		p.in.Close()
	}
	if p.cmd.ProcessState == nil {
		done := make(chan struct{})
		go func() { p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			p.cmd.Process.Kill()
			<-done
		}
	}
}

// tail is the last lines of a process's stderr, for an error message.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 8 {
		lines = lines[len(lines)-8:]
	}
	return strings.Join(lines, "\n")
}

// WriteTable writes the human table of rep.
func WriteTable(w io.Writer, rep Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	peer := rep.Peer.Matplotlib != ""
	head := "figure\tpixels\tneurogo ms\tneurogo PNG KiB\t"
	if peer {
		head += "matplotlib ms\tmatplotlib PNG KiB\tratio\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rep.Results {
		n := r.Neurogo
		line := fmt.Sprintf("%s\t%d×%d\t%.1f\t%.0f\t", r.Figure, n.Width, n.Height, n.MedianMS, float64(n.PNGBytes)/1024)
		if m := r.Matplotlib; m != nil {
			line += fmt.Sprintf("%.1f\t%.0f\t%.2f×\t", m.MedianMS, float64(m.PNGBytes)/1024, r.Ratio)
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}
