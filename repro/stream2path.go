package repro

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/notebook"
	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/data"
	"github.com/neurogo/neurogo/train/plastic"
	"github.com/neurogo/neurogo/train/stimulus"
	"github.com/neurogo/neurogo/train/timeres"
	"github.com/neurogo/neurogo/viz"
)

// StreamOptions configure StreamTwoPath. Zero values give the full
// reproduction: the appendix 6.2 network unchanged (128 agents), trained
// for DefaultStreamTrainFrames frames on the MNIST training set, tested
// for DefaultStreamTestFrames frames on the test set, each image held 12
// frames (the statestream paper, §3.2: "Stimuli were always presented for 12
// consecutive frames").
type StreamOptions struct {
	Agents      int // 0: the file's (128)
	TrainFrames int
	TestFrames  int
	Hold        int // frames per stimulus (12)
	// Train and Test limit the image sets (0: all 60 000 / 10 000).
	Train, Test int
	Seed        int64
	DataDir     string
	Workers     int // 0: all cores
	// Threshold is the accuracy the response time is measured at (0.9).
	Threshold float64
	Log       io.Writer
	// Progress, if set, is called every few frames with the phase
	// ("train", "test parallel", "test sequential"), frames done and total.
	Progress func(phase string, done, total int)
}

// Defaults of the full StreamTwoPath run.
const (
	DefaultStreamTrainFrames = 6000
	DefaultStreamTestFrames  = 600
)

// StreamResult is what StreamTwoPath measured. Accuracy slices are
// indexed by the delay δt (frames since stimulus onset).
type StreamResult struct {
	Options StreamOptions
	// Loss histories of the two plasticities (one value per training
	// frame, as recorded by the trainer's ring buffer).
	ClassLoss, DeepClassLoss []float64
	// Accuracy vs δt of the layerwise-parallel network's prediction,
	// pred1 (short path) and pred2 (deep path), and of the same trained
	// network run layerwise-sequentially.
	Parallel, Pred1, Pred2, Sequential []float64
	TCM, SequentialTCM                 *timeres.TCM
	// ResponseTime is the first δt at which the parallel prediction's
	// accuracy reaches Threshold (-1: never); SequentialResponseTime the
	// same for the sequential network. ShortPath and DeepPath are the
	// shortest-path response times from the graph (image → prediction via
	// pred1, and via conv2/pred2).
	ResponseTime, SequentialResponseTime int
	ShortPath, DeepPath                  int
	// SampleResponseTimes[class] are per-presentation response times of
	// the parallel network (first δt correct for 2 frames in a row).
	SampleResponseTimes [][]int
	TrainSeconds        float64
	TrainFPS            float64 // frames per second while training
	TestSeconds         float64
}

