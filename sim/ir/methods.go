package ir

import "slices"

// The methods every operator type has (Kind, String, Clone and the
// dispatch to its Lowerer method), one block per type.

// Kind is "Reset".
func (*Reset) Kind() string { return "Reset" }

func (o *Reset) String() string { return str("Reset", o.Tag) }

func (*Reset) lower(ops []Op, l Lowerer) error {
	t, err := typed[*Reset](ops)
	if err != nil {
		return err
	}
	return l.Reset(t)
}

// Clone returns a deep copy.
func (o *Reset) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "Copy".
func (*Copy) Kind() string { return "Copy" }

func (o *Copy) String() string { return str("Copy", o.Tag) }

func (*Copy) lower(ops []Op, l Lowerer) error {
	t, err := typed[*Copy](ops)
	if err != nil {
		return err
	}
	return l.Copy(t)
}

// Clone returns a deep copy.
func (o *Copy) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	c.XIdx = clip(o.XIdx)
	c.YIdx = clip(o.YIdx)
	return &c
}

// Kind is "ElementwiseInc".
func (*ElementwiseInc) Kind() string { return "ElementwiseInc" }

func (o *ElementwiseInc) String() string { return str("ElementwiseInc", o.Tag) }

func (*ElementwiseInc) lower(ops []Op, l Lowerer) error {
	t, err := typed[*ElementwiseInc](ops)
	if err != nil {
		return err
	}
	return l.ElementwiseInc(t)
}

// Clone returns a deep copy.
func (o *ElementwiseInc) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	c.AIdx = clip(o.AIdx)
	c.XIdx = clip(o.XIdx)
	c.YIdx = clip(o.YIdx)
	return &c
}

// Kind is "DotInc".
func (*DotInc) Kind() string { return "DotInc" }

func (o *DotInc) String() string { return str("DotInc", o.Tag) }

func (*DotInc) lower(ops []Op, l Lowerer) error {
	t, err := typed[*DotInc](ops)
	if err != nil {
		return err
	}
	return l.DotInc(t)
}

// Clone returns a deep copy.
func (o *DotInc) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "SparseDotInc".
func (*SparseDotInc) Kind() string { return "SparseDotInc" }

func (o *SparseDotInc) String() string { return str("SparseDotInc", o.Tag) }

func (*SparseDotInc) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SparseDotInc](ops)
	if err != nil {
		return err
	}
	return l.SparseDotInc(t)
}

// Clone returns a deep copy.
func (o *SparseDotInc) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	c.RowPtr = clip(o.RowPtr)
	c.Col = clip(o.Col)
	return &c
}

// Kind is "TimeUpdate".
func (*TimeUpdate) Kind() string { return "TimeUpdate" }

func (o *TimeUpdate) String() string { return str("TimeUpdate", o.Tag) }

func (*TimeUpdate) lower(ops []Op, l Lowerer) error {
	t, err := typed[*TimeUpdate](ops)
	if err != nil {
		return err
	}
	return l.TimeUpdate(t)
}

// Clone returns a deep copy.
func (o *TimeUpdate) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "SimNeurons".
func (*SimNeurons) Kind() string { return "SimNeurons" }

func (o *SimNeurons) String() string { return str("SimNeurons", o.Tag) }

func (*SimNeurons) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimNeurons](ops)
	if err != nil {
		return err
	}
	return l.SimNeurons(t)
}

// Clone returns a deep copy.
func (o *SimNeurons) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	c.State = clip(o.State)
	c.StateNames = slices.Clone(o.StateNames)
	return &c
}

// Kind is "SimSynapse".
func (*SimSynapse) Kind() string { return "SimSynapse" }

func (o *SimSynapse) String() string { return str("SimSynapse", o.Tag) }

func (*SimSynapse) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimSynapse](ops)
	if err != nil {
		return err
	}
	return l.SimSynapse(t)
}

// Clone returns a deep copy.
func (o *SimSynapse) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "SimProcess".
func (*SimProcess) Kind() string { return "SimProcess" }

func (o *SimProcess) String() string { return str("SimProcess", o.Tag) }

func (*SimProcess) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimProcess](ops)
	if err != nil {
		return err
	}
	return l.SimProcess(t)
}

// Clone returns a deep copy.
func (o *SimProcess) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "SimNodeFunc".
func (*SimNodeFunc) Kind() string { return "SimNodeFunc" }

