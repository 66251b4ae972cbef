//go:build purego || !amd64

package layers

// Without assembly kernels (other architectures, or the build tag
// purego) the conversions are the Go loops.

const conv32Go = 0

// conv32Impl is always the Go loops here.
var conv32Impl = conv32Go

type conv32Variant struct {
	name string
	impl int
}

// conv32Variants lists the kernels this build can run: the Go loops.
func conv32Variants() []conv32Variant { return []conv32Variant{{"go", conv32Go}} }

// to32 rounds src to float32 into dst.
func to32(dst []float32, src []float64) { to32Go(dst, src) }

// add32 adds src to dst.
func add32(dst []float64, src []float32) { add32Go(dst, src) }

// biasAdd32 sets dst = bias + src.
func biasAdd32(dst, bias []float64, src []float32) { biasAdd32Go(dst, bias, src) }
