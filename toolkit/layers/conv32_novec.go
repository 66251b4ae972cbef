//go:build !(goexperiment.simd && amd64)

package layers

// to32 rounds src to float32 into dst.
func to32(dst []float32, src []float64) { to32Go(dst, src) }

// add32 adds src to dst.
func add32(dst []float64, src []float32) { add32Go(dst, src) }

// biasAdd32 sets dst = bias + src.
func biasAdd32(dst, bias []float64, src []float32) { biasAdd32Go(dst, bias, src) }