// StreamTwoPath reproduces Fig. 3b of the statestream paper (Fischer 2018): the two-path MNIST network of
// the appendix (6.2) is trained with its two loss plasticities while
// MNIST images stream in, then tested with time-resolved evaluation
// (§3.2): accuracy against the delay since stimulus onset (chance for the
// first three frames, then the short path, one frame later the deep
// path), temporal confusion matrices and response times, side by side with
// the layerwise-sequential execution of the same trained network.
func StreamTwoPath(o StreamOptions) (*StreamResult, error) {
	if o.TrainFrames < 0 || o.TestFrames < 0 || o.Hold < 0 || o.Agents < 0 || o.Train < 0 || o.Test < 0 {
		return nil, fmt.Errorf("repro: statestream-2path: frame, hold, agent and image counts must be ≥ 0")
	}
	if o.TrainFrames == 0 {
		o.TrainFrames = DefaultStreamTrainFrames
	}
	if o.TestFrames == 0 {
		o.TestFrames = DefaultStreamTestFrames
	}
	if o.Hold == 0 {
		o.Hold = 12
	}
	if o.Threshold == 0 {
		o.Threshold = 0.9
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", args...)
		}
	}
	net, err := stream.Demonstration(stream.LoadOptions{})
	if err != nil {
		return nil, err
	}
	if o.Agents > 0 {
		net.Agents = o.Agents
	}
	o.Agents = net.Agents
	res := &StreamResult{Options: o}
	if res.ShortPath, err = timeres.ShortestPath(net, "image", "prediction"); err != nil {
		return nil, err
	}
	// the deep path: the same graph without the short path's synapse-pool
	deep := *net
	deep.SynapsePools = nil
	for _, sp := range net.SynapsePools {
		if sp.Name != "c1_pred" {
			deep.SynapsePools = append(deep.SynapsePools, sp)
		}
	}
	if res.DeepPath, err = timeres.ShortestPath(&deep, "image", "prediction"); err != nil {
		return nil, err
	}

	// only the images used are read (0: all)
	trainSet, testSet, err := data.MNISTSubset(o.DataDir, o.Train, o.Test)
	if err != nil {
		return nil, err
	}
	drivers, err := stimulus.Drivers(net, stimulus.Options{Data: trainSet, MinFrames: o.Hold, MaxFrames: o.Hold, Seed: o.Seed})
	if err != nil {
		return nil, err
	}
	s, err := frames.New(net, frames.Options{Seed: o.Seed, Workers: o.Workers, Drivers: drivers})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	tr, err := plastic.Attach(s, plastic.Options{Seed: o.Seed, History: o.TrainFrames})
	if err != nil {
		return nil, err
	}
	logf("statestream-2path: %d agents, training %d frames (images held %d frames)", net.Agents, o.TrainFrames, o.Hold)
	t0 := time.Now()
	every := max(1, o.TrainFrames/50)
	for f := 0; f < o.TrainFrames; f++ {
		if interrupt.Requested() {
			res.ClassLoss, res.DeepClassLoss = tr.History("class"), tr.History("deep_class")
			return res, fmt.Errorf("repro: statestream-2path: training interrupted after %d of %d frames: %w", f, o.TrainFrames, interrupt.ErrInterrupted)
		}
		if err := s.Step(); err != nil {
			return res, fmt.Errorf("repro: training frame %d: %w", f, err)
		}
		if l := tr.Losses(); math.IsNaN(l["class"]) || math.IsNaN(l["deep_class"]) {
			return res, fmt.Errorf("repro: training frame %d: loss is NaN (class %v, deep_class %v)", f, l["class"], l["deep_class"])
		}
		if (f+1)%every == 0 || f+1 == o.TrainFrames {
			if o.Progress != nil {
				o.Progress("train", f+1, o.TrainFrames)
			}
			if (f+1)%(every*10) == 0 || f+1 == o.TrainFrames {
				l := tr.Losses()
				logf("frame %d/%d: class loss %.4f, deep_class loss %.4f (%.1f frames/s)", f+1, o.TrainFrames, l["class"], l["deep_class"], float64(f+1)/time.Since(t0).Seconds())
			}
		}
	}
	res.TrainSeconds = time.Since(t0).Seconds()
	res.TrainFPS = float64(o.TrainFrames) / res.TrainSeconds
	res.ClassLoss, res.DeepClassLoss = tr.History("class"), tr.History("deep_class")

	t1 := time.Now()
	pt, err := streamTest(s, net, testSet, o, frames.Parallel, true)
	if err != nil {
		return res, err
	}
	res.TCM, res.Parallel, res.Pred1, res.Pred2, res.SampleResponseTimes = pt.tcm, pt.acc, pt.pred1, pt.pred2, pt.rts
	st, err := streamTest(s, net, testSet, o, frames.Sequential, false)
	if err != nil {
		return res, err
	}
	res.SequentialTCM, res.Sequential = st.tcm, st.acc
	res.TestSeconds = time.Since(t1).Seconds()
	res.ResponseTime, res.SequentialResponseTime = -1, -1
	if rt, ok := timeres.ResponseTime(res.Parallel, o.Threshold); ok {
		res.ResponseTime = rt
	}
	if rt, ok := timeres.ResponseTime(res.Sequential, o.Threshold); ok {
		res.SequentialResponseTime = rt
	}
	logf("test: parallel accuracy by δt %s", fmtAcc(res.Parallel))
	logf("test: sequential accuracy by δt %s", fmtAcc(res.Sequential))
	logf("response time (accuracy ≥ %.2f): parallel %d frames, sequential %d; shortest paths: short %d, deep %d", o.Threshold, res.ResponseTime, res.SequentialResponseTime, res.ShortPath, res.DeepPath)
	return res, nil
}

func fmtAcc(a []float64) string {
	s := "["
	for i, v := range a {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.3f", v)
	}
	return s + "]"
}

type streamEval struct {
	tcm               *timeres.TCM
	acc, pred1, pred2 []float64
	rts               [][]int
}

