package networks

import (
	"math"

	"github.com/neurogo/neurogo/toolkit"
)

// CircularConvolutionNet computes the circular convolution of two
// vectors (nengo.networks.CircularConvolution):
// Output[n] = Σ_k A[k]·B[(n−k) mod D], with A or B replaced by its
// involution (index reversal mod D, the approximate inverse used to
// unbind in holographic reduced representations) when InvertA or InvertB.
type CircularConvolutionNet struct {
	Net                    *toolkit.Network
	InputA, InputB, Output *toolkit.Node
	// Product multiplies the Fourier coefficients (4 products per
	// coefficient k = 0 … D/2).
	Product          *ProductNet
	Dims             int
	InvertA, InvertB bool
	InputMagnitude   float64
}

// CircularConvolution adds Nengo 4.1's circular-convolution network for
// dims-dimensional vectors: by the convolution theorem, InputA and InputB
// go through real DFT matrices (dense transforms) to their Fourier
// coefficients k = 0 … ⌊D/2⌋, a Product network (nNeurons per product,
// input magnitude 2·inputMagnitude) forms, per k, the four products
// ReA·ReB, ImA·ImB, ReA·ImB, ImA·ReB, and the inverse real DFT (another
// dense transform) gives the output. Inverting an input conjugates its
// coefficients (negates the imaginary rows). All connections are
// unfiltered. Nengo's defaults: invertA = invertB = false,
// inputMagnitude 1.
func CircularConvolution(parent *toolkit.Network, label string, nNeurons, dims int, invertA, invertB bool, inputMagnitude float64) (*CircularConvolutionNet, error) {
	const kind = "CircularConvolution"
	if err := checkParent(kind, label, parent); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "nNeurons", nNeurons); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "dims", dims); err != nil {
		return nil, err
	}
	if err := checkPositive(kind, label, "inputMagnitude", inputMagnitude); err != nil {
		return nil, err
	}
	net := parent.Network(label)
	cc := &CircularConvolutionNet{Net: net, Dims: dims, InvertA: invertA, InvertB: invertB, InputMagnitude: inputMagnitude}
	cc.InputA = net.Passthrough("input_a", dims)
	cc.InputB = net.Passthrough("input_b", dims)
	cc.Output = net.Passthrough("output", dims)
	tA, tB := dftTransforms(dims, invertA, invertB)
	prod, err := Product(net, "product", nNeurons, len(tA), 2*inputMagnitude)
	if err != nil {
		return nil, err
	}
	cc.Product = prod
	for _, c := range []struct {
		pre, post *toolkit.Node
		t         [][]float64
	}{{cc.InputA, prod.InputA, tA}, {cc.InputB, prod.InputB, tB}, {prod.Output, cc.Output, idftTransform(dims)}} {
		conn := net.Connect(c.pre, c.post)
		conn.Transform = toolkit.Dense(c.t)
		conn.Synapse = nil
	}
	return cc, nil
}

// dftTransforms returns the 4·(⌊D/2⌋+1) × D matrices that map A and B to
// the product inputs: for coefficient k, rows 4k…4k+3 hold
// (Re, Im, Re, Im) of A's DFT row and (Re, Im, Im, Re) of B's, so the
// four products are ReA·ReB, ImA·ImB, ReA·ImB, ImA·ReB. The DFT row is
// exp(−2πikn/D); inverting conjugates it.
func dftTransforms(d int, invertA, invertB bool) (tA, tB [][]float64) {
	nk := d/2 + 1
	tA = make([][]float64, 4*nk)
	tB = make([][]float64, 4*nk)
	for k := range nk {
		re := make([]float64, d)
		im := make([]float64, d)
		for n := range d {
			th := 2 * math.Pi * float64(k*n%d) / float64(d)
			re[n], im[n] = math.Cos(th), -math.Sin(th)
		}
		imA, imB := im, im
		if invertA {
			imA = scaled(im, -1)
		}
		if invertB {
			imB = scaled(im, -1)
		}
		tA[4*k], tA[4*k+1], tA[4*k+2], tA[4*k+3] = re, imA, re, imA
		tB[4*k], tB[4*k+1], tB[4*k+2], tB[4*k+3] = re, imB, imB, re
	}
	// copy shared rows so callers may modify the matrices freely
	for i := range tA {
		tA[i] = append([]float64(nil), tA[i]...)
		tB[i] = append([]float64(nil), tB[i]...)
	}
	return tA, tB
}

// idftTransform returns the D × 4·(⌊D/2⌋+1) inverse real DFT: with
// C_k = (ReA·ReB − ImA·ImB) + i(ReA·ImB + ImA·ReB), the output is
// x[n] = Σ_k w_k·Re(C_k·exp(2πikn/D)), w_k = 1/D for k = 0 and (D even)
// k = D/2, else 2/D.
func idftTransform(d int) [][]float64 {
	nk := d/2 + 1
	t := make([][]float64, d)
	for n := range d {
		row := make([]float64, 4*nk)
		for k := range nk {
			w := 2 / float64(d)
			if k == 0 || 2*k == d {
				w = 1 / float64(d)
			}
			th := 2 * math.Pi * float64(k*n%d) / float64(d)
			c, s := w*math.Cos(th), w*math.Sin(th)
			row[4*k], row[4*k+1], row[4*k+2], row[4*k+3] = c, -c, -s, -s
		}
		t[n] = row
	}
	return t
}

func scaled(v []float64, a float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = a * x
	}
	return out
}
