package nengobridge

import (
	"encoding/json"
	"fmt"
	"math"
)

// Spec is a model built by Nengo, as the Python side hands it over
// (JSON). Signal indices in operators and probes are indices of Signals.
type Spec struct {
	Dt      float64      `json:"dt"`
	Signals []SignalSpec `json:"signals"`
	// Time and Step are the signals Nengo's TimeUpdate advances.
	Time int      `json:"time"`
	Step int      `json:"step"`
	Ops  []OpSpec `json:"ops"`
	// Probes record a signal (or the elements Idx of it) every Period
	// steps, as Nengo's probes do.
	Probes []ProbeSpec `json:"probes"`
	// NoOptimize switches neurogo's optimiser off (operators run one by
	// one in dependency order).
	NoOptimize bool `json:"no_optimize"`
	// NoNaNCheck switches the per-step check for NaN off.
	NoNaNCheck bool `json:"no_nan_check"`
}

// SignalSpec is one of Nengo's base signals.
type SignalSpec struct {
	Name     string `json:"name"`
	Size     int    `json:"size"`
	ReadOnly bool   `json:"readonly"`
	// Init is the offset of the signal's initial value in the buffer of
	// initial values New receives (Size values), or -1 for zeros.
	Init int `json:"init"`
}

// OpSpec is one of Nengo's operators. Type is the neurogo operator it
// becomes ("Reset", "Copy", "ElementwiseInc", "DotInc", "SparseDotInc",
// "TimeUpdate", "SimNeurons", "SimSynapse", "SimProcess", "SimPES",
// "SimBCM", "SimOja", "SimVoja", "SimRLS"), "ConvInc" (Nengo's
// convolution, run by Go code of this package; Ints["conv"] holds its
// shape) or "Callback": an operator the
// Python side runs itself, identified by Handle.
type OpSpec struct {
	Type    string `json:"type"`
	Tag     string `json:"tag"`
	Sets    []int  `json:"sets"`
	Incs    []int  `json:"incs"`
	Reads   []int  `json:"reads"`
	Updates []int  `json:"updates"`
	// Sig names the operator's signal operands ("A", "X", "Y", …).
	Sig map[string]int `json:"sig"`
	// Idx holds the index lists of view operands (Copy and
	// ElementwiseInc: "X", "Y", "A").
	Idx map[string][]int `json:"idx"`
	// Num holds scalar parameters ("value", "learning_rate", "beta").
	Num map[string]float64 `json:"num"`
	// Ints holds integer arrays (SparseDotInc: "indptr", "indices";
	// ConvInc: "conv").
	Ints map[string][]int `json:"ints"`
	Inc  bool             `json:"inc"`
	// State and StateNames are a SimNeurons' state signals and Nengo's
	// names for them.
	State      []int        `json:"state"`
	StateNames []string     `json:"state_names"`
	Neuron     *NeuronSpec  `json:"neuron"`
	Synapse    *SynapseSpec `json:"synapse"`
	Process    *ProcessSpec `json:"process"`
	Handle     int          `json:"handle"`
}

// NeuronSpec is a Nengo neuron type: its class name, its parameters by
// Nengo's attribute names, and for the spiking wrappers (RegularSpiking,
// …) the wrapped rate type.
type NeuronSpec struct {
	Type   string             `json:"type"`
	Params map[string]float64 `json:"params"`
	Base   *NeuronSpec        `json:"base"`
}

// SynapseSpec is a Nengo synapse: "Lowpass" and "Alpha" (Tau),
// "Triangle" (T), or "LinearFilter" (Num, Den, Analog, Method).
type SynapseSpec struct {
	Type   string    `json:"type"`
	Tau    float64   `json:"tau"`
	T      float64   `json:"t"`
	Num    []float64 `json:"num"`
	Den    []float64 `json:"den"`
	Analog bool      `json:"analog"`
	Method string    `json:"method"`
}

// ProcessSpec is a Nengo process with a Go equivalent: "PresentInput"
// (Inputs, PresentationTime), "Piecewise" with interpolation "zero"
// (Times, Values), or "Table": output row round(t/dt) mod Rows of the
// operator's input signal, a Rows×Dims table the Python side fills (a
// WhiteSignal, from Nengo's own generator).
type ProcessSpec struct {
	Type             string      `json:"type"`
	Inputs           [][]float64 `json:"inputs"`
	PresentationTime float64     `json:"presentation_time"`
	Times            []float64   `json:"times"`
	Values           [][]float64 `json:"values"`
	Rows             int         `json:"rows"`
	Dims             int         `json:"dims"`
}

// ProbeSpec is one of Nengo's probes.
type ProbeSpec struct {
	Label  string  `json:"label"`
	Signal int     `json:"signal"`
	Idx    []int   `json:"idx"`
	Period float64 `json:"period"`
}

// ParseSpec decodes the JSON form of a Spec and checks what every
// operator relies on: dt, signal sizes and every signal index.
func ParseSpec(data []byte) (*Spec, error) {
	var s Spec
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("nengobridge: the model description is not valid JSON: %w", err)
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *Spec) check() error {
	if !(s.Dt > 0) || math.IsInf(s.Dt, 1) {
		return fmt.Errorf("nengobridge: dt = %v: must be positive and finite", s.Dt)
	}
	n := len(s.Signals)
	for i, g := range s.Signals {
		if g.Size < 0 {
			return fmt.Errorf("nengobridge: signal %d (%s): size %d is negative", i, g.Name, g.Size)
		}
	}
	in := func(what string, i int) error {
		if i < 0 || i >= n {
			return fmt.Errorf("nengobridge: %s: signal %d is not one of the %d signals", what, i, n)
		}
		return nil
	}
	if err := in("time", s.Time); err != nil {
		return err
	}
	if err := in("step", s.Step); err != nil {
		return err
	}
	for k, op := range s.Ops {
		what := fmt.Sprintf("operator %d (%s %s)", k, op.Type, op.Tag)
		for _, l := range [][]int{op.Sets, op.Incs, op.Reads, op.Updates, op.State} {
			for _, i := range l {
				if err := in(what, i); err != nil {
					return err
				}
			}
		}
		for name, i := range op.Sig {
			if err := in(what+" "+name, i); err != nil {
				return err
			}
		}
	}
	for k, p := range s.Probes {
		if err := in(fmt.Sprintf("probe %d (%s)", k, p.Label), p.Signal); err != nil {
			return err
		}
	}
	return nil
}
