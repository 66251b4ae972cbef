package networks

import (
	"math"

	"github.com/neurogo/neurogo/toolkit"
)

// ProductNet computes the element-wise product of two vectors
// (nengo.networks.Product): Output[i] = InputA[i]·InputB[i].
type ProductNet struct {
	Net                    *toolkit.Network
	InputA, InputB, Output *toolkit.Node
	// SQ1 squares (a+b)/√2 and SQ2 squares (a−b)/√2, per dimension.
	SQ1, SQ2       *EnsembleArrayNet
	Dims           int
	InputMagnitude float64
}

// Product adds Nengo 4.1's product network: x·y = ((x+y)² − (x−y)²)/4,
// computed by two ensemble arrays (SQ1, SQ2) of dims 1-D ensembles with
// max(nNeurons/2, 1) neurons each (nNeurons per product, as in Nengo; 1
// suits Direct mode) and radius
// √2·inputMagnitude (the largest |x±y|/√2 for |x|, |y| ≤ inputMagnitude),
// each decoding the square. InputA and InputB feed SQ1 with transform
// 1/√2 each and SQ2 with 1/√2 and −1/√2; Output = ½·SQ1² − ½·SQ2². All
// connections are unfiltered, so the network adds no synaptic delay of
// its own. Nengo's default inputMagnitude is 1.
func Product(parent *toolkit.Network, label string, nNeurons, dims int, inputMagnitude float64) (*ProductNet, error) {
	const kind = "Product"
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
	p := &ProductNet{Net: net, Dims: dims, InputMagnitude: inputMagnitude}
	p.InputA = net.Passthrough("input_a", dims)
	p.InputB = net.Passthrough("input_b", dims)
	p.Output = net.Passthrough("output", dims)
	square := func(x []float64) []float64 { return []float64{x[0] * x[0]} }
	for _, sq := range []**EnsembleArrayNet{&p.SQ1, &p.SQ2} {
		name := "sq1"
		if sq == &p.SQ2 {
			name = "sq2"
		}
		ea, err := EnsembleArray(net, name, max(nNeurons/2, 1), dims, 1)
		if err != nil {
			return nil, err
		}
		for _, e := range ea.Ensembles {
			e.Radius = math.Sqrt2 * inputMagnitude
		}
		if _, err := ea.AddOutput("square", square); err != nil {
			return nil, err
		}
		*sq = ea
	}
	r := 1 / math.Sqrt2
	for _, c := range []struct {
		pre, post *toolkit.Node
		w         float64
	}{
		{p.InputA, p.SQ1.Input, r}, {p.InputB, p.SQ1.Input, r},
		{p.InputA, p.SQ2.Input, r}, {p.InputB, p.SQ2.Input, -r},
		{p.SQ1.Outputs["square"], p.Output, 0.5}, {p.SQ2.Outputs["square"], p.Output, -0.5},
	} {
		conn := net.Connect(c.pre, c.post)
		conn.Transform = toolkit.Scalar(c.w)
		conn.Synapse = nil
	}
	return p, nil
}
