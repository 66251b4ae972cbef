package networks

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit"
)

// EnsembleArrayNet is an array of independent ensembles that together
// represent one vector (nengo.networks.EnsembleArray): ensemble i
// represents dimensions [i·d, (i+1)·d) of Input and Output, d =
// DimsPerEnsemble. Decoded outputs added with AddOutput appear in
// Outputs; AddNeuronInput and AddNeuronOutput give direct access to all
// neurons.
type EnsembleArrayNet struct {
	Net                 *toolkit.Network
	Input, Output       *toolkit.Node
	Ensembles           []*toolkit.Ensemble
	NNeuronsPerEnsemble int
	NEnsembles          int
	DimsPerEnsemble     int
	// Outputs maps the names given to AddOutput (and "output") to their nodes.
	Outputs map[string]*toolkit.Node
	// NeuronInput and NeuronOutput are nil until AddNeuronInput and
	// AddNeuronOutput are called.
	NeuronInput, NeuronOutput *toolkit.Node
}

// EnsembleArray adds to parent a sub-network labelled label holding
// nEnsembles ensembles of nNeurons neurons and ensDims dimensions each
// (Nengo 4.1's EnsembleArray; ensDims is Nengo's ens_dimensions, 1 in
// Nengo). The ensembles, labelled label_i (or i when label is empty),
// take the parent's Defaults (Nengo's config), so set parent.Defaults
// before the call, or change the fields of Ensembles after it, for other
// radii, intercepts, encoders or neuron types. Input and Output are
// passthrough nodes of nEnsembles·ensDims dimensions joined to the
// ensembles by unfiltered connections (synapse None), as in Nengo.
func EnsembleArray(parent *toolkit.Network, label string, nNeurons, nEnsembles, ensDims int) (*EnsembleArrayNet, error) {
	const kind = "EnsembleArray"
	if err := checkParent(kind, label, parent); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "nNeurons", nNeurons); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "nEnsembles", nEnsembles); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "ensDims", ensDims); err != nil {
		return nil, err
	}
	net := parent.Network(label)
	size := nEnsembles * ensDims
	ea := &EnsembleArrayNet{Net: net, NNeuronsPerEnsemble: nNeurons, NEnsembles: nEnsembles,
		DimsPerEnsemble: ensDims, Outputs: map[string]*toolkit.Node{}}
	ea.Input = net.Passthrough("input", size)
	ea.Output = net.Passthrough("output", size)
	ea.Outputs["output"] = ea.Output
	for i := range nEnsembles {
		elabel := fmt.Sprint(i)
		if label != "" {
			elabel = fmt.Sprintf("%s_%d", label, i)
		}
		e := net.Ensemble(elabel, nNeurons, ensDims)
		ea.Ensembles = append(ea.Ensembles, e)
		c := net.Connect(ea.Input.Slice(i*ensDims, (i+1)*ensDims), e)
		c.Synapse = nil
	}
	for i, e := range ea.Ensembles {
		c := net.Connect(e, ea.Output.Slice(i*ensDims, (i+1)*ensDims))
		c.Synapse = nil
	}
	return ea, nil
}

// Dims returns the array's total dimensionality, NEnsembles·DimsPerEnsemble.
func (ea *EnsembleArrayNet) Dims() int { return ea.NEnsembles * ea.DimsPerEnsemble }

func (ea *EnsembleArrayNet) err(arg string, value any, rule string) error {
	return argErr("EnsembleArray", ea.Net.Label, arg, value, rule)
}

// AddOutput adds a passthrough node named name that collects fn decoded
// from every ensemble (Nengo's EnsembleArray.add_output): ensemble i's
// connection computes fn on its DimsPerEnsemble-vector and writes to
// components [i·k, (i+1)·k) of the node, k being the length of fn's
// result (found by calling fn on a zero vector). Connections are
// unfiltered and use the array network's Defaults.Solver, so set
// ea.Net.Defaults.Solver first for another solver. The node is also
// stored in Outputs[name].
func (ea *EnsembleArrayNet) AddOutput(name string, fn toolkit.Function) (*toolkit.Node, error) {
	if name == "" {
		return nil, ea.err("AddOutput.name", `""`, "must be non-empty")
	}
	if _, ok := ea.Outputs[name]; ok {
		return nil, ea.err("AddOutput.name", name, "already used by another output")
	}
	if fn == nil {
		return nil, ea.err("AddOutput.function", nil, "must be set")
	}
	k, err := outputSize(fn, ea.DimsPerEnsemble)
	if err != nil {
		return nil, ea.err("AddOutput.function", name, err.Error())
	}
	node := ea.Net.Passthrough(name, ea.NEnsembles*k)
	for i, e := range ea.Ensembles {
		c := ea.Net.Connect(e, node.Slice(i*k, (i+1)*k))
		c.Function = fn
		c.Synapse = nil
	}
	ea.Outputs[name] = node
	return node, nil
}

// outputSize calls fn on a zero vector of d dimensions and returns the
// length of its result, reporting a panic or an empty result as an error.
func outputSize(fn toolkit.Function, d int) (k int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked on a zero vector of %d dimensions: %v", d, r)
		}
	}()
	y := fn(make([]float64, d))
	if len(y) == 0 {
		return 0, fmt.Errorf("must return at least one value (got none for a zero vector of %d dimensions)", d)
	}
	return len(y), nil
}

// AddNeuronInput adds (once) a passthrough node "neuron_input" of
// NEnsembles·NNeuronsPerEnsemble values connected, unfiltered, to the
// neurons of every ensemble in order (Nengo's add_neuron_input).
func (ea *EnsembleArrayNet) AddNeuronInput() *toolkit.Node {
	if ea.NeuronInput != nil {
		return ea.NeuronInput
	}
	n := ea.NNeuronsPerEnsemble
	ea.NeuronInput = ea.Net.Passthrough("neuron_input", ea.NEnsembles*n)
	for i, e := range ea.Ensembles {
		c := ea.Net.Connect(ea.NeuronInput.Slice(i*n, (i+1)*n), e.Neurons())
		c.Synapse = nil
	}
	return ea.NeuronInput
}

// AddNeuronOutput adds (once) a passthrough node "neuron_output" carrying
// the output (spikes or rates) of every neuron, unfiltered (Nengo's
// add_neuron_output).
func (ea *EnsembleArrayNet) AddNeuronOutput() *toolkit.Node {
	if ea.NeuronOutput != nil {
		return ea.NeuronOutput
	}
	n := ea.NNeuronsPerEnsemble
	ea.NeuronOutput = ea.Net.Passthrough("neuron_output", ea.NEnsembles*n)
	for i, e := range ea.Ensembles {
		c := ea.Net.Connect(e.Neurons(), ea.NeuronOutput.Slice(i*n, (i+1)*n))
		c.Synapse = nil
	}
	return ea.NeuronOutput
}
