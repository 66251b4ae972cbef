package frames

import (
	"fmt"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// BenchmarkStep: one frame of the appendix network (the statestream paper, §6.2) with
// 128 agents, by mode and workers; "+rollout" adds the deep_class
// rollout (forward and backward, depth 3) as a hook, "+chunked" the same
// rollout in 8 agent chunks (a ChunkedHook).
func BenchmarkStep(b *testing.B) {
	for _, bc := range []struct {
		mode    Mode
		workers int
		rollout bool
		chunks  int
	}{{Parallel, 1, false, 0}, {Parallel, 2, false, 0}, {Sequential, 2, false, 0}, {Parallel, 1, true, 0}, {Parallel, 2, true, 0},
		{Parallel, 1, true, 8}, {Parallel, 2, true, 8}} {
		name := fmt.Sprintf("mode=%d/workers=%d", bc.mode, bc.workers)
		if bc.rollout {
			name += "/+rollout"
		}
		if bc.chunks > 0 {
			name += "/+chunked"
		}
		b.Run(name, func(b *testing.B) {
			s, err := New(demoNet(128), Options{Seed: 1, Workers: bc.workers, Mode: bc.mode,
				Drivers: map[string]stream.Driver{"mnist": allocFreeDriver{}}})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if bc.rollout {
				p := s.Net().Plasticities[1]
				plan, _ := s.Net().Rollout(p)
				if bc.chunks > 0 {
					r, err := s.NewChunkedRollout(plan, p.Params, bc.chunks)
					if err != nil {
						b.Fatal(err)
					}
					s.AddHook(&chunkedRolloutHook{r: r, out: "pred2", d: plan.Depth})
				} else {
					h := &rolloutHook{s: s}
					if h.r, err = s.NewRollout(plan, p.Params); err != nil {
						b.Fatal(err)
					}
					s.AddHook(h)
				}
			}
			_ = s.Run(2)
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
