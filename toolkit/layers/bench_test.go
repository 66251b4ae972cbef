package layers

import (
	"math/rand/v2"
	"testing"
)

// mnistConvs returns the three convolutions of NengoDL's spiking-MNIST
// network (the NengoDL paper): conv32 3×3 on 28×28×1, conv64 3×3, (avgpool 2),
// conv128 3×3 on 12×12×64, valid padding.
func mnistConvs(tb testing.TB) []Layer {
	specs := []struct {
		s  Conv2D
		in []int
	}{
		{Conv2D{Filters: 32, Kernel: []int{3}}, []int{28, 28, 1}},
		{Conv2D{Filters: 64, Kernel: []int{3}}, []int{26, 26, 32}},
		{Conv2D{Filters: 128, Kernel: []int{3}}, []int{12, 12, 64}},
	}
	ls := make([]Layer, len(specs))
	for i, sp := range specs {
		l, err := sp.s.Build(sp.in, int64(i))
		if err != nil {
			tb.Fatal(err)
		}
		ls[i] = l
	}
	return ls
}

// BenchmarkConv2DMNIST runs Forward (training) and Backward of the three
// convolutions at minibatch 200; the first layer's input gradient is not
// computed (it is the data).
func BenchmarkConv2DMNIST(b *testing.B) {
	const batch = 200
	ls := mnistConvs(b)
	type state struct {
		ex                 Exec
		params, dParams    [][]float64
		in, out, dOut, dIn []float64
	}
	r := rand.New(rand.NewPCG(1, 2))
	st := make([]state, len(ls))
	for i, l := range ls {
		ex, err := l.NewExec(batch, 1)
		if err != nil {
			b.Fatal(err)
		}
		s := state{ex: ex, params: testParams(l, r)}
		s.dParams = cloneParams(s.params)
		s.in = randn(r, batch*Size(l.InShape()))
		s.out = make([]float64, batch*Size(l.OutShape()))
		s.dOut = randn(r, len(s.out))
		if i > 0 {
			s.dIn = make([]float64, len(s.in))
		}
		st[i] = s
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, s := range st {
			if err := s.ex.Forward(s.params, s.in, s.out, batch, true); err != nil {
				b.Fatal(err)
			}
		}
		for i := len(st) - 1; i >= 0; i-- {
			s := st[i]
			if err := s.ex.Backward(s.params, s.in, s.out, s.dOut, s.dIn, s.dParams, batch); err != nil {
				b.Fatal(err)
			}
		}
	}
}
