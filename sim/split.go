package sim

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/neurogo/neurogo/internal/vec"
)

// Intra-step parallelism: a large merged operator (a dot-product group,
// a fused ensemble group, a big neuron group) is cut into chunks by rows,
// ensembles or neurons, which the caller and a worker of a process-wide
// pool claim from opposite ends (the caller from the front, the worker
// from the back) until they meet. Rows, ensembles and neurons are
// independent, so the result is the same as in one piece. Used only for
// simulators with one lane (batched lanes already use the cores, see
// Parallel).
//
// A futex wake-up costs several µs on these machines, more than most
// operators take, so the worker spins on an atomic slot between jobs
// (yielding its thread now and then) and parks only after spinFor
// without work: while a simulation runs, hand-over and join cost a few
// hundred ns. Claiming from the ends keeps each core on the same rows
// step after step (its caches keep them), and the caller never waits for
// more than the chunk the worker is running: if the worker is busy
// elsewhere or its thread is descheduled (another process on the core),
// the caller claims the rest itself.

var (
	splitMACs    = 1 << 13 // dot-product groups with at least this many multiply-adds
	splitNeurons = 1 << 12 // neuron and fused-ensemble groups with at least this many neurons
)

// maxChunks bounds the chunks an operator is cut into.
const maxChunks = 8

// chunkCount is the number of chunks for work units of work, at least
// two, at most maxChunks, each about unit or more.
func chunkCount(work, unit int) int {
	return max(2, min(maxChunks, work/max(unit, 1)))
}

// spinFor is how long an idle worker polls before it parks.
const spinFor = 2 * time.Millisecond

