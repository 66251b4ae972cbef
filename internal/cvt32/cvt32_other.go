//go:build purego || !(amd64 || arm64)

package cvt32

// Without assembly kernels (other architectures, or the build tag
// purego) the conversions are the Go loops.

func variants() []variant { return []variant{{"go", implGo, 0}} }

var impl = implGo

func blockOf(int) int { return 0 }

// Never called (kernelLen is 0); the Go loops for completeness.
func to32Asm(dst []float32, src []float64)            { to32Go(dst, src) }
func add32Asm(dst []float64, src []float32)           { add32Go(dst, src) }
func biasAdd32Asm(dst, bias []float64, src []float32) { biasAdd32Go(dst, bias, src) }
