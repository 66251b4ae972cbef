package sim

import (
	"runtime"
	"sync"
)

// Intra-step parallelism: a large merged operator (a dot-product group
// with many multiply-adds, a big neuron group) is cut into two halves by
// rows or by neurons; the second half runs on a worker of a process-wide
// pool while the caller runs the first. Rows and neurons are independent,
// so the result is the same as in one piece. Used only for simulators
// with one lane (batched lanes already use the cores, see Parallel).
// Handing work to a parked worker costs several µs on these machines (a
// futex wake-up), so only operators far larger than that are cut: measured
// with 2¹⁶ multiply-adds and 2¹⁴ neurons, cconv and basal_ganglia at D=192
// ran 30–45 % slower split, while pes (1.9 M weights) ran 1.5× faster.

var (
	splitMACs    = 1 << 19 // dot-product groups with at least this many multiply-adds
	splitNeurons = 1 << 17 // neuron groups with at least this many neurons
)

var pool struct {
	once sync.Once
	jobs chan func()
}

func startPool() {
	pool.jobs = make(chan func())
	for range runtime.GOMAXPROCS(0) - 1 {
		go func() {
			for f := range pool.jobs {
				f()
			}
		}()
	}
}

// splitter runs first() here and second() on a pool worker, and returns
// when both are done. It allocates nothing per call.
type splitter struct {
	wg     sync.WaitGroup
	job    func()
	first  func()
	second func()
}

func newSplitter(first, second func()) *splitter {
	pool.once.Do(startPool)
	sp := &splitter{first: first, second: second}
	sp.job = func() {
		sp.second()
		sp.wg.Done()
	}
	return sp
}

func (sp *splitter) run() {
	sp.wg.Add(1)
	pool.jobs <- sp.job
	sp.first()
	sp.wg.Wait()
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
