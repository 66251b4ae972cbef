package jit

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkRun measures scheduling overhead per instance: every stage is
// an empty func, so all time is spent handing instances between host
// workers and resource queues. Layered graphs: each instance depends on
// the instance `width` earlier (none for the first layer).
func BenchmarkRun(b *testing.B) {
	const n = 1000
	for _, bc := range []struct {
		width, workers, resources int
	}{
		{n, 1, 1}, // all independent
		{n, 2, 2}, // all independent, two workers, two chips
		{8, 2, 2}, // 8 chains interleaved
		{1, 1, 1}, // one chain: every hand-off is on the critical path
	} {
		b.Run(fmt.Sprintf("width%d/workers%d/resources%d", bc.width, bc.workers, bc.resources), func(b *testing.B) {
			g := NewGraph()
			for i := range n {
				var deps []ID
				if i >= bc.width {
					deps = []ID{ID(i - bc.width)}
				}
				if _, err := g.Add(Task{Resource: i % bc.resources, Preprocess: nop, Build: nop, Execute: nop, Postprocess: nop}, deps...); err != nil {
					b.Fatal(err)
				}
			}
			o := Options{Workers: bc.workers, Resources: bc.resources}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := g.Run(ctx, o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/instance")
		})
	}
}
