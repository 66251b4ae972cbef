package layers

import "runtime"

// workers splits loops over examples between the calling goroutine and
// GOMAXPROCS-1 persistent goroutines owned by one Exec, so that the
// memory-bound im2col and col2im passes use every core without allocating
// per call (a go statement would allocate its closure). The goroutines end
// when the Exec becomes unreachable (runtime.AddCleanup closes their channel).
type workers struct {
	n    int // parts per loop, including the caller
	jobs chan job
	done chan struct{}
}

type job struct {
	fn     func(lo, hi int)
	lo, hi int
}

// parallelMin is the number of float64 elements a loop must touch before it
// is split (below it the hand-off costs more than it saves).
const parallelMin = 1 << 16

func newWorkers() *workers {
	w := &workers{n: runtime.GOMAXPROCS(0)}
	if w.n > 1 {
		w.jobs = make(chan job, w.n)
		w.done = make(chan struct{}, w.n)
		for i := 1; i < w.n; i++ {
			go work(w.jobs, w.done)
		}
	}
	return w
}

// stopWith ends w's goroutines once owner (the Exec holding w) is unreachable.
func stopWith[T any](w *workers, owner *T) {
	if w.jobs != nil {
		runtime.AddCleanup(owner, func(c chan job) { close(c) }, w.jobs)
	}
}

func work(jobs <-chan job, done chan<- struct{}) {
	for j := range jobs {
		j.fn(j.lo, j.hi)
		done <- struct{}{}
	}
}

// run calls fn on contiguous parts of [0, n); elems is the work size used to
// decide whether to split at all.
func (w *workers) run(n, elems int, fn func(lo, hi int)) {
	parts := min(w.n, n)
	if parts <= 1 || elems < parallelMin {
		fn(0, n)
		return
	}
	for p := 1; p < parts; p++ {
		w.jobs <- job{fn, p * n / parts, (p + 1) * n / parts}
	}
	fn(0, n/parts)
	for p := 1; p < parts; p++ {
		<-w.done
	}
}
