package plastic

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
)

// patterns is a synthetic labelled stimulus for the appendix network: n
// fixed random 28×28 images, image k labelled k % 10; each agent shows a
// random sequence of them, each held for hold frames (the statestream paper, §3.2: the
// stimuli of Fig. 3b were presented for 12 frames).
type patterns struct {
	imgs   [][]float64
	hold   int
	rng    *rand.Rand
	agents int
	cur    []int
}

func newPatterns(n, hold int, seed uint64) *patterns {
	rng := rand.New(rand.NewPCG(seed, 1))
	p := &patterns{hold: hold, rng: rng}
	for range n {
		img := make([]float64, 28*28)
		for i := range img {
			if rng.Float64() < 0.3 {
				img[i] = 1
			}
		}
		p.imgs = append(p.imgs, img)
	}
	return p
}

func (p *patterns) Start(agents int, out, in map[string][3]int, seed int64) error {
	p.agents = agents
	p.cur = make([]int, agents)
	for a := range p.cur {
		p.cur[a] = p.rng.IntN(len(p.imgs))
	}
	return nil
}

func (p *patterns) Frame(t int, in, out map[string][]float64) error {
	if (t+1)%p.hold == 0 {
		for a := range p.cur {
			p.cur[a] = p.rng.IntN(len(p.imgs))
		}
	}
	img, lab := out["image"], out["label"]
	clear(lab)
	for a, k := range p.cur {
		copy(img[a*784:(a+1)*784], p.imgs[k])
		lab[a*10+k%10] = 1
	}
	return nil
}

// Frames and windows of the appendix-network test: the losses are
// averaged over the first and the last demoWindow frames after
// demoSettle frames (the deep path needs 4 frames to carry a stimulus
// to pred2, the statestream paper, Fig. 3b), and must fall by demoDrop.
const (
	demoFrames = 240
	demoSettle = 6
	demoWindow = 48
	demoDrop   = 0.9 // last-window mean ≤ demoDrop × first-window mean
	demoAgents = 8
)

// TestDemonstration attaches both plasticities of the statestream paper's appendix 6.2
// network and trains it on a synthetic labelled stimulus: both losses
// fall.
func TestDemonstration(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the appendix network for a few hundred frames")
	}
	net, err := stream.Load("../../toolkit/stream/testdata/demonstration.st_graph", stream.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	net.Agents = demoAgents
	s, err := frames.New(net, frames.Options{Seed: 3, Drivers: map[string]stream.Driver{"mnist": newPatterns(10, 12, 5)}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tr, err := Attach(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := s.Run(demoFrames); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d frames at %d agents in %v", demoFrames, demoAgents, time.Since(start))
	for _, name := range []string{"class", "deep_class"} {
		h := tr.History(name)
		if len(h) != demoFrames {
			t.Fatalf("%s: %d history values, want %d", name, len(h), demoFrames)
		}
		first := mean(h[demoSettle : demoSettle+demoWindow])
		last := mean(h[len(h)-demoWindow:])
		t.Logf("%s: mean loss %.4f over frames %d–%d, %.4f over the last %d", name, first, demoSettle, demoSettle+demoWindow-1, last, demoWindow)
		if !(last <= demoDrop*first) {
			t.Errorf("%s: loss went from %v to %v, want ≤ %v×", name, first, last, demoDrop)
		}
	}
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// BenchmarkDemonstration is one frame of the appendix network at
// demoAgents agents, inference only and with both plasticities attached
// (their rollouts run as extra jobs beside the pools).
func BenchmarkDemonstration(b *testing.B) {
	for _, train := range []bool{false, true} {
		name := "inference"
		if train {
			name = "plasticities"
		}
		b.Run(name, func(b *testing.B) {
			net, err := stream.Load("../../toolkit/stream/testdata/demonstration.st_graph", stream.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			net.Agents = demoAgents
			s, err := frames.New(net, frames.Options{Seed: 3, Drivers: map[string]stream.Driver{"mnist": newPatterns(10, 12, 5)}})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if train {
				if _, err := Attach(s, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.Run(5); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := s.Step(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
