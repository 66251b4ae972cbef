package synapses

import (
	"fmt"
	"testing"
)

func TestZZ2(t *testing.T) {
	tau := 0.001
	s := tf2ss([]float64{1 / (tau * tau)}, []float64{1, 2 / tau, 1 / (tau * tau)})
	l := (&LinearFilter{Num: []float64{1}, Den: []float64{tau * tau, 2 * tau, 1}})
	num, den, _ := normalize("x", l.Num, l.Den)
	s = tf2ss(num, den)
	m := 3
	em := make([]float64, 9)
	for i := range 2 {
		for j := range 2 {
			em[i*m+j] = 0.001 * s.A[i*2+j]
		}
		em[i*m+2] = 0.001 * s.B[i]
	}
	a2 := matmul(em, em, m)
	a4 := matmul(a2, a2, m)
	a6 := matmul(a4, a2, m)
	h := func(n string, x []float64) {
		fmt.Print(n)
		for _, v := range x {
			fmt.Printf(" %x", v)
		}
		fmt.Println()
	}
	h("A2", a2)
	h("A6", a6)
	h("X", expm(em, m))
}
