package frames

import (
	"fmt"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// BenchmarkStep: one frame of the appendix network (seed 001 §6.2) with
// 128 agents, by mode and workers; "+rollout" adds the deep_class
// rollout (forward and backward, depth 3) as a hook.
func BenchmarkStep(b *testing.B) {
	for _, bc := range []struct {
		mode    Mode
		workers int
		rollout bool
	}{{Parallel, 1, false}, {Parallel, 2, false}, {Sequential, 2, false}, {Parallel, 1, true}, {Parallel, 2, true}} {
		name := fmt.Sprintf("mode=%d/workers=%d", bc.mode, bc.workers)
		if bc.rollout {
			name += "/+rollout"
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
				h := &rolloutHook{s: s}
				if h.r, err = s.NewRollout(plan, p.Params); err != nil {
					b.Fatal(err)
				}
				s.AddHook(h)
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
