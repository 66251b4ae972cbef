// Command libneurogo is the C library of nengo_neurogo, the Nengo backend
// (python/nengo_neurogo): built with
//
//	go build -buildmode=c-shared -o libneurogo.so ./cmd/libneurogo
//
// it exports package nengobridge to ctypes. Every function returns its
// error as a C string the caller frees with ng_free; none lets a Go panic
// reach the caller. A simulator's store is C memory (calloc), so the
// caller may read and write it through the pointers ng_signal gives, and
// ng_close frees it.
package main

/*
#include <stdlib.h>
#include <string.h>
typedef int (*ng_callback)(long long handle, long long step, double t);
static int ng_call(ng_callback f, long long handle, long long step, double t) {
	return f(handle, step, t);
}
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"unsafe"

	"github.com/neurogo/neurogo/internal/nengobridge"
)

type entry struct {
	b     *nengobridge.Bridge
	mem   []unsafe.Pointer
	bytes int64
}

var (
	mu      sync.Mutex
	next    C.longlong = 1
	entries            = map[C.longlong]*entry{}
)

func get(h C.longlong) (*entry, error) {
	mu.Lock()
	defer mu.Unlock()
	e, ok := entries[h]
	if !ok {
		return nil, fmt.Errorf("libneurogo: no simulator %d (closed?)", h)
	}
	return e, nil
}

// failed runs f, stores its error, or a panic in it as an error, in
// *errOut as a C string (which the caller frees) and returns 1 if there
// was one, else 0.
func failed(errOut **C.char, f func() error) C.int {
	var err error
	func() {
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("libneurogo: internal error: %v\n%s", v, debug.Stack())
			}
		}()
		err = f()
	}()
	if err == nil {
		return 0
	}
	if errOut != nil {
		*errOut = C.CString(err.Error())
	}
	return 1
}

func spec(data *C.char, n C.longlong) (*nengobridge.Spec, error) {
	return nengobridge.ParseSpec(C.GoBytes(unsafe.Pointer(data), C.int(n)))
}

// ng_check writes to *out the JSON list of the operators of the model
// description that have no Go translation ([{"op": k, "reason": …}]);
// on a bad description it returns 1 and *out is the error.
//
//export ng_check
func ng_check(data *C.char, n C.longlong, out **C.char) C.int {
	return failed(out, func() error {
		s, err := spec(data, n)
		if err != nil {
			return err
		}
		u, err := nengobridge.Check(s)
		if err != nil {
			return err
		}
		if u == nil {
			u = []nengobridge.Unsupported{}
		}
		js, err := json.Marshal(u)
		if err != nil {
			return err
		}
		*out = C.CString(string(js))
		return nil
	})
}

// ng_new builds a simulator and returns its handle (> 0), or 0 with the
// error in *errOut. init holds ninit initial values; cb runs the
// callback operators.
//
//export ng_new
func ng_new(data *C.char, n C.longlong, init *C.double, ninit C.longlong, cb C.ng_callback, errOut **C.char) (h C.longlong) {
	if failed(errOut, func() error {
		s, err := spec(data, n)
		if err != nil {
			return err
		}
		var iv []float64
		if ninit > 0 {
			iv = unsafe.Slice((*float64)(unsafe.Pointer(init)), int(ninit))
		}
		e := &entry{}
		call := func(handle, step int, t float64) error {
			if cb == nil {
				return fmt.Errorf("libneurogo: no callback function for operator %d", handle)
			}
			if rc := C.ng_call(cb, C.longlong(handle), C.longlong(step), C.double(t)); rc != 0 {
				return fmt.Errorf("the Python operator %d failed (code %d)", handle, int(rc))
			}
			return nil
		}
		alloc := func(n int) []float64 {
			p := C.calloc(C.size_t(max(n, 1)), 8)
			if p == nil {
				panic(fmt.Sprintf("calloc of %d values failed", n))
			}
			e.mem = append(e.mem, p)
			e.bytes += int64(max(n, 1)) * 8
			return unsafe.Slice((*float64)(p), max(n, 1))[:n]
		}
		b, err := nengobridge.New(s, iv, call, alloc)
		if err != nil {
			for _, p := range e.mem {
				C.free(p)
			}
			return err
		}
		e.b = b
		mu.Lock()
		h = next
		next++
		entries[h] = e
		mu.Unlock()
		return nil
	}) != 0 {
		return 0
	}
	return h
}

// ng_run runs steps steps; on an error it returns 1 with the error in
// *errOut (the simulator is then at the last completed step).
//
//export ng_run
func ng_run(h C.longlong, steps C.longlong, errOut **C.char) C.int {
	return failed(errOut, func() error {
		e, err := get(h)
		if err != nil {
			return err
		}
		return e.b.Run(int(steps))
	})
}

// ng_reset restores the initial values and clears the probes.
//
//export ng_reset
func ng_reset(h C.longlong, errOut **C.char) C.int {
	return failed(errOut, func() error {
		e, err := get(h)
		if err != nil {
			return err
		}
		e.b.Reset()
		return nil
	})
}

// ng_steps returns the steps run since the last reset (-1: no such
// simulator).
//
//export ng_steps
func ng_steps(h C.longlong) C.longlong {
	e, err := get(h)
	if err != nil {
		return -1
	}
	return C.longlong(e.b.Steps())
}

// ng_signal sets *ptr to signal i's place in the store and *n to its
// size; it returns 1 if there is no such signal.
//
//export ng_signal
func ng_signal(h C.longlong, i C.longlong, ptr **C.double, n *C.longlong) C.int {
	e, err := get(h)
	if err != nil {
		return 1
	}
	v := e.b.Signal(int(i))
	if v == nil {
		return 1
	}
	*n = C.longlong(len(v))
	if len(v) > 0 {
		*ptr = (*C.double)(unsafe.Pointer(&v[0]))
	} else {
		*ptr = nil
	}
	return 0
}

// ng_probe_len returns the number of values probe i holds (-1: no such
// probe).
//
//export ng_probe_len
func ng_probe_len(h C.longlong, i C.longlong) C.longlong {
	e, err := get(h)
	if err != nil {
		return -1
	}
	if i < 0 || int(i) >= e.b.Probes() {
		return -1
	}
	return C.longlong(e.b.ProbeLen(int(i)))
}

// ng_probe copies the values of probe i from offset from on into dst (n
// values at most) and returns how many it copied (-1: no such probe).
//
//export ng_probe
func ng_probe(h C.longlong, i C.longlong, from C.longlong, dst *C.double, n C.longlong) C.longlong {
	e, err := get(h)
	if err != nil {
		return -1
	}
	if i < 0 || int(i) >= e.b.Probes() {
		return -1
	}
	if n < 0 {
		return -1
	}
	var out []float64
	if n > 0 {
		out = unsafe.Slice((*float64)(unsafe.Pointer(dst)), int(n))
	}
	return C.longlong(e.b.CopyProbe(int(i), int(from), out))
}

// ng_clear_probes discards the probe data recorded so far.
//
//export ng_clear_probes
func ng_clear_probes(h C.longlong) C.int {
	e, err := get(h)
	if err != nil {
		return 1
	}
	e.b.ClearProbes()
	return 0
}

// ng_memory returns the bytes of store the open simulators hold.
//
//export ng_memory
func ng_memory() C.longlong {
	mu.Lock()
	defer mu.Unlock()
	var n int64
	for _, e := range entries {
		n += e.bytes
	}
	return C.longlong(n)
}

// ng_heap returns the bytes of Go heap in use after a garbage collection
// (what the simulators' Go structures hold; for leak tests).
//
//export ng_heap
func ng_heap() C.longlong {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return C.longlong(ms.HeapAlloc)
}

// ng_plan returns neurogo's optimiser plan as text (free it with ng_free).
//
//export ng_plan
func ng_plan(h C.longlong) *C.char {
	e, err := get(h)
	if err != nil {
		return C.CString(err.Error())
	}
	return C.CString(e.b.Plan().String())
}

// ng_close releases a simulator and frees its store.
//
//export ng_close
func ng_close(h C.longlong) {
	mu.Lock()
	e, ok := entries[h]
	delete(entries, h)
	mu.Unlock()
	if !ok {
		return
	}
	e.b.Close()
	e.b = nil
	for _, p := range e.mem {
		C.free(p)
	}
	e.mem = nil
	// hand the simulator's Go memory back to the system now: a Python
	// process builds and closes many simulators, and Python's memory
	// accounting sees only what Go returns
	debug.FreeOSMemory()
}

// ng_free frees a string a function of this library returned.
//
//export ng_free
func ng_free(s *C.char) { C.free(unsafe.Pointer(s)) }

func main() {}