func (o *SimNodeFunc) String() string { return str("SimNodeFunc", o.Tag) }

func (*SimNodeFunc) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimNodeFunc](ops)
	if err != nil {
		return err
	}
	return l.SimNodeFunc(t)
}

// Clone returns a deep copy.
func (o *SimNodeFunc) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	c.XIdx = clip(o.XIdx)
	return &c
}

// Kind is "SimLayer".
func (*SimLayer) Kind() string { return "SimLayer" }

func (o *SimLayer) String() string { return str("SimLayer", o.Tag) }

func (*SimLayer) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimLayer](ops)
	if err != nil {
		return err
	}
	return l.SimLayer(t)
}

// Clone returns a deep copy.
func (o *SimLayer) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	c.Params = clip(o.Params)
	return &c
}

// Kind is "SimPES".
func (*SimPES) Kind() string { return "SimPES" }

func (o *SimPES) String() string { return str("SimPES", o.Tag) }

func (*SimPES) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimPES](ops)
	if err != nil {
		return err
	}
	return l.SimPES(t)
}

// Clone returns a deep copy.
func (o *SimPES) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "SimBCM".
func (*SimBCM) Kind() string { return "SimBCM" }

func (o *SimBCM) String() string { return str("SimBCM", o.Tag) }

func (*SimBCM) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimBCM](ops)
	if err != nil {
		return err
	}
	return l.SimBCM(t)
}

// Clone returns a deep copy.
func (o *SimBCM) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "SimOja".
func (*SimOja) Kind() string { return "SimOja" }

func (o *SimOja) String() string { return str("SimOja", o.Tag) }

func (*SimOja) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimOja](ops)
	if err != nil {
		return err
	}
	return l.SimOja(t)
}

// Clone returns a deep copy.
func (o *SimOja) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "SimVoja".
func (*SimVoja) Kind() string { return "SimVoja" }

func (o *SimVoja) String() string { return str("SimVoja", o.Tag) }

func (*SimVoja) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimVoja](ops)
	if err != nil {
		return err
	}
	return l.SimVoja(t)
}

// Clone returns a deep copy.
func (o *SimVoja) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "SimRLS".
func (*SimRLS) Kind() string { return "SimRLS" }

func (o *SimRLS) String() string { return str("SimRLS", o.Tag) }

func (*SimRLS) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimRLS](ops)
	if err != nil {
		return err
	}
	return l.SimRLS(t)
}

// Clone returns a deep copy.
func (o *SimRLS) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}

// Kind is "DotIncPES".
func (*DotIncPES) Kind() string { return "DotIncPES" }

func (o *DotIncPES) String() string { return str("DotIncPES", o.Tag) }

func (*DotIncPES) lower(ops []Op, l Lowerer) error {
	t, err := typed[*DotIncPES](ops)
	if err != nil {
		return err
	}
	return l.DotIncPES(t)
}

// Clone returns a deep copy.
func (o *DotIncPES) Clone() Op {
	c := *o
	c.DotInc.Base = o.DotInc.Base.clone()
	return &c
}

// Kind is "EnsembleReLU".
func (*EnsembleReLU) Kind() string { return "EnsembleReLU" }

func (o *EnsembleReLU) String() string { return str("EnsembleReLU", o.Tag) }

func (*EnsembleReLU) lower(ops []Op, l Lowerer) error {
	t, err := typed[*EnsembleReLU](ops)
	if err != nil {
		return err
	}
	return l.EnsembleReLU(t)
}

// Clone returns a deep copy.
func (o *EnsembleReLU) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	c.Decoders = make([]*DotInc, len(o.Decoders))
	for i, d := range o.Decoders {
		c.Decoders[i] = d.Clone().(*DotInc)
	}
	return &c
}

// Kind is "SimCallback".
func (*SimCallback) Kind() string { return "SimCallback" }

func (o *SimCallback) String() string { return str("SimCallback", o.Tag) }

func (*SimCallback) lower(ops []Op, l Lowerer) error {
	t, err := typed[*SimCallback](ops)
	if err != nil {
		return err
	}
	return l.SimCallback(t)
}

// Clone returns a deep copy (the functions are shared).
func (o *SimCallback) Clone() Op {
	c := *o
	c.Base = o.Base.clone()
	return &c
}
