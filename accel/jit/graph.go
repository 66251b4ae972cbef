package jit

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/neurogo/neurogo/interrupt"
)

// Stage is one of the four tasks of an execution instance, in the order
// they run (the hxtorch paper, §3.2).
type Stage int

// The stages of an execution instance.
const (
	Preprocess  Stage = iota // host: quantise, reshape, im2col
	Build                    // host: build the instruction stream
	Execute                  // hardware: run on the instance's resource
	Postprocess              // host: decode the received results
)

const numStages = 4

var stageNames = [numStages]string{"preprocess", "build", "execute", "postprocess"}

// String returns "preprocess", "build", "execute" or "postprocess".
func (s Stage) String() string {
	if s < 0 || s >= numStages {
		return fmt.Sprintf("Stage(%d)", int(s))
	}
	return stageNames[s]
}

// Task is the work of one execution instance. Any nil func is skipped: its
// stage takes no time and appears in no trace. An instance without Execute
// never waits for its resource.
type Task struct {
	Name     string // shown in errors and traces; empty: "instance N"
	Resource int    // hardware unit (chip) whose single queue runs Execute: 0..Resources-1

	Preprocess, Build, Execute, Postprocess func() error
}

func (t *Task) stage(s Stage) func() error {
	switch s {
	case Preprocess:
		return t.Preprocess
	case Build:
		return t.Build
	case Execute:
		return t.Execute
	default:
		return t.Postprocess
	}
}

// maxInstances keeps id<<1|1 within an int32 host-queue key.
const maxInstances = 1 << 30

// ID names an instance of a Graph: the n-th Add returns ID n-1.
type ID int

type node struct {
	task Task
	deps []ID
}

// Graph is a dependency graph of execution instances, built by Add in
// static-single-assignment style: an instance can depend only on
// instances that already exist, so the graph is acyclic. A Graph is safe
// for concurrent use; a Run works on the instances added before it began.
type Graph struct {
	mu    sync.Mutex
	nodes []node // never modified after append
}

// NewGraph returns an empty graph.
func NewGraph() *Graph { return &Graph{} }

// Add appends an instance running t after all of deps have finished and
// returns its ID. Every dependency must be an ID returned by an earlier
// Add on this graph; repeated dependencies count once. Task.Resource must
// not be negative.
func (g *Graph) Add(t Task, deps ...ID) (ID, error) {
	if g == nil {
		return -1, errors.New("jit: Add: graph is nil (use NewGraph)")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	n := len(g.nodes)
	if n >= maxInstances {
		return -1, fmt.Errorf("jit: Add: instance %d %q: the graph is full (%d instances)", n, t.Name, maxInstances)
	}
	if t.Resource < 0 {
		return -1, fmt.Errorf("jit: Add: instance %d %q: Resource = %d: must be non-negative", n, t.Name, t.Resource)
	}
	var ds []ID
	for i, d := range deps {
		if d < 0 || int(d) >= n {
			return -1, fmt.Errorf("jit: Add: instance %d %q: deps[%d] = %d: no such instance (the graph has IDs 0..%d)", n, t.Name, i, d, n-1)
		}
		dup := false
		for _, e := range ds {
			if e == d {
				dup = true
				break
			}
		}
		if !dup {
			ds = append(ds, d)
		}
	}
	if t.Name == "" {
		t.Name = fmt.Sprintf("instance %d", n)
	}
	g.nodes = append(g.nodes, node{task: t, deps: ds})
	return ID(n), nil
}

// Len returns the number of instances.
func (g *Graph) Len() int {
	if g == nil {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.nodes)
}

// Options configure Run.
type Options struct {
	Workers   int  // host goroutines for Preprocess, Build and Postprocess (0: GOMAXPROCS)
	Resources int  // hardware units; each runs Execute of its instances one at a time (0: 1 + the largest Task.Resource)
	Trace     bool // record a Span per stage
}

// Run executes every instance once, just in time (see the package
// documentation for the rules). It returns the trace of the run (Wall is
// always set, Spans only with o.Trace) or, after the first failure, a nil
// trace and an error naming the instance and the stage. A nil ctx means
// context.Background().
func (g *Graph) Run(ctx context.Context, o Options) (*Trace, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if g == nil {
		return nil, errors.New("jit: Run: graph is nil (use NewGraph)")
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("jit: Run: Options.Workers = %d: must be non-negative (0: GOMAXPROCS)", o.Workers)
	}
	if o.Resources < 0 {
		return nil, fmt.Errorf("jit: Run: Options.Resources = %d: must be non-negative (0: 1 + largest Task.Resource)", o.Resources)
	}
	g.mu.Lock()
	nodes := g.nodes[:len(g.nodes):len(g.nodes)]
	g.mu.Unlock()
	n := len(nodes)

	// One queue (and goroutine) per resource in use, numbered in order of
	// first use: unused resources and large Resource numbers cost nothing.
	queue := make([]int32, n)
	used := map[int]int32{}
	for i := range nodes {
		r := nodes[i].task.Resource
		if o.Resources > 0 && r >= o.Resources {
			return nil, fmt.Errorf("jit: Run: instance %q: Resource = %d: must be < Options.Resources (%d)", nodes[i].task.Name, r, o.Resources)
		}
		q, ok := used[r]
		if !ok {
			q = int32(len(used))
			used[r] = q
		}
		queue[i] = q
	}
	res := max(1, len(used))
	workers := o.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))

	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("jit: Run: stopped before 0 of %d instances: %w", n, err)
	}
	if interrupt.Requested() {
		return nil, fmt.Errorf("jit: Run: interrupted before 0 of %d instances: %w", n, interrupt.ErrInterrupted)
	}
	start := time.Now()
	if n == 0 {
		return &Trace{Wall: time.Since(start)}, nil
	}

	r := newRun(ctx, nodes, queue, res, o.Trace, start)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.host(w)
		}()
	}
	for q := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.hardware(q)
		}()
	}
	// The watcher stops the run on cancellation; it exits when the run
	// ends, before Run returns.
	over := make(chan struct{})
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		select {
		case <-ctx.Done():
			r.mu.Lock()
			r.cancelled()
			r.mu.Unlock()
		case <-over:
		}
	}()
	wg.Wait()
	close(over)
	watch.Wait()
	wall := time.Since(start)

	if r.err != nil {
		return nil, r.err
	}
	t := &Trace{Spans: r.spans, Wall: wall}
	sort.SliceStable(t.Spans, func(i, j int) bool {
		a, b := &t.Spans[i], &t.Spans[j]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.Instance != b.Instance {
			return a.Instance < b.Instance
		}
		return a.Stage < b.Stage
	})
	return t, nil
}

