package frames

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// initParam draws the initial value of synapse-pool parameter name
// (W_f_a or P_f_a) of the given shape from its initialiser (sp.Init;
// default xavier). The random stream depends only on the seed, the
// synapse-pool's and the parameter's names.
//
// Initialisers (statestream docs/synapse_pools.md):
//   - xavier: U(±sqrt(6/(fan_in+fan_out))) (Glorot & Bengio 2010), with
//     fan_in = rf·rf·Cin, fan_out = rf·rf·Cout for a convolution and the
//     row and column counts for a dense W or a P; xavier_G scales the bound
//     by G;
//   - id / -id / Id / -Id, id_X / Id_X (X instead of 1): ±1 on matching
//     features at the centre tap ((rf-1)/2, rf odd) of a convolution, on
//     matching indices of a dense W or a P (identityMatch);
//   - normal: N(0, 1); normal_M_S: N(M, S²);
//   - uniform: U(0, 1), as statestream draws it (numpy's uniform(0, 1));
//     uniform_A_B: U(A, B);
//   - bilin: the bilinear-interpolation kernel (Long et al. 2015's FCN
//     upsampling filter) on matching features;
//   - zero, or a number: that constant.
func initParam(sp *stream.SynapsePool, name string, shape []int, seed uint64) ([]float64, error) {
	return initParamSalt(sp, name, shape, seed, "")
}

// initParamAgents draws an unshared parameter: agents arrays of the
// given shape one after the other, each drawn as initParam draws the
// shared one but from a random stream of its own (the agent's index
// joins the names).
func initParamAgents(sp *stream.SynapsePool, name string, shape []int, seed uint64, agents int) ([]float64, error) {
	d := make([]float64, 0, agents*prod(shape))
	for a := range agents {
		da, err := initParamSalt(sp, name, shape, seed, "\x00agent "+strconv.Itoa(a))
		if err != nil {
			return nil, err
		}
		d = append(d, da...)
	}
	return d, nil
}

// initParamSalt is initParam with salt appended to the names that seed
// the random stream.
func initParamSalt(sp *stream.SynapsePool, name string, shape []int, seed uint64, salt string) ([]float64, error) {
	spec := sp.Init[name]
	if spec == "" {
		spec = "xavier"
	}
	h := fnv.New64a()
	h.Write([]byte(sp.Name + "\x00" + name + salt))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	d := make([]float64, prod(shape))
	conv := len(shape) == 4
	var rows, cols, rf int // matrix view: rows × cols (conv: rf·rf·Cin × Cout)
	if conv {
		rf, rows, cols = shape[0], shape[0]*shape[1]*shape[2], shape[3]
	} else {
		rows, cols = shape[0], shape[1]
	}
	fanIn, fanOut := float64(rows), float64(cols)
	if conv {
		fanOut = float64(rf * rf * cols)
	}
	bad := func() ([]float64, error) {
		return nil, fmt.Errorf("frames: synapse-pool %q: init %s: unknown initialiser %q", sp.Name, name, spec)
	}
	num := func(s string) (float64, bool) {
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	}
	// diag calls fn(index, i) for the "matching feature" entries.
	diag := func(fn func(k, kx, ky int)) {
		if conv {
			cin := shape[2]
			for kx := 0; kx < rf; kx++ {
				for ky := 0; ky < rf; ky++ {
					for c := 0; c < min(cin, cols); c++ {
						fn(((kx*rf+ky)*cin+c)*cols+c, kx, ky)
					}
				}
			}
			return
		}
		for i := 0; i < min(rows, cols); i++ {
			fn(i*cols+i, 0, 0)
		}
	}
	if v, ok := num(spec); ok {
		for i := range d {
			d[i] = v
		}
		return d, nil
	}
	parts := strings.Split(spec, "_")
	switch parts[0] {
	case "zero":
		return d, nil
	case "xavier":
		g := 1.0
		if len(parts) == 2 {
			v, ok := num(parts[1])
			if !ok {
				return bad()
			}
			g = v
		} else if len(parts) != 1 {
			return bad()
		}
		b := g * math.Sqrt(6/(fanIn+fanOut))
		for i := range d {
			d[i] = (2*rng.Float64() - 1) * b
		}
	case "id", "-id", "Id", "-Id":
		v := 1.0
		if parts[0][0] == '-' {
			v = -1
		}
		if len(parts) == 2 {
			x, ok := num(parts[1])
			if !ok || v < 0 {
				return bad()
			}
			v = x
		} else if len(parts) != 1 {
			return bad()
		}
		tiled := strings.TrimPrefix(parts[0], "-") == "Id"
		nin, nout := rows, cols
		if conv {
			nin = shape[2]
		}
		c := (rf - 1) / 2
		for ci := 0; ci < nin; ci++ {
			for co := 0; co < nout; co++ {
				if !identityMatch(ci, co, nin, nout, tiled) {
					continue
				}
				if conv {
					d[((c*rf+c)*nin+ci)*nout+co] = v
				} else {
					d[ci*nout+co] = v
				}
			}
		}
	case "normal", "uniform":
		a, b := 0.0, 1.0 // N(0, 1), U(0, 1)
		if len(parts) == 3 {
			var ok1, ok2 bool
			a, ok1 = num(parts[1])
			b, ok2 = num(parts[2])
			if !ok1 || !ok2 {
				return bad()
			}
		} else if len(parts) != 1 {
			return bad()
		}
		for i := range d {
			if parts[0] == "normal" {
				d[i] = a + b*rng.NormFloat64()
			} else {
				d[i] = a + (b-a)*rng.Float64()
			}
		}
	case "bilin":
		if !conv {
			diag(func(k, _, _ int) { d[k] = 1 })
			break
		}
		f := float64((rf + 1) / 2)
		c := float64(rf-1) / 2
		diag(func(k, kx, ky int) {
			d[k] = (1 - math.Abs(float64(kx)-c)/f) * (1 - math.Abs(float64(ky)-c)/f)
		})
	default:
		return bad()
	}
	return d, nil
}

// identityMatch reports whether input index i and output index o of an
// identity initialiser match (statestream's id / Id): with equal counts
// when i == o; when one count is a multiple k of the other, id matches
// where the index on the larger side divided by k equals the index on the
// smaller side (blocks: kron(eye, ones)), Id (tiled) where the larger
// index modulo the smaller count equals it (kron(ones, eye)). Counts that
// are not multiples match on the diagonal (i == o).
func identityMatch(i, o, nin, nout int, tiled bool) bool {
	big, small, nbig, nsmall := o, i, nout, nin
	if nin > nout {
		big, small, nbig, nsmall = i, o, nin, nout
	}
	if nbig == nsmall || nsmall == 0 || nbig%nsmall != 0 {
		return i == o
	}
	if tiled {
		return big%nsmall == small
	}
	return big/(nbig/nsmall) == small
}
