package jit

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hangTimeout bounds every wait in these tests that must succeed, so a
// scheduling bug fails the test instead of hanging it. It is generous
// because test machines are often shared and noisy.
const hangTimeout = 10 * time.Second

// absentWait is how long a test waits for an event that must NOT happen
// (a dependent starting early). Too short can only let a bug slip
// through, never fail a correct scheduler.
const absentWait = 100 * time.Millisecond

func nop() error { return nil }

// spin yields a few times so that concurrent stages interleave.
func spin(k int) {
	for range k {
		runtime.Gosched()
	}
}

func TestStageString(t *testing.T) {
	for _, tc := range []struct {
		s    Stage
		want string
	}{
		{Preprocess, "preprocess"}, {Build, "build"}, {Execute, "execute"},
		{Postprocess, "postprocess"}, {Stage(7), "Stage(7)"}, {Stage(-1), "Stage(-1)"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("Stage(%d).String() = %q, want %q", int(tc.s), got, tc.want)
		}
	}
}

func TestAdd(t *testing.T) {
	g := NewGraph()
	a, err := g.Add(Task{Name: "a"})
	if err != nil || a != 0 {
		t.Fatalf("Add(a) = %d, %v; want 0, nil", a, err)
	}
	b, err := g.Add(Task{}, a, a) // duplicate dependency counts once
	if err != nil || b != 1 {
		t.Fatalf("Add(b) = %d, %v; want 1, nil", b, err)
	}
	if got := g.nodes[b].task.Name; got != "instance 1" {
		t.Errorf("unnamed instance is called %q, want %q", got, "instance 1")
	}
	if got := len(g.nodes[b].deps); got != 1 {
		t.Errorf("len(deps) of b = %d, want 1 (duplicates merged)", got)
	}
	for _, tc := range []struct {
		name string
		task Task
		deps []ID
		want string
	}{
		{"unknown dep", Task{Name: "c"}, []ID{0, 5}, `jit: Add: instance 2 "c": deps[1] = 5: no such instance (the graph has IDs 0..1)`},
		{"self dep", Task{Name: "c"}, []ID{2}, `deps[0] = 2: no such instance`},
		{"negative dep", Task{Name: "c"}, []ID{-1}, `deps[0] = -1: no such instance`},
		{"negative resource", Task{Name: "c", Resource: -2}, nil, `jit: Add: instance 2 "c": Resource = -2: must be non-negative`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := g.Add(tc.task, tc.deps...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Add = %d, %v; want error containing %q", id, err, tc.want)
			}
			if id != -1 {
				t.Errorf("Add returned ID %d with an error, want -1", id)
			}
			if g.Len() != 2 {
				t.Errorf("Len = %d after a failed Add, want 2", g.Len())
			}
		})
	}
}

