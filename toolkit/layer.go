package toolkit

import (
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// Layer adds a deep-learning layer node fed by input (NengoDL's
// nengo_dl.Layer / tensor_layer; the NengoDL paper, §3.1): spec is built for the
// input's shape, a Node computing it is added, and input is connected to
// it without a synapse. shapeIn gives the per-example shape of the input
// (channels last, e.g. 28, 28, 1); without it the shape is taken from a
// layer node's output shape, a NeuronLayer ensemble's Shape, or else the
// input's flat size. (A Dense layer acts on the last axis of its input
// shape, as in Keras: give the flat size as shapeIn to connect a whole
// feature map, as NengoDL's Layer without shape_in does.) The layer's
// initial parameters are drawn from a seed
// derived from the network's seed and the label.
func (net *Network) Layer(label string, input Target, spec layers.Spec, shapeIn ...int) (*Node, error) {
	o := fmt.Sprintf("Node %q", label)
	if spec == nil {
		return nil, &validate.Error{Pkg: "toolkit", Object: o, Field: "spec", Value: nil, Rule: "must be a layer spec (layers.Dense, layers.Conv2D, …)"}
	}
	shape, err := inputShape(o, input, shapeIn)
	if err != nil {
		return nil, err
	}
	l, err := spec.Build(shape, layerSeed(net, label))
	if err != nil {
		return nil, &validate.Error{Pkg: "toolkit", Object: o, Field: "spec", Value: fmt.Sprintf("%T", spec), Rule: "cannot be built", Err: err}
	}
	n := net.LayerNode(label, l)
	c := net.Connect(input, n)
	c.Synapse = nil
	return n, nil
}

// LayerNode adds a node computing an already built layer; connect its
// input yourself (Layer does both).
func (net *Network) LayerNode(label string, l layers.Layer) *Node {
	n := &Node{Label: label, Layer: l, SizeIn: layers.Size(l.InShape()), SizeOut: layers.Size(l.OutShape())}
	net.Nodes = append(net.Nodes, n)
	return n
}

// NeuronLayer adds an ensemble of one neuron per input value with neuron
// type nt, driven directly into its neurons without a synapse (NengoDL's
// tensor_layer with a neuron type): a nonlinearity between deep layers
// that can be spiking. Gains are 1 and biases 0, as in NengoDL; to derive
// them from max rates and intercepts instead, set Gain and Bias to nil
// and MaxRates and Intercepts (e.g. dists.Choice{Options: [][]float64{{100}}} and {{0}}
// in the spiking-MNIST model). The ensemble's Shape is the input's shape.
func (net *Network) NeuronLayer(label string, input Target, nt neurons.Type, shapeIn ...int) (*Ensemble, error) {
	o := fmt.Sprintf("Ensemble %q", label)
	if nt == nil {
		return nil, &validate.Error{Pkg: "toolkit", Object: o, Field: "NeuronType", Value: nil, Rule: "must be a neuron type"}
	}
	shape, err := inputShape(o, input, shapeIn)
	if err != nil {
		return nil, err
	}
	size := layers.Size(shape)
	e := net.Ensemble(label, size, 1)
	e.NeuronType = nt
	e.Shape = shape
	e.Gain, e.Bias = make([]float64, size), make([]float64, size)
	for i := range e.Gain {
		e.Gain[i] = 1
	}
	c := net.Connect(input, e.Neurons())
	c.Synapse = nil
	return e, nil
}

// inputShape returns the per-example shape of a layer's input.
func inputShape(o string, input Target, shapeIn []int) ([]int, error) {
	if input == nil || input.Obj() == nil {
		return nil, &validate.Error{Pkg: "toolkit", Object: o, Field: "input", Value: nil, Rule: "must be a node, ensemble or neurons"}
	}
	size := TargetSize(input, false)
	if len(shapeIn) > 0 {
		for _, d := range shapeIn {
			if d < 1 {
				return nil, &validate.Error{Pkg: "toolkit", Object: o, Field: "shapeIn", Value: shapeIn, Rule: "dimensions must be positive"}
			}
		}
		if layers.Size(shapeIn) != size {
			return nil, &validate.Error{Pkg: "toolkit", Object: o, Field: "shapeIn", Value: shapeIn, Rule: fmt.Sprintf("has %d values, the input %s gives %d", layers.Size(shapeIn), Ref(input), size)}
		}
		return slices.Clone(shapeIn), nil
	}
	if input.Indices() == nil {
		switch x := input.Obj().(type) {
		case *Node:
			if x.Layer != nil {
				return x.Layer.OutShape(), nil
			}
		case *Neurons:
			if x.Ensemble.Shape != nil {
				return slices.Clone(x.Ensemble.Shape), nil
			}
		}
	}
	return []int{size}, nil
}

// layerSeed derives a layer's parameter seed from the network seed and
// the layer's label.
func layerSeed(net *Network, label string) int64 {
	h := fnv.New64a()
	h.Write([]byte(label))
	root := net
	for root.parent != nil {
		root = root.parent
	}
	return int64(h.Sum64()>>1) ^ root.Seed
}
