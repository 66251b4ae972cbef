package build

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/toolkit"
)

// checkMembers returns an error when a connection, learning rule or probe
// of net refers to an object of another network (toolkit objects belong
// to the network that made them; a model is one network tree).
func checkMembers(net *toolkit.Network) error {
	in := map[any]bool{}
	for _, e := range net.AllEnsembles() {
		in[e] = true
	}
	for _, n := range net.AllNodes() {
		in[n] = true
	}
	conns := net.AllConnections()
	for _, c := range conns {
		in[c] = true
	}
	member := func(obj toolkit.Object) bool {
		switch o := obj.(type) {
		case *toolkit.Neurons:
			return in[o.Ensemble]
		case *toolkit.Rule:
			return in[o.Conn]
		}
		return in[obj]
	}
	for _, c := range conns {
		for _, end := range []struct {
			field string
			t     toolkit.Target
		}{{"Pre", c.Pre}, {"Post", c.Post}} {
			if obj := end.t.Obj(); !member(obj) {
				return objErr(c.String(), end.field, toolkit.Ref(end.t),
					fmt.Sprintf("must be an object of network %q (it belongs to another network; connect objects of one network tree)", net.Label), nil)
			}
		}
	}
	for _, p := range net.AllProbes() {
		if obj := p.Target.Obj(); !member(obj) {
			return objErr(fmt.Sprintf("Probe %q", p.Label), "Target", toolkit.Ref(p.Target),
				fmt.Sprintf("must be an object of network %q (it belongs to another network)", net.Label), nil)
		}
	}
	return nil
}

// estimateMemory returns a lower bound of the bytes Build allocates for
// net and the object that needs the most: every ensemble's encoders,
// gains, biases, state and signals, the activities and Gram matrix of the
// largest decoder solve (transient, one at a time), and every
// connection's weight matrix. Floats avoid overflow for absurd sizes.
func estimateMemory(net *toolkit.Network) (total float64, obj, field string, value any, objBytes float64) {
	const f = 8 // bytes per value
	note := func(b float64, o, fl string, v any) {
		total += b
		if b > objBytes {
			obj, field, value, objBytes = o, fl, v, b
		}
	}
	decoded := map[*toolkit.Ensemble]bool{}
	for _, c := range net.AllConnections() {
		if e, ok := c.Pre.Obj().(*toolkit.Ensemble); ok {
			decoded[e] = true
		}
	}
	transient := 0.0
	for _, e := range net.AllEnsembles() {
		n, d := float64(max(e.N, 0)), float64(max(e.Dims, 0))
		b := f * (3*n*d + 6*n)
		if decoded[e] {
			p := float64(max(e.EvalPointCount(), 0))
			b += f * p * d
			transient = max(transient, f*(p*n+math.Pow(min(n, p), 2)))
		}
		note(b, fmt.Sprintf("Ensemble %q", e.Label), "N", e.N)
	}
	for _, c := range net.AllConnections() {
		_, out := c.Pre.Obj().Dimensions()
		in, _ := c.Post.Obj().Dimensions()
		if idx := c.Pre.Indices(); idx != nil {
			out = len(idx)
		}
		if idx := c.Post.Indices(); idx != nil {
			in = len(idx)
		}
		rows, cols := float64(max(in, 0)), float64(max(out, 0))
		// the transform's weights: a sparse transform's nonzeros, a
		// matrix, or a scalar applied element-wise
		var w float64
		desc := ""
		switch tr := c.Transform; {
		case tr.Sparse != nil:
			w, desc = float64(len(tr.Sparse.Data)), fmt.Sprintf("%d nonzero weights", len(tr.Sparse.Data))
		case tr.Matrix != nil:
			w, desc = rows*cols, fmt.Sprintf("%g×%g weights", rows, cols)
		default:
			w, desc = max(rows, cols), fmt.Sprintf("%g element-wise weights", max(rows, cols))
		}
		if pe, ok := c.Pre.Obj().(*toolkit.Ensemble); ok {
			n := float64(max(pe.N, 0))
			if po, ok := c.Post.Obj().(*toolkit.Ensemble); ok && c.Solver != nil && c.Solver.Weights() {
				// a full weight matrix, pre neurons × post neurons
				w, desc = n*float64(max(po.N, 0)), fmt.Sprintf("%d×%d neuron-to-neuron weights", po.N, pe.N)
			} else {
				// decoders: pre neurons × the decoded dimensions
				w += n * cols
			}
		}
		note(f*w, c.String(), "Transform", desc)
	}
	return total + transient, obj, field, value, objBytes
}

// availableMemory is what the process may still allocate: the Go memory
// limit (debug.SetMemoryLimit, GOMEMLIMIT) if set, else the system's
// available memory (Linux /proc/meminfo MemAvailable); ok is false when
// neither is known.
func availableMemory() (float64, bool) {
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		return float64(l), true
	}
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			fs := strings.Fields(rest)
			if len(fs) >= 1 {
				if kb, err := strconv.ParseFloat(fs[0], 64); err == nil {
					return kb * 1024, true
				}
			}
		}
	}
	return 0, false
}

// checkMemory refuses a model whose estimated memory exceeds what is
// available, before anything is allocated (an allocation that fails is
// fatal to the process, not an error).
func checkMemory(net *toolkit.Network) error {
	need, obj, field, value, objBytes := estimateMemory(net)
	avail, ok := availableMemory()
	if !ok || need <= avail {
		return nil
	}
	return objErr(obj, field, value, fmt.Sprintf("the model needs at least %s of memory (%s for this object), %s are available", bytesStr(need), bytesStr(objBytes), bytesStr(avail)), nil)
}

// bytesStr formats a byte count in binary units (e.g. "7.3 TiB").
func bytesStr(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if b >= 1e4 {
		return fmt.Sprintf("%.3g %s", b, units[i])
	}
	return fmt.Sprintf("%.1f %s", b, units[i])
}