func TestRunOptionErrors(t *testing.T) {
	g := NewGraph()
	if _, err := g.Add(Task{Name: "mm", Resource: 2, Execute: nop}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Workers: -1}, "jit: Run: Options.Workers = -1: must be non-negative"},
		{Options{Resources: -3}, "jit: Run: Options.Resources = -3: must be non-negative"},
		{Options{Resources: 2}, `jit: Run: instance "mm": Resource = 2: must be < Options.Resources (2)`},
	} {
		tr, err := g.Run(context.Background(), tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) || tr != nil {
			t.Errorf("Run(%+v) = %v, %v; want nil, error containing %q", tc.o, tr, err, tc.want)
		}
	}
	// Resources 0 means 1 + the largest Resource used: 3 here.
	if _, err := g.Run(context.Background(), Options{}); err != nil {
		t.Errorf("Run with default Resources: %v", err)
	}
	// Unused resources cost nothing (no queue or goroutine each).
	if _, err := g.Run(context.Background(), Options{Resources: 1 << 40, Workers: 1 << 40}); err != nil {
		t.Errorf("Run with huge Resources and Workers: %v", err)
	}
	big := NewGraph()
	big.Add(Task{Resource: 1 << 40, Execute: nop})
	big.Add(Task{Resource: 7, Execute: nop}, 0)
	tr, err := big.Run(context.Background(), Options{Trace: true})
	if err != nil {
		t.Fatalf("Run with Resource 1<<40: %v", err)
	}
	var got []int
	for _, sp := range tr.Spans {
		got = append(got, sp.Resource)
	}
	if len(got) != 2 || got[0] != 1<<40 || got[1] != 7 {
		t.Errorf("Execute spans on resources %v, want [1<<40 7]: spans must carry the task's Resource", got)
	}
	var nilGraph *Graph
	if _, err := nilGraph.Add(Task{}); err == nil || !strings.Contains(err.Error(), "jit: Add: graph is nil") {
		t.Errorf("nil Graph Add error = %v", err)
	}
	if _, err := nilGraph.Run(context.Background(), Options{}); err == nil || !strings.Contains(err.Error(), "jit: Run: graph is nil") {
		t.Errorf("nil Graph Run error = %v", err)
	}
	if nilGraph.Len() != 0 {
		t.Errorf("nil Graph Len = %d", nilGraph.Len())
	}
	// A nil context means context.Background(); it must not panic.
	if _, err := g.Run(nil, Options{}); err != nil {
		t.Errorf("Run with a nil context: %v", err)
	}
}

func TestEmptyGraph(t *testing.T) {
	tr, err := NewGraph().Run(context.Background(), Options{Trace: true})
	if err != nil || tr == nil || len(tr.Spans) != 0 {
		t.Fatalf("Run of an empty graph = %v, %v; want an empty trace", tr, err)
	}
}

// stageLog records, with one global atomic sequence, when each stage of
// each instance started and ended, and how often it ran.
type stageLog struct {
	seq        atomic.Int64
	start, end [][numStages]atomic.Int64
	calls      [][numStages]atomic.Int32
}

func newStageLog(n int) *stageLog {
	return &stageLog{
		start: make([][numStages]atomic.Int64, n),
		end:   make([][numStages]atomic.Int64, n),
		calls: make([][numStages]atomic.Int32, n),
	}
}

func (l *stageLog) wrap(i int, s Stage, f func() error) func() error {
	return func() error {
		l.start[i][s].Store(l.seq.Add(1))
		l.calls[i][s].Add(1)
		err := f()
		l.end[i][s].Store(l.seq.Add(1))
		return err
	}
}

// randomDAG builds a graph of n instances; instance i depends on up to 3
// earlier ones. Build and Execute are nil for some instances to check that
// skipped stages keep the order. Every Execute checks that no other
// Execute runs on its resource at the same time.
func randomDAG(t *testing.T, seed uint64, n, resources int, log *stageLog, overlaps *atomic.Int32) (*Graph, [][]ID) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 17))
	inflight := make([]atomic.Int32, resources)
	g := NewGraph()
	deps := make([][]ID, n)
	for i := range n {
		if i > 0 {
			for range rng.IntN(4) {
				deps[i] = append(deps[i], ID(rng.IntN(i)))
			}
		}
		r := rng.IntN(resources)
		k := rng.IntN(4)
		task := Task{
			Name:        fmt.Sprintf("i%d", i),
			Resource:    r,
			Preprocess:  log.wrap(i, Preprocess, func() error { spin(k); return nil }),
			Postprocess: log.wrap(i, Postprocess, func() error { spin(k); return nil }),
		}
		if rng.IntN(5) > 0 {
			task.Build = log.wrap(i, Build, func() error { spin(k); return nil })
		}
		if rng.IntN(6) > 0 {
			task.Execute = log.wrap(i, Execute, func() error {
				if inflight[r].Add(1) != 1 {
					overlaps.Add(1)
				}
				spin(k + 1)
				inflight[r].Add(-1)
				return nil
			})
		}
		id, err := g.Add(task, deps[i]...)
		if err != nil {
			t.Fatal(err)
		}
		if int(id) != i {
			t.Fatalf("Add returned %d, want %d", id, i)
		}
	}
	return g, deps
}

