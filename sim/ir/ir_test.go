package ir_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim/ir"
)

// every returns one operator of each type.
func every() []ir.Op {
	return []ir.Op{
		&ir.Reset{}, &ir.Copy{}, &ir.ElementwiseInc{}, &ir.DotInc{}, &ir.SparseDotInc{}, &ir.TimeUpdate{},
		&ir.SimNeurons{}, &ir.SimSynapse{}, &ir.SimProcess{}, &ir.SimNodeFunc{}, &ir.SimLayer{},
		&ir.SimPES{}, &ir.SimBCM{}, &ir.SimOja{}, &ir.SimVoja{}, &ir.SimRLS{}, &ir.SimCallback{},
		&ir.DotIncPES{}, &ir.EnsembleReLU{},
	}
}

// recorder is a Lowerer that records which method ran with how many
// operators.
type recorder struct{ calls []string }

func (r *recorder) rec(name string, n int) error {
	r.calls = append(r.calls, fmt.Sprintf("%s×%d", name, n))
	return nil
}

func (r *recorder) Reset(o []*ir.Reset) error { return r.rec("Reset", len(o)) }
func (r *recorder) Copy(o []*ir.Copy) error   { return r.rec("Copy", len(o)) }
func (r *recorder) ElementwiseInc(o []*ir.ElementwiseInc) error {
	return r.rec("ElementwiseInc", len(o))
}
func (r *recorder) DotInc(o []*ir.DotInc) error             { return r.rec("DotInc", len(o)) }
func (r *recorder) SparseDotInc(o []*ir.SparseDotInc) error { return r.rec("SparseDotInc", len(o)) }
func (r *recorder) TimeUpdate(o []*ir.TimeUpdate) error     { return r.rec("TimeUpdate", len(o)) }
func (r *recorder) SimNeurons(o []*ir.SimNeurons) error     { return r.rec("SimNeurons", len(o)) }
func (r *recorder) SimSynapse(o []*ir.SimSynapse) error     { return r.rec("SimSynapse", len(o)) }
func (r *recorder) SimProcess(o []*ir.SimProcess) error     { return r.rec("SimProcess", len(o)) }
func (r *recorder) SimNodeFunc(o []*ir.SimNodeFunc) error   { return r.rec("SimNodeFunc", len(o)) }
func (r *recorder) SimLayer(o []*ir.SimLayer) error         { return r.rec("SimLayer", len(o)) }
func (r *recorder) SimPES(o []*ir.SimPES) error             { return r.rec("SimPES", len(o)) }
func (r *recorder) SimBCM(o []*ir.SimBCM) error             { return r.rec("SimBCM", len(o)) }
func (r *recorder) SimOja(o []*ir.SimOja) error             { return r.rec("SimOja", len(o)) }
func (r *recorder) SimVoja(o []*ir.SimVoja) error           { return r.rec("SimVoja", len(o)) }
func (r *recorder) SimRLS(o []*ir.SimRLS) error             { return r.rec("SimRLS", len(o)) }
func (r *recorder) SimCallback(o []*ir.SimCallback) error   { return r.rec("SimCallback", len(o)) }
func (r *recorder) DotIncPES(o []*ir.DotIncPES) error       { return r.rec("DotIncPES", len(o)) }
func (r *recorder) EnsembleReLU(o []*ir.EnsembleReLU) error { return r.rec("EnsembleReLU", len(o)) }

// Every type reaches the Lowerer method of its own name, alone and as a
// group, and Kind and String name it.
func TestLowerDispatch(t *testing.T) {
	ops := every()
	if n := reflect.TypeFor[ir.Lowerer]().NumMethod(); n != len(ops) {
		t.Fatalf("Lowerer has %d methods, the test knows %d types", n, len(ops))
	}
	seen := map[string]bool{}
	for _, op := range ops {
		kind := reflect.TypeOf(op).Elem().Name()
		if op.Kind() != kind || seen[kind] {
			t.Errorf("%T: Kind() = %q", op, op.Kind())
		}
		seen[kind] = true
		op.Info().Tag = "x"
		if op.String() != kind+"(x)" {
			t.Errorf("%T: String() = %q", op, op.String())
		}
		r := &recorder{}
		if err := ir.Lower(r, op, op.Clone()); err != nil {
			t.Fatal(err)
		}
		if want := []string{kind + "×2"}; !reflect.DeepEqual(r.calls, want) {
			t.Errorf("%s: Lower called %v, want %v", kind, r.calls, want)
		}
	}
	if err := ir.Lower(&recorder{}); err != nil {
		t.Errorf("Lower of nothing: %v", err)
	}
}

// A group of two types is an error naming both.
func TestLowerMixed(t *testing.T) {
	err := ir.Lower(&recorder{}, &ir.Copy{Base: ir.Base{Tag: "c"}}, &ir.Reset{Base: ir.Base{Tag: "r"}})
	if err == nil || !strings.Contains(err.Error(), "Reset(r)") || !strings.Contains(err.Error(), "Copy") {
		t.Fatalf("mixed group: %v", err)
	}
}

// Clone copies every index list: changing the clone leaves the original.
func TestCloneDeep(t *testing.T) {
	e := &ir.EnsembleReLU{Base: ir.Base{Tag: "e", Reads: []int{1, 2}},
		Decoders: []*ir.DotInc{{Base: ir.Base{Sets: []int{3}}, A: 4, X: 5, Y: 3, Bias: ir.None}}}
	c := e.Clone().(*ir.EnsembleReLU)
	c.Reads[0], c.Decoders[0].Sets[0], c.Decoders[0].A = 9, 9, 9
	if e.Reads[0] != 1 || e.Decoders[0].Sets[0] != 3 || e.Decoders[0].A != 4 {
		t.Errorf("clone shares state with the original: %+v", e)
	}
	cp := &ir.Copy{XIdx: []int{0, 1}, YIdx: []int{2}}
	c2 := cp.Clone().(*ir.Copy)
	c2.XIdx[0], c2.YIdx[0] = 7, 7
	if cp.XIdx[0] != 0 || cp.YIdx[0] != 2 {
		t.Errorf("Copy clone shares index lists")
	}
	n := &ir.SimNeurons{State: []int{1}, StateNames: []string{"voltage"}}
	c3 := n.Clone().(*ir.SimNeurons)
	c3.State[0], c3.StateNames[0] = 5, "x"
	if n.State[0] != 1 || n.StateNames[0] != "voltage" {
		t.Errorf("SimNeurons clone shares state lists")
	}
}
