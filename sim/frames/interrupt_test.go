package frames_test

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
)

// countingPulse is pulse, counting the frames it is asked for.
type countingPulse struct {
	pulse
	n *atomic.Int64
}

func (c countingPulse) Frame(t int, in, out map[string][]float64) error {
	c.n.Add(1)
	return c.pulse.Frame(t, in, out)
}

// TestRunInterrupt starts a run of 10⁹ frames, sets the process's
// interrupt flag after 50 ms and checks that Run returns within 100 ms
// with an error wrapping interrupt.ErrInterrupted at a whole frame, and
// that after the flag's Reset the Sim runs on from there. It sets the
// process-wide flag: no test of this package runs in parallel.
func TestRunInterrupt(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	interrupt.Reset()
	pool := func(name string) *stream.NeuronPool {
		return &stream.NeuronPool{Name: name, Shape: [3]int{1, 1, 4}, Period: 1}
	}
	sp := func(name, src, tgt string) *stream.SynapsePool {
		return &stream.SynapsePool{Name: name, Source: [][]string{{src}}, Target: tgt, RF: [][]int{{1}},
			Init: map[string]string{"W_0_0": "id"}, Period: 1}
	}
	net := &stream.Net{Agents: 2,
		NeuronPools:  []*stream.NeuronPool{pool("x"), pool("h"), pool("y")},
		SynapsePools: []*stream.SynapsePool{sp("xh", "x", "h"), sp("hy", "h", "y")},
		Interfaces:   []*stream.Interface{{Name: "stim", Type: "pulse", Out: []string{"x"}}},
	}
	var stepped atomic.Int64
	s, err := frames.New(net, frames.Options{Workers: 1, Drivers: map[string]stream.Driver{"stim": countingPulse{n: &stepped}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const total = 1000000000
	done := make(chan error, 1)
	var returned time.Time
	go func() {
		err := s.Run(total)
		returned = time.Now()
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	for stepped.Load() == 0 { // a busy machine may not have begun
		time.Sleep(time.Millisecond)
	}
	requested := time.Now()
	interrupt.Request()
	select {
	case err = <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return within 2 s of interrupt.Request")
	}
	if !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("Run = %v, want an error wrapping interrupt.ErrInterrupted", err)
	}
	if d := returned.Sub(requested); d > 100*time.Millisecond {
		t.Errorf("Run returned %v after interrupt.Request, want at most 100 ms", d)
	}
	at := s.Frame()
	if want := fmt.Sprintf("frames: run interrupted after %d of %d frames", at, total); !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q does not start with %q", err, want)
	}
	if at <= 0 || at >= total {
		t.Fatalf("Frame() = %d after the interrupt", at)
	}
	interrupt.Reset()
	if err := s.Run(10); err != nil {
		t.Fatalf("Run(10) after Reset: %v", err)
	}
	if s.Frame() != at+10 {
		t.Errorf("Frame() = %d after Run(10), want %d", s.Frame(), at+10)
	}
}
