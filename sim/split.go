package sim

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/neurogo/neurogo/internal/vec"
)

// Intra-step parallelism: a large merged operator (a dot-product group,
// a fused ensemble group, a big neuron group) is cut into two halves by
// rows, ensembles or neurons; the second half is offered to a worker of a
// process-wide pool while the caller runs the first. Rows, ensembles and
// neurons are independent, so the result is the same as in one piece.
// Used only for simulators with one lane (batched lanes already use the
// cores, see Parallel).
//
// A futex wake-up costs several µs on these machines, more than most
// operators take, so the worker spins on an atomic slot between jobs
// (yielding its thread now and then) and parks only after spinFor
// without work: while a simulation runs, hand-over
// and join cost a few hundred ns, two cache-line transfers. The caller
// never blocks on a busy worker: if the slot is taken (another simulator
// is using the worker) or the worker has not picked the half up by the
// time the first half is done, the caller runs it itself, so a split
// never waits for a worker that is busy elsewhere.

var (
	splitMACs    = 1 << 13 // dot-product groups with at least this many multiply-adds
	splitNeurons = 1 << 12 // neuron and fused-ensemble groups with at least this many neurons
)

// spinFor is how long an idle worker polls before it parks.
const spinFor = 2 * time.Millisecond

var pool struct {
	started atomic.Bool
	offer   atomic.Pointer[splitter]
	parked  atomic.Int32 // workers asleep on wake
	wake    chan struct{}
}

func startPool() {
	if pool.started.Swap(true) {
		return
	}
	n := runtime.GOMAXPROCS(0) - 1
	pool.wake = make(chan struct{}, max(n, 1))
	for range n {
		go worker()
	}
}

// splitter states
const (
	spIdle    = 0
	spOffered = 1
	spTaken   = 2
	spDone    = 3
)

// splitter runs first() here and second() on a pool worker (or here, if
// no worker takes it in time), and returns when both are done. It
// allocates nothing per call.
type splitter struct {
	state  atomic.Int32
	first  func()
	second func()
}

func newSplitter(first, second func()) *splitter {
	startPool()
	return &splitter{first: first, second: second}
}

func (sp *splitter) run() {
	sp.state.Store(spOffered)
	if !pool.offer.CompareAndSwap(nil, sp) {
		// the worker's slot is busy (another simulator): run both here
		sp.state.Store(spIdle)
		sp.first()
		sp.second()
		return
	}
	if pool.parked.Load() > 0 {
		select {
		case pool.wake <- struct{}{}:
		default:
		}
	}
	sp.first()
	if sp.state.CompareAndSwap(spOffered, spTaken) {
		// not picked up: withdraw the offer and run the half here
		pool.offer.CompareAndSwap(sp, nil)
		sp.second()
		sp.state.Store(spIdle)
		return
	}
	for i := 0; sp.state.Load() != spDone; i++ {
		if i&1023 == 1023 {
			runtime.Gosched()
		}
	}
	sp.state.Store(spIdle)
}

// worker takes offered halves; it spins between jobs and parks after
// spinFor without one.
func worker() {
	idle := 0
	last := time.Now()
	for {
		if sp := pool.offer.Load(); sp != nil {
			if sp.state.CompareAndSwap(spOffered, spTaken) {
				pool.offer.CompareAndSwap(sp, nil)
				vec.ClearUpper() // see stepLane
				sp.second()
				sp.state.Store(spDone)
			} else {
				pool.offer.CompareAndSwap(sp, nil)
			}
			idle = 0
			continue
		}
		idle++
		if idle&255 != 0 {
			continue
		}
		runtime.Gosched()
		now := time.Now()
		if idle == 256 {
			last = now // the first check after a job
		}
		if now.Sub(last) < spinFor {
			continue
		}
		pool.parked.Add(1)
		if pool.offer.Load() == nil {
			<-pool.wake
		}
		pool.parked.Add(-1)
		idle = 0
	}
}

// canSplit reports whether a simulator may cut operators across cores.
func (s *Simulator) canSplit() bool {
	return s.splitOK && runtime.GOMAXPROCS(0) > 1
}

// splitBlocks cuts a dot-product block list into two lists of about
// equal multiply-adds, cutting a block between rows where needed.
func splitBlocks(bs []block) (a, b []block) {
	total := 0
	for _, bl := range bs {
		total += bl.nx * bl.ny
	}
	half, acc := total/2, 0
	for i, bl := range bs {
		w := bl.nx * bl.ny
		if acc+w <= half {
			a = append(a, bl)
			acc += w
			continue
		}
		r := (half - acc) / max(bl.nx, 1) // rows that still fit
		if r > 0 {
			lo := bl
			lo.ny = r
			a = append(a, lo)
		}
		hi := bl
		hi.a += r * bl.nx
		hi.y += r
		hi.ny -= r
		if hi.b >= 0 {
			hi.b += r
		}
		b = append(b, hi)
		b = append(b, bs[i+1:]...)
		return a, b
	}
	return a, b
}
