package vec

import "testing"

var bA, bX, bY = make([]float64, 9984), make([]float64, 9984), make([]float64, 9984)

func BenchmarkRelu(b *testing.B) {
	for b.Loop() {
		Relu(bY, bA, 2)
	}
}

func BenchmarkDot156(b *testing.B) {
	for b.Loop() {
		for k := 0; k < 64; k++ {
			bY[k] += Dot(bA[k*156:(k+1)*156], bX[k*156:(k+1)*156])
		}
	}
}

func BenchmarkAxpy(b *testing.B) {
	for b.Loop() {
		Axpy(bY, bA, 0.5)
	}
}
