// Package rules holds the per-step arithmetic of Nengo's learning rules
// (PES, BCM, Oja, Voja, RLS), shared by every executor that runs them (the
// simulator's float64 kernels in package sim, the trainer's forward pass
// in package train), so they compute the same values. Products are
// converted with float64(…) where Nengo rounds them, which keeps the
// compiler from fusing a multiply and an add: the results are the same on
// every architecture and equal Nengo 4.1's to the last bit on its
// reference models.
//
// Every function writes one lane's weight (or encoder) change; the
// arguments are that lane's signals, row-major, and alpha is the learning
// rate times dt (times PES's −1/n or Voja's learning signal).
package rules

import "github.com/neurogo/neurogo/internal/vec"

// PES writes delta = alpha·(error ⊗ acts) (Nengo's SimPES, alpha =
// −κ·dt/n).
func PES(delta, acts, err []float64, alpha float64) {
	n := len(acts)
	for i, ei := range err {
		ae := alpha * ei
		row := delta[i*n : (i+1)*n]
		for j, a := range acts {
			row[j] = float64(ae * a)
		}
	}
}

// PESInPlace adds alpha·(error ⊗ acts) to the weights w in one pass (the
// optimiser's fusion of PES with the copy that applies its change).
func PESInPlace(w, acts, err []float64, alpha float64) {
	n := len(acts)
	for i, ei := range err {
		vec.Axpy(w[i*n:(i+1)*n], acts, alpha*ei)
	}
}

// BCM writes delta[j,i] = alpha·post_j·(post_j − theta_j)·pre_i (Nengo's
// SimBCM).
func BCM(delta, pre, post, theta []float64, alpha float64) {
	n := len(pre)
	for j, q := range post {
		c := float64(alpha*q) * (q - theta[j])
		row := delta[j*n : (j+1)*n]
		for i, p := range pre {
			row[i] = float64(c * p)
		}
	}
}

// Oja writes delta[j,i] = alpha·(post_j·pre_i − beta·post_j²·w[j,i])
// (Nengo's SimOja).
func Oja(delta, pre, post, w []float64, alpha, beta float64) {
	n := len(pre)
	for j, q := range post {
		sq := float64(alpha*q) * q
		aq := alpha * q
		row, wr := delta[j*n:(j+1)*n], w[j*n:(j+1)*n]
		for i, p := range pre {
			row[i] = float64(-beta*wr[i]) * sq
			row[i] += float64(aq * p)
		}
	}
}

// Voja writes delta[i] = c·post_i·(scale_i·x − enc_i) (Nengo's SimVoja;
// c = κ·dt·learning signal).
func Voja(delta, x, post, enc, scale []float64, c float64) {
	d := len(x)
	for i, a := range post {
		si := scale[i]
		row, er := delta[i*d:(i+1)*d], enc[i*d:(i+1)*d]
		for j, xj := range x {
			row[j] = c * (float64(si*float64(a*xj)) - float64(a*er[j]))
		}
	}
}

// RLS updates the inverse correlation estimate P and writes the weight
// change (Nengo's SimRLS): with Pr = P·r, P −= Pr·Prᵀ/(1 + r·Pr) and
// delta = −err ⊗ Pr/(1 + r·Pr). pr is scratch of len(r).
func RLS(delta, P, r, err, pr []float64) {
	n := len(r)
	for i := range n {
		var acc float64
		row := P[i*n : (i+1)*n]
		for j, v := range row {
			acc += float64(v * r[j])
		}
		pr[i] = acc
	}
	var rPr float64
	for i, v := range r {
		rPr += float64(v * pr[i])
	}
	rPr1 := 1 / (1 + rPr)
	for i := range n {
		row := P[i*n : (i+1)*n]
		for j := range n {
			row[j] -= float64(pr[i] * float64(pr[j]*rPr1))
		}
	}
	for i, ei := range err {
		row := delta[i*n : (i+1)*n]
		for j := range n {
			row[j] = float64(ei * float64(-rPr1*pr[j]))
		}
	}
}
