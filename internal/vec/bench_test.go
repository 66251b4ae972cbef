package vec

import (
	"fmt"
	"testing"
)

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

func BenchmarkAxpyRelu156(b *testing.B) {
	out, bb, a := make([]float64, 156), make([]float64, 156), make([]float64, 156)
	for b.Loop() {
		AxpyRelu(out, bb, a, 0.3, 1.5)
	}
}

func BenchmarkAxpyToRelu156(b *testing.B) {
	out, bb, a := make([]float64, 156), make([]float64, 156), make([]float64, 156)
	for b.Loop() {
		AxpyTo(out, bb, a, 0.3)
		Relu(out, out, 1.5)
	}
}

func BenchmarkEnsDot2_52(b *testing.B) {
	a, bb, e, d1, d2 := make([]float64, 52), make([]float64, 52), make([]float64, 52), make([]float64, 52), make([]float64, 52)
	for b.Loop() {
		EnsDot2(a, false, bb, e, 0.3, 1, d1, d2)
	}
}

func BenchmarkEnsUnfused52(b *testing.B) {
	a, bb, e, d1, d2 := make([]float64, 52), make([]float64, 52), make([]float64, 52), make([]float64, 52), make([]float64, 52)
	for b.Loop() {
		AxpyRelu(a, bb, e, 0.3, 1.5)
		bY[0] = Dot(d1, a)
		bY[1] = Dot(d2, a)
	}
}

func BenchmarkMatVec388x192(b *testing.B) {
	m, x, y := make([]float64, 388*192), make([]float64, 192), make([]float64, 388)
	for i := range m {
		m[i] = float64(i%7) * 0.1
	}
	for b.Loop() {
		for r := range 388 {
			y[r] = Dot(m[r*192:(r+1)*192], x)
		}
	}
	b.ReportMetric(388*192/float64(b.Elapsed().Nanoseconds())*float64(b.N), "MAC/ns")
}

func BenchmarkMatVec4Rows(b *testing.B) {
	m, x, y := make([]float64, 388*192), make([]float64, 192), make([]float64, 388)
	for b.Loop() {
		for r := 0; r < 388; r += 4 {
			y[r], y[r+1], y[r+2], y[r+3] = Dot4(m[r*192:(r+1)*192], m[(r+1)*192:(r+2)*192], m[(r+2)*192:(r+3)*192], m[(r+3)*192:(r+4)*192], x)
		}
	}
	b.ReportMetric(388*192/float64(b.Elapsed().Nanoseconds())*float64(b.N), "MAC/ns")
}

func BenchmarkEnsDot2Sizes(b *testing.B) {
	for _, n := range []int{16, 26, 48, 52, 64, 156} {
		a, bb, e, d1, d2 := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		b.Run(fmt.Sprint(n, "/two"), func(b *testing.B) {
			for b.Loop() {
				EnsDot2(a, false, bb, e, 0.3, 1, d1, d2)
			}
		})
		b.Run(fmt.Sprint(n, "/one"), func(b *testing.B) {
			for b.Loop() {
				EnsDot2(a, false, bb, e, 0.3, 1, d1, nil)
			}
		})
	}
}

// BenchmarkEnsOct compares eight ensembles through EnsOct with eight
// EnsDot2 calls on zero-padded (packed) weights.
func BenchmarkEnsOct(b *testing.B) {
	for _, n := range []int{26, 52, 156} {
		pad := (n + 15) &^ 15
		p := make([]float64, n*OctWidth(true))
		for i := range p {
			p[i] = float64(i%7) - 3
		}
		w := make([]float64, 8*4*pad)
		for i := range w {
			w[i] = float64(i%5) - 2
		}
		x := [8]float64{0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7, 0.8}
		b.Run(fmt.Sprintf("oct%d", n), func(b *testing.B) {
			var s1, s2 [8]float64
			for b.Loop() {
				EnsOct(p, n, true, &x, 1, &s1, &s2)
			}
		})
		b.Run(fmt.Sprintf("dot2x8_%d", n), func(b *testing.B) {
			a := make([]float64, pad)
			for b.Loop() {
				for e := range 8 {
					q := w[e*4*pad:]
					EnsDot2(a, false, q[:pad], q[pad:2*pad], x[e], 1, q[2*pad:3*pad], q[3*pad:4*pad])
				}
			}
		})
	}
}

// BenchmarkDotRowsLanes: a 388×192 matrix (L2-resident) times 1–8
// minibatch lanes, in multiply-adds per nanosecond over all lanes.
func BenchmarkDotRowsLanes(b *testing.B) {
	const R, C = 388, 192
	m := make([]float64, R*C)
	for i := range m {
		m[i] = float64(i%7) * 0.1
	}
	for _, lanes := range []int{1, 4, 5, 8} {
		x, out := make([][]float64, lanes), make([][]float64, lanes)
		for l := range x {
			x[l], out[l] = make([]float64, C), make([]float64, R)
		}
		b.Run(fmt.Sprintf("lanes%d", lanes), func(b *testing.B) {
			for b.Loop() {
				DotRowsLanes(out, m, C, x)
			}
			b.ReportMetric(float64(lanes*R*C)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "MAC/ns")
		})
	}
}

// BenchmarkEnsOct1 is BenchmarkEnsOct's octets with one decoder row (the
// rectified-linear benchmark models' case).
func BenchmarkEnsOct1(b *testing.B) {
	for _, n := range []int{26, 52, 156} {
		p := make([]float64, n*OctWidth(false)+64)
		for i := range p {
			p[i] = float64(i%7) - 3
		}
		x := [8]float64{0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7, 0.8}
		b.Run(fmt.Sprintf("oct%d", n), func(b *testing.B) {
			var s1, s2 [8]float64
			for b.Loop() {
				EnsOct(p, n, false, &x, 1, &s1, &s2)
			}
		})
	}
}

// BenchmarkLoops covers the loops the benchmarks above do not, at a
// small ensemble's size and at a large population's.
func BenchmarkLoops(b *testing.B) {
	for _, n := range []int{156, 4096} {
		x, g, bb, y, u := bA[:n], bX[:n], bY[:n], make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], g[i], bb[i] = float64(i%7)-3, float64(i%5)*0.5, float64(i%3)-1
		}
		run := func(name string, f func()) {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				for b.Loop() {
					f()
				}
			})
		}
		run("Scale", func() { Scale(y, x, 0.5) })
		run("MulInc", func() { MulInc(y, x, g) })
		run("Add", func() { Add(y, x) })
		run("GainRelu", func() { GainRelu(y, x, g, bb, 1.5) })
		run("CountPositive", func() { bY[0] = CountPositive(u, x, g, bb, 0) })
		in := make([]float64, n) // no zero input: a state decaying to subnormals would time the FPU's assists
		for i := range in {
			in[i] = 1 + float64(i%3)
		}
		run("Lowpass", func() { Lowpass(y, u, in, 0.9, 0.1) })
		run("FirstNaN", func() { bY[1] = float64(FirstNaN(x)) })
		run("Dot2", func() { y[0], y[1] = Dot2(x, g, bb) })
		if n <= 156 {
			m := make([]float64, 64*n)
			run("VecMat64", func() { VecMat(y, x[:64], m, n) })
		}
	}
}
