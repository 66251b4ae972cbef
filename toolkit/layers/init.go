package layers

import (
	"math"
	"math/rand/v2"
)

// glorotUniform draws n values from U(-limit, limit), limit = sqrt(6/(fanIn+fanOut))
// (Glorot & Bengio 2010; Keras' default kernel_initializer "glorot_uniform").
func glorotUniform(n, fanIn, fanOut int, seed int64) []float64 {
	r := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	limit := math.Sqrt(6 / float64(fanIn+fanOut))
	v := make([]float64, n)
	for i := range v {
		v[i] = (2*r.Float64() - 1) * limit
	}
	return v
}

// splitmix64 is the finaliser of Steele, Lea & Flood's SplitMix64
// (OOPSLA 2014); used as a counter-based generator for Dropout masks.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