// run is the state of one Run. Everything below mu is guarded by it.
type run struct {
	ctx       context.Context
	nodes     []node
	queue     []int32 // index into hwQ of each instance's resource
	depOff    []int32 // dependents of i: depList[depOff[i]:depOff[i+1]]
	depList   []int32
	trace     bool
	start     time.Time
	mu        sync.Mutex
	hostCond  sync.Cond
	hwCond    []sync.Cond
	remaining []int32   // unfinished dependencies per instance
	hostQ     []int32   // min-heap of host jobs: id<<1 (preprocess+build) or id<<1|1 (postprocess)
	hwQ       [][]int32 // per resource in use, min-heap of instance IDs ready to execute
	done      int
	stopped   bool // first error or cancellation: no new work
	finished  bool // every instance done
	err       error
	spans     []Span
}

func newRun(ctx context.Context, nodes []node, queue []int32, res int, trace bool, start time.Time) *run {
	n := len(nodes)
	r := &run{ctx: ctx, nodes: nodes, queue: queue, trace: trace, start: start}
	r.hostCond.L = &r.mu
	r.hwCond = make([]sync.Cond, res)
	for i := range r.hwCond {
		r.hwCond[i].L = &r.mu
	}
	r.hwQ = make([][]int32, res)
	r.remaining = make([]int32, n)
	r.depOff = make([]int32, n+1)
	for i := range nodes {
		r.remaining[i] = int32(len(nodes[i].deps))
		for _, d := range nodes[i].deps {
			r.depOff[d+1]++
		}
	}
	for i := range n {
		r.depOff[i+1] += r.depOff[i]
	}
	r.depList = make([]int32, r.depOff[n])
	fill := append([]int32(nil), r.depOff[:n]...)
	for i := range nodes {
		for _, d := range nodes[i].deps {
			r.depList[fill[d]] = int32(i)
			fill[d]++
		}
	}
	for i := range n {
		if r.remaining[i] == 0 {
			r.hostQ = push(r.hostQ, int32(i)<<1)
		}
	}
	if trace {
		r.spans = make([]Span, 0, 4*n)
	}
	return r
}

// fail records the first error and stops scheduling. Called with mu held.
func (r *run) fail(err error) {
	if r.finished {
		return
	}
	if r.err == nil {
		r.err = err
	}
	if !r.stopped {
		r.stopped = true
		r.wakeAll()
	}
}