func TestRandomDAGOrder(t *testing.T) {
	const n, resources = 150, 3
	for _, seed := range []uint64{1, 2, 3, 4} {
		for _, workers := range []int{1, 4} {
			t.Run(fmt.Sprintf("seed%d/workers%d", seed, workers), func(t *testing.T) {
				log := newStageLog(n)
				var overlaps atomic.Int32
				g, deps := randomDAG(t, seed, n, resources, log, &overlaps)
				tr, err := g.Run(context.Background(), Options{Workers: workers, Resources: resources, Trace: true})
				if err != nil {
					t.Fatal(err)
				}
				if k := overlaps.Load(); k != 0 {
					t.Errorf("%d Execute calls overlapped another on the same resource", k)
				}
				// From the atomic log.
				for i := range n {
					task := &g.nodes[i].task
					last := int64(0)
					for s := range Stage(numStages) {
						c := log.calls[i][s].Load()
						want := int32(0)
						if task.stage(s) != nil {
							want = 1
						}
						if c != want {
							t.Fatalf("instance %d %s ran %d times, want %d", i, s, c, want)
						}
						if c == 0 {
							continue
						}
						if st := log.start[i][s].Load(); st < last {
							t.Errorf("instance %d: %s started before the previous stage ended", i, s)
						}
						last = log.end[i][s].Load()
					}
					for _, d := range deps[i] {
						if log.start[i][Preprocess].Load() < log.end[d][Postprocess].Load() {
							t.Errorf("instance %d started Preprocess before dependency %d ended Postprocess", i, d)
						}
					}
				}
				checkTrace(t, g, tr, deps)
			})
		}
	}
}

// checkTrace checks the same order from the trace, and that Execute spans
// on one resource do not overlap.
func checkTrace(t *testing.T, g *Graph, tr *Trace, deps [][]ID) {
	t.Helper()
	n := g.Len()
	type se struct {
		ok         bool
		start, end time.Duration
	}
	spans := make([][numStages]se, n)
	count := 0
	for _, sp := range tr.Spans {
		if sp.End < sp.Start || sp.Start < 0 || sp.End > tr.Wall {
			t.Errorf("span %+v lies outside [0, Wall = %v] or ends before it starts", sp, tr.Wall)
		}
		if spans[sp.Instance][sp.Stage].ok {
			t.Errorf("instance %d %s traced twice", sp.Instance, sp.Stage)
		}
		spans[sp.Instance][sp.Stage] = se{true, sp.Start, sp.End}
		if want := g.nodes[sp.Instance].task.Name; sp.Name != want {
			t.Errorf("span name %q, want %q", sp.Name, want)
		}
		if (sp.Stage == Execute) != (sp.Worker == -1) {
			t.Errorf("span %+v: Worker must be -1 exactly for Execute", sp)
		}
		count++
	}
	want := 0
	for i := range n {
		for s := range Stage(numStages) {
			if g.nodes[i].task.stage(s) != nil {
				want++
				if !spans[i][s].ok {
					t.Errorf("instance %d %s missing from the trace", i, s)
				}
			}
		}
	}
	if count != want {
		t.Errorf("trace has %d spans, want %d", count, want)
	}
	for i := range n {
		var last time.Duration
		for s := range Stage(numStages) {
			if x := spans[i][s]; x.ok {
				if x.start < last {
					t.Errorf("trace: instance %d %s starts at %v before the previous stage ended at %v", i, s, x.start, last)
				}
				last = x.end
			}
		}
		for _, d := range deps[i] {
			if spans[i][Preprocess].start < spans[d][Postprocess].end {
				t.Errorf("trace: instance %d preprocess at %v before dependency %d postprocess ended at %v", i, spans[i][Preprocess].start, d, spans[d][Postprocess].end)
			}
		}
	}
	lastEnd := map[int]time.Duration{}
	for _, sp := range tr.Spans { // sorted by start
		if sp.Stage != Execute {
			continue
		}
		if sp.Start < lastEnd[sp.Resource] {
			t.Errorf("trace: Execute of instance %d on resource %d starts at %v before the previous one ended at %v", sp.Instance, sp.Resource, sp.Start, lastEnd[sp.Resource])
		}
		lastEnd[sp.Resource] = sp.End
	}
}

