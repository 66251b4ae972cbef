package networks

import (
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// IntegratorNet accumulates its input (Nengo 2's
// nengo.networks.Integrator): dx/dt ≈ Input.
type IntegratorNet struct {
	Net      *toolkit.Network
	Input    *toolkit.Node
	Ensemble *toolkit.Ensemble
	// Output is the ensemble itself (decoded value), as in Nengo.
	Output       *toolkit.Ensemble
	RecurrentTau float64
}

// Integrator adds an integrator of dims dimensions (Nengo 2.x's network;
// Nengo 3+ dropped it from the library): an ensemble of nNeurons neurons
// connected to itself through Lowpass(recurrentTau) with transform 1, fed
// by the Input node through an unfiltered connection with transform
// recurrentTau. By the NEF's dynamics principle (Eliasmith & Anderson
// 2003, ch. 8), a lowpass τ with feedback A' = τA + I and input
// B' = τB implements dx/dt = Ax + Bu; here A = 0, B = 1.
func Integrator(parent *toolkit.Network, label string, recurrentTau float64, nNeurons, dims int) (*IntegratorNet, error) {
	const kind = "Integrator"
	if err := checkParent(kind, label, parent); err != nil {
		return nil, err
	}
	if err := checkPositive(kind, label, "recurrentTau", recurrentTau); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "nNeurons", nNeurons); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "dims", dims); err != nil {
		return nil, err
	}
	net := parent.Network(label)
	in := &IntegratorNet{Net: net, RecurrentTau: recurrentTau}
	in.Input = net.Passthrough("input", dims)
	in.Ensemble = net.Ensemble("ensemble", nNeurons, dims)
	in.Output = in.Ensemble
	net.Connect(in.Ensemble, in.Ensemble).Synapse = synapses.Lowpass{Tau: recurrentTau}
	c := net.Connect(in.Input, in.Ensemble)
	c.Transform = toolkit.Scalar(recurrentTau)
	c.Synapse = nil
	return in, nil
}

// OscillatorNet is a 2-D harmonic oscillator (Nengo 2's
// nengo.networks.Oscillator).
type OscillatorNet struct {
	Net          *toolkit.Network
	Input        *toolkit.Node
	Ensemble     *toolkit.Ensemble
	Output       *toolkit.Ensemble // the ensemble itself
	RecurrentTau float64
	Frequency    float64 // angular frequency, rad/s
}

// Oscillator adds Nengo 2.x's oscillator: a 2-D ensemble of nNeurons
// neurons recurrently connected through Lowpass(recurrentTau) with
// transform [[1, −ωτ], [ωτ, 1]], which implements the rotation
// dx/dt = [[0, −ω], [ω, 0]]·x (NEF dynamics, as for Integrator). frequency
// is ω in rad/s, as in Nengo (the period is 2π/ω). Input (2-D) enters the
// ensemble unfiltered; a brief kick starts the oscillation, whose
// amplitude the neurons then keep near the radius.
func Oscillator(parent *toolkit.Network, label string, recurrentTau, frequency float64, nNeurons int) (*OscillatorNet, error) {
	const kind = "Oscillator"
	if err := checkParent(kind, label, parent); err != nil {
		return nil, err
	}
	if err := checkPositive(kind, label, "recurrentTau", recurrentTau); err != nil {
		return nil, err
	}
	if err := checkFinite(kind, label, "frequency", frequency); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "nNeurons", nNeurons); err != nil {
		return nil, err
	}
	net := parent.Network(label)
	o := &OscillatorNet{Net: net, RecurrentTau: recurrentTau, Frequency: frequency}
	o.Input = net.Passthrough("input", 2)
	o.Ensemble = net.Ensemble("ensemble", nNeurons, 2)
	o.Output = o.Ensemble
	wt := frequency * recurrentTau
	rec := net.Connect(o.Ensemble, o.Ensemble)
	rec.Transform = toolkit.Dense([][]float64{{1, -wt}, {wt, 1}})
	rec.Synapse = synapses.Lowpass{Tau: recurrentTau}
	net.Connect(o.Input, o.Ensemble).Synapse = nil
	return o, nil
}

// InputGatedMemoryConfig holds the InputGatedMemory parameters;
// DefaultInputGatedMemory gives Nengo 4.1's.
type InputGatedMemoryConfig struct {
	Feedback       float64 // memory → memory transform
	DifferenceGain float64 // difference → memory transform
	// RecurrentSynapse filters the memory's feedback; DifferenceSynapse
	// the difference → memory connection (nil: RecurrentSynapse, as in
	// Nengo).
	RecurrentSynapse, DifferenceSynapse synapses.Synapse
}