// cancelled stops the run if its context is done or the process's
// interrupt flag (package interrupt) is set, and reports whether it is
// stopped. Host workers and resources call it before taking new work, so
// no work starts after cancel returns or after the flag is seen; the
// watcher goroutine calls it to wake idle ones. Called with mu held.
func (r *run) cancelled() bool {
	if !r.stopped && !r.finished {
		if err := r.ctx.Err(); err != nil {
			r.fail(fmt.Errorf("jit: Run: stopped after %d of %d instances: %w", r.done, len(r.nodes), err))
		} else if interrupt.Requested() {
			r.fail(fmt.Errorf("jit: Run: interrupted after %d of %d instances: %w", r.done, len(r.nodes), interrupt.ErrInterrupted))
		}
	}
	return r.stopped
}

func (r *run) wakeAll() {
	r.hostCond.Broadcast()
	for i := range r.hwCond {
		r.hwCond[i].Broadcast()
	}
}

// stage runs one stage of instance id, recovering a panic, and appends its
// span to sp when tracing.
func (r *run) stage(id int32, s Stage, lane int, in []Span) (sp []Span, err error) {
	sp = in
	t := &r.nodes[id].task
	f := t.stage(s)
	if f == nil {
		return sp, nil
	}
	var t0 time.Duration
	if r.trace {
		t0 = time.Since(r.start)
		defer func() {
			sp = append(sp, Span{Instance: ID(id), Name: t.Name, Stage: s, Resource: t.Resource, Worker: lane, Start: t0, End: time.Since(r.start)})
		}()
	}
	defer func() {
		if v := recover(); v != nil {
			if e, ok := v.(error); ok {
				err = fmt.Errorf("jit: instance %q: %s: panic: %w", t.Name, s, e)
			} else {
				err = fmt.Errorf("jit: instance %q: %s: panic: %v", t.Name, s, v)
			}
		}
	}()
	if e := f(); e != nil {
		return sp, fmt.Errorf("jit: instance %q: %s: %w", t.Name, s, e)
	}
	return sp, nil
}

// host is the loop of host worker w: it runs Preprocess and Build of ready
// instances, hands them to their resource, and runs Postprocess of
// executed ones.
func (r *run) host(w int) {
	var buf [3]Span
	for {
		r.mu.Lock()
		for len(r.hostQ) == 0 && !r.stopped && !r.finished {
			r.hostCond.Wait()
		}
		if r.cancelled() || r.finished {
			r.mu.Unlock()
			return
		}
		var job int32
		r.hostQ, job = pop(r.hostQ)
		r.mu.Unlock()

		id := job >> 1
		t := &r.nodes[id].task
		sp := buf[:0]
		var err error
		post := job&1 == 1
		if !post {
			sp, err = r.stage(id, Preprocess, w, sp)
			if err == nil {
				sp, err = r.stage(id, Build, w, sp)
			}
			if err == nil && t.Execute == nil {
				post = true
			}
		}
		if post && err == nil {
			sp, err = r.stage(id, Postprocess, w, sp)
		}

		r.mu.Lock()
		r.spans = append(r.spans, sp...)
		switch {
		case err != nil:
			r.fail(err)
		case !post:
			q := r.queue[id]
			r.hwQ[q] = push(r.hwQ[q], id)
			r.hwCond[q].Signal()
		default:
			r.complete(id)
		}
		r.mu.Unlock()
	}
}

// complete marks instance id done and readies its dependents. Called with
// mu held.
func (r *run) complete(id int32) {
	r.done++
	for _, d := range r.depList[r.depOff[id]:r.depOff[id+1]] {
		r.remaining[d]--
		if r.remaining[d] == 0 && !r.stopped {
			r.hostQ = push(r.hostQ, d<<1)
			r.hostCond.Signal()
		}
	}
	if r.done == len(r.nodes) {
		r.finished = true
		r.wakeAll()
	}
}

// hardware is the single queue hwQ[q] of one resource: it runs Execute of its
// instances one at a time, lowest ID first among the ready ones.
func (r *run) hardware(q int) {
	var buf [1]Span
	for {
		r.mu.Lock()
		for len(r.hwQ[q]) == 0 && !r.stopped && !r.finished {
			r.hwCond[q].Wait()
		}
		if r.cancelled() || r.finished {
			r.mu.Unlock()
			return
		}
		var id int32
		r.hwQ[q], id = pop(r.hwQ[q])
		r.mu.Unlock()

		sp, err := r.stage(id, Execute, -1, buf[:0])

		r.mu.Lock()
		r.spans = append(r.spans, sp...)
		if err != nil {
			r.fail(err)
		} else {
			r.hostQ = push(r.hostQ, id<<1|1)
			r.hostCond.Signal()
		}
		r.mu.Unlock()
	}
}

// push and pop keep h a binary min-heap.
func push(h []int32, v int32) []int32 {
	h = append(h, v)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p] <= h[i] {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
	return h
}

func pop(h []int32) ([]int32, int32) {
	v := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r] < h[l] {
			m = r
		}
		if h[i] <= h[m] {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return h, v
}