// TestExecuteAcrossResources forces two Executes on different resources to
// be in flight together: each waits until the other has started.
func TestExecuteAcrossResources(t *testing.T) {
	aIn, bIn := make(chan struct{}), make(chan struct{})
	meet := func(mine, other chan struct{}, name string) func() error {
		return func() error {
			close(mine)
			select {
			case <-other:
				return nil
			case <-time.After(hangTimeout):
				return fmt.Errorf("%s: the other resource never executed concurrently", name)
			}
		}
	}
	g := NewGraph()
	g.Add(Task{Name: "a", Resource: 0, Execute: meet(aIn, bIn, "a")})
	g.Add(Task{Name: "b", Resource: 1, Execute: meet(bIn, aIn, "b")})
	tr, err := g.Run(context.Background(), Options{Workers: 1, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Busy(0) <= 0 || tr.Busy(1) <= 0 {
		t.Errorf("Busy = %v, %v; want both positive", tr.Busy(0), tr.Busy(1))
	}
}

// TestExecuteSerialOnOneResource runs many instances on one resource with
// more host workers than needed; Execute must never overlap.
func TestExecuteSerialOnOneResource(t *testing.T) {
	const n = 200
	var inflight, overlaps atomic.Int32
	g := NewGraph()
	for i := range n {
		g.Add(Task{Preprocess: nop, Postprocess: nop, Execute: func() error {
			if inflight.Add(1) != 1 {
				overlaps.Add(1)
			}
			spin(i % 5)
			inflight.Add(-1)
			return nil
		}})
	}
	tr, err := g.Run(context.Background(), Options{Workers: 4, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	if k := overlaps.Load(); k != 0 {
		t.Errorf("%d Execute calls overlapped on one resource", k)
	}
	checkTrace(t, g, tr, make([][]ID, n))
}

// TestHostOverlapsExecute: A's Execute waits (bounded) for B's
// Preprocess, and B's Preprocess waits for A's Execute to have begun.
// With B independent of A both must be in flight together, even with one
// host worker: the trace must show host/Execute overlap. With B depending
// on A, B must not start before A is done; the run must still complete
// (A's wait times out) rather than deadlock.
func TestHostOverlapsExecute(t *testing.T) {
	for _, tc := range []struct {
		name      string
		dependent bool
	}{{"independent", false}, {"dependent", true}} {
		t.Run(tc.name, func(t *testing.T) {
			aExec, bPre := make(chan struct{}), make(chan struct{})
			var sawB, aDone atomic.Bool
			wait := hangTimeout
			if tc.dependent {
				wait = absentWait
			}
			var bStartedAfterA atomic.Bool
			g := NewGraph()
			a, _ := g.Add(Task{Name: "A", Preprocess: nop, Build: nop, Postprocess: func() error { aDone.Store(true); return nil },
				Execute: func() error {
					close(aExec)
					select {
					case <-bPre:
						sawB.Store(true)
					case <-time.After(wait):
					}
					return nil
				}})
			var deps []ID
			if tc.dependent {
				deps = []ID{a}
			}
			g.Add(Task{Name: "B", Postprocess: nop, Execute: nop, Preprocess: func() error {
				bStartedAfterA.Store(aDone.Load())
				close(bPre)
				select {
				case <-aExec:
					return nil
				case <-time.After(hangTimeout):
					return errors.New("A never executed")
				}
			}}, deps...)
			tr, err := g.Run(context.Background(), Options{Workers: 1, Resources: 1, Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			if tc.dependent {
				if sawB.Load() {
					t.Error("B's Preprocess ran during A's Execute although B depends on A")
				}
				if !bStartedAfterA.Load() {
					t.Error("B started before A's Postprocess")
				}
				return
			}
			if !sawB.Load() {
				t.Error("B's Preprocess did not run while A executed")
			}
			if tr.Overlap() <= 0 {
				t.Errorf("Overlap = %v, want > 0 (B's Preprocess overlaps A's Execute)", tr.Overlap())
			}
		})
	}
}

// TestReadyOrder: with one worker and one resource, independent instances
// execute in insertion order.
func TestReadyOrder(t *testing.T) {
	var mu sync.Mutex
	var order []int
	g := NewGraph()
	for i := range 20 {
		g.Add(Task{Preprocess: nop, Build: nop, Postprocess: nop, Execute: func() error {
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			return nil
		}})
	}
	for run := range 3 { // Run may be called again
		order = order[:0]
		if _, err := g.Run(context.Background(), Options{Workers: 1, Resources: 1}); err != nil {
			t.Fatal(err)
		}
		for i, v := range order {
			if v != i {
				t.Fatalf("run %d: Execute order %v, want 0..19", run, order)
			}
		}
		if len(order) != 20 {
			t.Fatalf("run %d: %d Executes, want 20", run, len(order))
		}
	}
}

var errBoom = errors.New("boom")

func TestErrorsNameInstanceAndStage(t *testing.T) {
	for _, stage := range []Stage{Preprocess, Build, Execute, Postprocess} {
		for _, kind := range []string{"error", "panic string", "panic error"} {
			t.Run(stage.String()+"/"+kind, func(t *testing.T) {
				var fail func() error
				var want string
				switch kind {
				case "error":
					fail = func() error { return errBoom }
					want = fmt.Sprintf(`jit: instance "mm[1,0]": %s: boom`, stage)
				case "panic string":
					fail = func() error { panic("index out of range") }
					want = fmt.Sprintf(`jit: instance "mm[1,0]": %s: panic: index out of range`, stage)
				default:
					fail = func() error { panic(errBoom) }
					want = fmt.Sprintf(`jit: instance "mm[1,0]": %s: panic: boom`, stage)
				}
				var dependentRan atomic.Bool
				g := NewGraph()
				g.Add(Task{Name: "mm[0,0]", Preprocess: nop, Execute: nop, Postprocess: nop})
				task := Task{Name: "mm[1,0]", Preprocess: nop, Build: nop, Execute: nop, Postprocess: nop}
				switch stage {
				case Preprocess:
					task.Preprocess = fail
				case Build:
					task.Build = fail
				case Execute:
					task.Execute = fail
				case Postprocess:
					task.Postprocess = fail
				}
				bad, _ := g.Add(task)
				g.Add(Task{Name: "sum", Preprocess: func() error { dependentRan.Store(true); return nil }}, bad)
				tr, err := g.Run(context.Background(), Options{Workers: 2, Trace: true})
				if err == nil || err.Error() != want {
					t.Fatalf("Run error = %v, want %q", err, want)
				}
				if kind != "panic string" && !errors.Is(err, errBoom) {
					t.Errorf("errors.Is(err, errBoom) = false for %v", err)
				}
				if tr != nil {
					t.Errorf("Run returned a trace with an error")
				}
				if dependentRan.Load() {
					t.Error("an instance depending on the failed one started")
				}
			})
		}
	}
}

// TestErrorStopsResourceQueue: after an Execute fails, the instances
// queued behind it on the same resource never execute.
func TestErrorStopsResourceQueue(t *testing.T) {
	var later atomic.Int32
	release := make(chan struct{})
	g := NewGraph()
	g.Add(Task{Name: "first", Execute: func() error {
		select { // wait until every other instance is queued on this resource
		case <-release:
		case <-time.After(hangTimeout):
		}
		return errBoom
	}})
	const n = 10
	var built atomic.Int32
	for range n {
		g.Add(Task{Build: func() error {
			if built.Add(1) == n {
				close(release)
			}
			return nil
		}, Execute: func() error { later.Add(1); return nil }})
	}
	_, err := g.Run(context.Background(), Options{Workers: 2, Resources: 1})
	if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), `instance "first": execute`) {
		t.Fatalf("Run error = %v, want the execute error of \"first\"", err)
	}
	if k := later.Load(); k != 0 {
		t.Errorf("%d queued Executes ran after the failure, want 0", k)
	}
}

func TestCancel(t *testing.T) {
	t.Run("before", func(t *testing.T) {
		var ran atomic.Bool
		g := NewGraph()
		g.Add(Task{Preprocess: func() error { ran.Store(true); return nil }})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := g.Run(ctx, Options{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run error = %v, want context.Canceled", err)
		}
		if ran.Load() {
			t.Error("a task ran under a cancelled context")
		}
	})
	t.Run("during", func(t *testing.T) {
		// Instance 0's Execute cancels and returns nil, as a task that
		// finishes its work would; no later instance of the chain may
		// start, and Run must report the cancellation.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var ran atomic.Int32
		g := NewGraph()
		prev, _ := g.Add(Task{Name: "first", Execute: func() error {
			cancel()
			return nil
		}})
		const n = 50
		for range n {
			prev, _ = g.Add(Task{Preprocess: func() error { ran.Add(1); return nil }, Execute: nop}, prev)
		}
		done := make(chan error, 1)
		go func() {
			_, err := g.Run(ctx, Options{Workers: 2})
			done <- err
		}()
		select {
		case err := <-done:
			want := fmt.Sprintf("jit: Run: stopped after 0 of %d instances: context canceled", n+1)
			if !errors.Is(err, context.Canceled) || err.Error() != want {
				t.Fatalf("Run error = %v, want %q", err, want)
			}
			if k := ran.Load(); k != 0 {
				t.Errorf("%d instances started after the cancellation, want 0", k)
			}
		case <-time.After(hangTimeout):
			t.Fatal("Run did not return after cancellation")
		}
	})
	t.Run("task returns ctx error", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		started := make(chan struct{})
		g := NewGraph()
		g.Add(Task{Name: "long", Execute: func() error {
			close(started)
			<-ctx.Done()
			return ctx.Err()
		}})
		go func() {
			<-started
			cancel()
		}()
		_, err := g.Run(ctx, Options{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run error = %v, want context.Canceled", err)
		}
	})
}

// TestNoGoroutineLeak runs successful, failing, panicking and cancelled
// graphs and checks that the goroutine count returns to its start value.
func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for seed := range uint64(3) {
		var overlaps atomic.Int32
		g, _ := randomDAG(t, seed, 60, 3, newStageLog(60), &overlaps)
		if _, err := g.Run(context.Background(), Options{Workers: 3, Trace: true}); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []func() error{
		func() error { return errBoom },
		func() error { panic("x") },
	} {
		g := NewGraph()
		for i := range 20 {
			task := Task{Preprocess: nop, Execute: nop, Postprocess: nop, Resource: i % 2}
			if i == 7 {
				task.Execute = f
			}
			g.Add(task)
		}
		if _, err := g.Run(context.Background(), Options{Workers: 4}); err == nil {
			t.Fatal("want an error")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	g := NewGraph()
	g.Add(Task{Execute: func() error { cancel(); return nil }, Resource: 3})
	g.Add(Task{Execute: nop}, 0)
	if _, err := g.Run(ctx, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v, want context.Canceled", err)
	}
	// Run waits for its goroutines, but give the runtime a moment to
	// retire exited ones before counting.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(2 * time.Second); after > before && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		after = runtime.NumGoroutine()
	}
	if after > before {
		buf := make([]byte, 1<<16)
		t.Errorf("goroutines: %d before, %d after\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}