// DefaultInputGatedMemory returns Nengo 4.1's parameters: feedback 1,
// difference gain 1, recurrent synapse Lowpass(0.1), difference synapse
// the recurrent one.
func DefaultInputGatedMemory() InputGatedMemoryConfig {
	return InputGatedMemoryConfig{Feedback: 1, DifferenceGain: 1, RecurrentSynapse: synapses.Lowpass{Tau: 0.1}}
}

// InputGatedMemoryNet stores a vector while its gate is open and holds it
// when the gate is closed (nengo.networks.InputGatedMemory).
type InputGatedMemoryNet struct {
	Net *toolkit.Network
	// Input is Diff's input; Output is Mem's output.
	Input, Output *toolkit.Node
	// Gate closes the memory when driven to 1 (it inhibits Diff's
	// neurons); Reset drives the memory to 0 when driven to 1.
	Gate, Reset *toolkit.Node
	Mem, Diff   *EnsembleArrayNet
	Dims        int
	Config      InputGatedMemoryConfig
}

// InputGatedMemory adds Nengo 4.1's gated memory of dims dimensions with
// nNeurons neurons per dimension; cfg nil means DefaultInputGatedMemory().
// Two ensemble arrays of 1-D ensembles: "mem" holds the value through its
// feedback (transform Feedback, RecurrentSynapse); "diff" computes
// Input − mem (mem enters with transform −1 through the default synapse)
// and drives mem with transform DifferenceGain through DifferenceSynapse.
// Gate inhibits all of diff's neurons (transform −10, unfiltered), so
// with the gate at 0 mem follows the input and at 1 it holds; Reset
// inhibits mem's neurons (−3).
func InputGatedMemory(parent *toolkit.Network, label string, nNeurons, dims int, cfg *InputGatedMemoryConfig) (*InputGatedMemoryNet, error) {
	const kind = "InputGatedMemory"
	c := DefaultInputGatedMemory()
	if cfg != nil {
		c = *cfg
	}
	if c.DifferenceSynapse == nil {
		c.DifferenceSynapse = c.RecurrentSynapse
	}
	if err := checkParent(kind, label, parent); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "nNeurons", nNeurons); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "dims", dims); err != nil {
		return nil, err
	}
	if err := checkFinite(kind, label, "Feedback", c.Feedback); err != nil {
		return nil, err
	}
	if err := checkFinite(kind, label, "DifferenceGain", c.DifferenceGain); err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		syn  synapses.Synapse
	}{{"RecurrentSynapse", c.RecurrentSynapse}, {"DifferenceSynapse", c.DifferenceSynapse}} {
		if s.syn == nil {
			return nil, argErr(kind, label, s.name, nil, "must be set (a synapse)")
		}
		if err := s.syn.Validate(); err != nil {
			return nil, argErr(kind, label, s.name, s.syn.Name(), "invalid synapse: "+err.Error())
		}
	}
	net := parent.Network(label)
	m := &InputGatedMemoryNet{Net: net, Dims: dims, Config: c}
	var err error
	if m.Mem, err = EnsembleArray(net, "mem", nNeurons, dims, 1); err != nil {
		return nil, err
	}
	if m.Diff, err = EnsembleArray(net, "diff", nNeurons, dims, 1); err != nil {
		return nil, err
	}
	m.Input, m.Output = m.Diff.Input, m.Mem.Output
	fb := net.Connect(m.Mem.Output, m.Mem.Input)
	fb.Transform, fb.Synapse = toolkit.Scalar(c.Feedback), c.RecurrentSynapse
	net.Connect(m.Mem.Output, m.Diff.Input).Transform = toolkit.Scalar(-1)
	d := net.Connect(m.Diff.Output, m.Mem.Input)
	d.Transform, d.Synapse = toolkit.Scalar(c.DifferenceGain), c.DifferenceSynapse
	m.Gate = net.Passthrough("gate", 1)
	m.Reset = net.Passthrough("reset", 1)
	for _, g := range []struct {
		pre *toolkit.Node
		ea  *EnsembleArrayNet
		w   float64
	}{{m.Gate, m.Diff, -10}, {m.Reset, m.Mem, -3}} {
		col := make([][]float64, nNeurons*dims)
		for i := range col {
			col[i] = []float64{g.w}
		}
		conn := net.Connect(g.pre, g.ea.AddNeuronInput())
		conn.Transform, conn.Synapse = toolkit.Dense(col), nil
	}
	return m, nil
}

func lowpass(tau float64) synapses.Synapse { return synapses.Lowpass{Tau: tau} }
