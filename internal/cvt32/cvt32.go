package cvt32

// Kernels, in impl.
const (
	implGo = iota
	implAVX2
	implAVX512
	implNEON
)

type variant struct {
	name  string
	impl  int
	block int // values per vector (the Go loops do the rest)
}

// To32 rounds src to float32 into dst (dst at least as long as src).
func To32(dst []float32, src []float64) {
	dst = dst[:len(src)]
	n := kernelLen(len(src))
	if n > 0 {
		to32Asm(dst[:n], src[:n])
	}
	to32Go(dst[n:], src[n:])
}

// Add32 adds src to dst (dst at least as long as src).
func Add32(dst []float64, src []float32) {
	dst = dst[:len(src)]
	n := kernelLen(len(src))
	if n > 0 {
		add32Asm(dst[:n], src[:n])
	}
	add32Go(dst[n:], src[n:])
}

// BiasAdd32 sets dst = bias + src (dst and bias at least as long as src).
func BiasAdd32(dst, bias []float64, src []float32) {
	dst, bias = dst[:len(src)], bias[:len(src)]
	n := kernelLen(len(src))
	if n > 0 {
		biasAdd32Asm(dst[:n], bias[:n], src[:n])
	}
	biasAdd32Go(dst[n:], bias[n:], src[n:])
}

// kernelLen is the number of leading values of n the vector kernel
// takes: a multiple of its width, 0 for the Go loops.
func kernelLen(n int) int {
	b := blockOf(impl)
	if b == 0 {
		return 0
	}
	return n &^ (b - 1)
}

// to32Go is To32's Go loop (the reference).
func to32Go(dst []float32, src []float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

// add32Go is Add32's Go loop (the reference).
func add32Go(dst []float64, src []float32) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] += float64(v)
	}
}

// biasAdd32Go is BiasAdd32's Go loop (the reference).
func biasAdd32Go(dst, bias []float64, src []float32) {
	dst, bias = dst[:len(src)], bias[:len(src)]
	for i, v := range src {
		dst[i] = bias[i] + float64(v)
	}
}