// streamTest copies the trained parameters of s into a new evaluation Sim
// (no noise or dropout) in the given mode, streams the test set through
// it and accumulates temporal confusion matrices of prediction (and, if
// paths, of pred1 and pred2 alone).
func streamTest(s *frames.Sim, net *stream.Net, testSet *data.Dataset, o StreamOptions, mode frames.Mode, paths bool) (*streamEval, error) {
	drivers, err := stimulus.Drivers(net, stimulus.Options{Data: testSet, MinFrames: o.Hold, MaxFrames: o.Hold, Seed: o.Seed + 1})
	if err != nil {
		return nil, err
	}
	var lab stream.Labeler
	for _, d := range drivers {
		if l, ok := d.(stream.Labeler); ok {
			lab = l
		}
	}
	if lab == nil {
		return nil, fmt.Errorf("repro: the network's interfaces present no labelled stimulus")
	}
	ev, err := frames.New(net, frames.Options{Seed: o.Seed, Workers: o.Workers, Drivers: drivers, Mode: mode, NoNoise: true})
	if err != nil {
		return nil, err
	}
	defer ev.Close()
	for _, ref := range s.Params() {
		src, err := s.Param(ref)
		if err != nil {
			return nil, err
		}
		dst, err := ev.Param(ref)
		if err != nil {
			return nil, err
		}
		copy(dst, src)
	}
	maxDelay := o.Hold - 1
	out := &streamEval{}
	pools := []string{"prediction"}
	if paths {
		pools = append(pools, "pred1", "pred2")
	}
	tcms := make([]*timeres.TCM, len(pools))
	for i := range tcms {
		if tcms[i], err = timeres.New(10, maxDelay); err != nil {
			return nil, err
		}
	}
	tracker, err := timeres.NewTracker(10, 2)
	if err != nil {
		return nil, err
	}
	preds := make([]int, net.Agents)
	phase := "test parallel"
	if mode == frames.Sequential {
		phase = "test sequential"
	}
	every := max(1, o.TestFrames/50)
	for f := 0; f < o.TestFrames; f++ {
		if interrupt.Requested() {
			return nil, fmt.Errorf("repro: statestream-2path: %s interrupted after %d of %d frames: %w", phase, f, o.TestFrames, interrupt.ErrInterrupted)
		}
		if err := ev.Step(); err != nil {
			return nil, fmt.Errorf("repro: %s frame %d: %w", phase, f, err)
		}
		t := ev.Frame()
		labels, onsets := lab.Stimulus(t)
		for i, p := range pools {
			st, err := ev.State(p)
			if err != nil {
				return nil, err
			}
			if err := tcms[i].AddScores(labels, onsets, st, t); err != nil {
				return nil, err
			}
			if i == 0 {
				for a := range preds {
					preds[a] = argmax(st[a*10 : (a+1)*10])
				}
				if err := tracker.Add(labels, onsets, preds, t); err != nil {
					return nil, err
				}
			}
		}
		if o.Progress != nil && ((f+1)%every == 0 || f+1 == o.TestFrames) {
			o.Progress(phase, f+1, o.TestFrames)
		}
	}
	out.tcm, out.acc = tcms[0], tcms[0].Accuracy()
	if paths {
		out.pred1, out.pred2 = tcms[1].Accuracy(), tcms[2].Accuracy()
	}
	out.rts = tracker.Times()
	return out, nil
}

func argmax(v []float64) int {
	b := 0
	for i, x := range v {
		if x > v[b] {
			b = i
		}
	}
	return b
}

// Figures returns Fig. 3b (accuracy against the delay since onset for the
// layerwise-parallel prediction, its two paths and the layerwise-sequential
// network, chance dashed), the temporal confusion matrices of the parallel
// network at δt 2…5, and the per-presentation response-time
// distributions.
func (r *StreamResult) Figures() (acc, tcm, rts *viz.Plot, err error) {
	curves := []timeres.Curve{{Name: "layerwise-parallel", Accuracy: r.Parallel}}
	if r.Pred1 != nil {
		curves = append(curves, timeres.Curve{Name: "pred1 (short path)", Accuracy: r.Pred1}, timeres.Curve{Name: "pred2 (deep path)", Accuracy: r.Pred2})
	}
	if r.Sequential != nil {
		curves = append(curves, timeres.Curve{Name: "layerwise-sequential", Accuracy: r.Sequential})
	}
	if acc, err = notebook.AccuracyPlot(curves, 0.1); err != nil {
		return
	}
	if tcm, err = notebook.TCMPlot(r.TCM, data.MNISTClasses(), []int{2, 3, 4, 5}); err != nil {
		return
	}
	rts, err = notebook.ResponseTimePlot(r.SampleResponseTimes, data.MNISTClasses())
	return
}
