package validate

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestErrorMessage(t *testing.T) {
	cases := []struct {
		name string
		e    Error
		want string
	}{
		{"toolkit", Error{Pkg: "toolkit", Object: `Ensemble "a"`, Field: "N", Value: -3, Rule: "must be positive"},
			`toolkit: Ensemble "a".N = -3: must be positive`},
		{"wrapped", Error{Pkg: "toolkit", Object: `Ensemble "a"`, Field: "Neuron", Value: "LIF", Rule: "invalid",
			Err: io.EOF}, `toolkit: Ensemble "a".Neuron = LIF: invalid: EOF`},
		{"nil value", Error{Pkg: "layers", Object: "Func", Field: "Forward", Value: nil, Rule: "must be set"},
			"layers: Func.Forward = <nil>: must be set"},
		{"empty value", Error{Pkg: "solvers", Object: "Lstsq", Field: "A", Value: "", Rule: "SVD did not converge"},
			"solvers: Lstsq.A = : SVD did not converge"},
		{"slice value", Error{Pkg: "dists", Object: "Choice", Field: "Weights", Value: []float64{0, 0},
			Rule: "must have a positive sum"}, "dists: Choice.Weights = [0 0]: must have a positive sum"},
		{"spec", Error{Pos: Pos{File: "net.st_graph", Line: 23, Col: 9}, Object: "neuron_pools.conv1", Field: "act",
			Value: NoValue{}, Rule: `unknown activation "rleu"`, Suggest: "relu"},
			`net.st_graph:23:9: neuron_pools.conv1.act: unknown activation "rleu" (did you mean "relu"?)`},
		{"spec without file", Error{Pos: Pos{Line: 3, Col: 1}, Object: "agents", Value: NoValue{}, Rule: "expected an integer"},
			"<input>:3:1: agents: expected an integer"},
		{"spec without position", Error{Object: "neuron_pools", Field: "x", Value: NoValue{}, Rule: "bad"},
			"neuron_pools.x: bad"},
		{"field only", Error{Field: "agents", Value: NoValue{}, Rule: "bad"}, "agents: bad"},
		{"rule only", Error{Pos: Pos{File: "f", Line: 1, Col: 2}, Value: NoValue{}, Rule: "malformed YAML: x"},
			"f:1:2: malformed YAML: x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.e.Error(); got != c.want {
				t.Errorf("Error() = %q, want %q", got, c.want)
			}
		})
	}
}

func TestErrorsAs(t *testing.T) {
	inner := &Error{Pkg: "neurons", Object: "LIF", Field: "TauRC", Value: 0.0, Rule: "must be positive and finite"}
	outer := &Error{Pkg: "toolkit", Object: `Ensemble "a"`, Field: "Neuron", Value: "LIF", Rule: "invalid", Err: inner}
	err := fmt.Errorf("build: %w", outer)
	var ve *Error
	if !errors.As(err, &ve) || ve != outer {
		t.Fatalf("errors.As found %v, want the outer error", ve)
	}
	if !errors.Is(err, inner) {
		t.Errorf("errors.Is(err, inner) = false; Unwrap must reach the underlying error")
	}
	if (&Error{}).Unwrap() != nil {
		t.Errorf("Unwrap of an Error without Err is not nil")
	}
}

func TestPos(t *testing.T) {
	for _, c := range []struct {
		p    Pos
		zero bool
		s    string
	}{
		{Pos{}, true, "<input>:0:0"},
		{Pos{File: "a.yaml"}, false, "a.yaml:0:0"},
		{Pos{Line: 2, Col: 5}, false, "<input>:2:5"},
	} {
		if c.p.IsZero() != c.zero || c.p.String() != c.s {
			t.Errorf("%+v: IsZero %v String %q, want %v %q", c.p, c.p.IsZero(), c.p.String(), c.zero, c.s)
		}
	}
}