var pool struct {
	started atomic.Bool
	offer   atomic.Pointer[splitter]
	// seq counts the offers: a worker parks only while no offer newer
	// than the last one it looked at has come (the last offer stays
	// published after its run, finished)
	seq    atomic.Uint64
	parked atomic.Int32 // workers asleep on wake
	wake   chan struct{}
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

// splitter runs its chunks here and on a pool worker and returns when
// all are done. It allocates nothing per call.
type splitter struct {
	chunks []func()
	// span holds the unclaimed chunks [lo, hi) as lo<<32 | hi; done
	// counts the worker's finished chunks (same cache line: the worker
	// holds it when it writes done)
	span atomic.Uint64
	done atomic.Int32
}

func newSplitter(chunks ...func()) *splitter {
	startPool()
	return &splitter{chunks: chunks}
}

// claim takes the next chunk from the front (or, with back, the back) and
// returns its index, or -1 when none is left.
func (sp *splitter) claim(back bool) int {
	for {
		w := sp.span.Load()
		lo, hi := w>>32, w&0xffffffff
		if lo >= hi {
			return -1
		}
		nw, i := (lo+1)<<32|hi, lo
		if back {
			nw, i = lo<<32|(hi-1), hi-1
		}
		if sp.span.CompareAndSwap(w, nw) {
			return int(i)
		}
	}
}

func (sp *splitter) run() {
	n := len(sp.chunks)
	// chunk 0 is the caller's before the offer goes out, and the caller
	// counts its own chunks: the shared words see as few cache-line
	// transfers between the cores as possible (each costs ~100 ns here)
	sp.done.Store(0)
	sp.span.Store(1<<32 | uint64(n))
	pool.offer.Store(sp) // a previous offer is finished or another simulator's: it is left to its caller
	pool.seq.Add(1)
	if pool.parked.Load() > 0 {
		select {
		case pool.wake <- struct{}{}:
		default:
		}
	}
	mine := 1
	sp.chunks[0]()
	for i := sp.claim(false); i >= 0; i = sp.claim(false) {
		sp.chunks[i]()
		mine++
	}
	for i := 0; int(sp.done.Load())+mine != n; i++ {
		if i&1023 == 1023 {
			runtime.Gosched()
		}
	}
}

// worker claims chunks of offered operators from the back; it spins
// between offers and parks after spinFor without a new one.
func worker() {
	idle := 0
	last := time.Now()
	var seen uint64
	for {
		// each new offer restarts the spin, whether or not the worker
		// gets a chunk of it (the caller may take them all): it parks
		// only spinFor after offers stop
		if q := pool.seq.Load(); q != seen {
			seen, idle = q, 0
		}
		if sp := pool.offer.Load(); sp != nil {
			worked := false
			for i := sp.claim(true); i >= 0; i = sp.claim(true) {
				if !worked {
					vec.ClearUpper() // see stepLane
					worked = true
				}
				sp.chunks[i]()
				sp.done.Add(1)
			}
			if worked {
				idle = 0
				continue
			}
		}
		idle++
		if idle&4095 != 0 {
			continue
		}
		runtime.Gosched()
		now := time.Now()
		if idle == 4096 {
			last = now // the first check after a job
		}
		if now.Sub(last) < spinFor {
			continue
		}
		// parked before the check: an offer made after it sees parked > 0
		// and sends a wake-up (buffered), one made before changes seq
		pool.parked.Add(1)
		if pool.seq.Load() == seen {
			<-pool.wake
		}
		pool.parked.Add(-1)
		idle = 0
	}
}

// lockBytes is the weight (and state) volume of one lockstep chunk: about
// two thirds of a 48 KiB L1 data cache, so a chunk read by the first lane
// is still there for the others.
var lockBytes = 32 << 10

// lockChunks returns the number of chunks an operator touching bytes of
// weights and state is cut into for lockstep batches (1: not cut, and
// always 1 with one lane).
func (s *Simulator) lockChunks(bytes int) int {
	if s.batch < 2 {
		return 1
	}
	return max(1, min(64, bytes/lockBytes))
}

// weights returns the store an operator of lane ln reads the signals ids
// (its weights) from: lane 0's when all of them are read-only (they never
// change after Reset, so every lane holds the same values), making the
// lanes of a batch share one copy of the weights in the caches; else the
// lane's own.
func (s *Simulator) weights(ln *lane, ids ...int) []float64 {
	if len(s.lanes) == 0 {
		return ln.data
	}
	for _, id := range ids {
		if id < 0 || !s.model.sigs[id].readonly {
			return ln.data
		}
	}
	return s.lanes[0].data
}

// canSplit reports whether a simulator may cut operators across cores.
func (s *Simulator) canSplit() bool {
	return s.splitOK && runtime.GOMAXPROCS(0) > 1
}

// splitBlocks cuts a dot-product block list into k lists of about equal
// multiply-adds, cutting a block between rows where needed.
func splitBlocks(bs []block, k int) [][]block {
	total := 0
	for _, bl := range bs {
		total += bl.nx * bl.ny
	}
	parts := make([][]block, k)
	acc, p := 0, 0
	for _, bl := range bs {
		for bl.ny > 0 {
			if p == k-1 {
				parts[p] = append(parts[p], bl)
				break
			}
			limit := total * (p + 1) / k // cumulative multiply-adds where part p ends
			w := bl.nx * bl.ny
			if acc+w <= limit {
				parts[p] = append(parts[p], bl)
				acc += w
				if acc == limit {
					p++
				}
				break
			}
			r := (limit - acc) / max(bl.nx, 1) // rows that still fit
			if r > 0 {
				lo := bl
				lo.ny = r
				parts[p] = append(parts[p], lo)
				acc += r * bl.nx
				bl.a += r * bl.nx
				bl.y += r
				bl.ny -= r
				if bl.b >= 0 {
					bl.b += r
				}
			}
			p++
		}
	}
	return parts
}

// ranges cuts [0, n) into k ranges of about equal length.
func ranges(n, k int) [][2]int {
	rs := make([][2]int, 0, k)
	for i := range k {
		lo, hi := n*i/k, n*(i+1)/k
		if hi > lo {
			rs = append(rs, [2]int{lo, hi})
		}
	}
	return rs
}
