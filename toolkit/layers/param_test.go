package layers

import (
	"math"
	"strings"
	"testing"
)

func TestBoundsProject(t *testing.T) {
	cases := []struct {
		name string
		b    Bounds
		in   []float64
		want []float64
	}{
		{"inside", Bounds{-63, 63}, []float64{-63, 0, 62.5}, []float64{-63, 0, 62.5}},
		{"outside", Bounds{-63, 63}, []float64{-64, 100, math.Inf(1), math.Inf(-1)}, []float64{-63, 63, 63, -63}},
		{"one point", Bounds{1, 1}, []float64{-5, 5}, []float64{1, 1}},
		{"empty", Bounds{0, 1}, nil, nil},
	}
	for _, tc := range cases {
		v := append([]float64(nil), tc.in...)
		tc.b.Project(v)
		for i := range v {
			if v[i] != tc.want[i] {
				t.Errorf("%s: %v.Project(%v)[%d] = %v, want %v", tc.name, tc.b, tc.in, i, v[i], tc.want[i])
			}
		}
	}
	v := []float64{math.NaN()}
	Bounds{-1, 1}.Project(v)
	if !math.IsNaN(v[0]) {
		t.Errorf("Project(NaN) = %v, want NaN", v[0])
	}
}

func TestBoundsValidate(t *testing.T) {
	cases := []struct {
		b  Bounds
		ok bool
	}{
		{Bounds{-63, 63}, true},
		{Bounds{0, 0}, true},
		{Bounds{math.Inf(-1), 0}, true},
		{Bounds{1, -1}, false},
		{Bounds{math.NaN(), 1}, false},
		{Bounds{0, math.NaN()}, false},
	}
	for _, tc := range cases {
		if err := tc.b.Validate(); (err == nil) != tc.ok {
			t.Errorf("%v.Validate() = %v, want ok %v", tc.b, err, tc.ok)
		}
	}
	if got := (Bounds{-63, 63}).String(); got != "Bounds[-63, 63]" {
		t.Errorf("String = %q", got)
	}
}

func TestRoleString(t *testing.T) {
	for r, want := range map[Role]string{RoleOther: "other", RoleKernel: "kernel", RoleBias: "bias",
		RoleGamma: "gamma", RoleBeta: "beta", RoleMovingMean: "moving_mean",
		RoleMovingVariance: "moving_variance", Role(200): "Role(200)"} {
		if got := r.String(); got != want {
			t.Errorf("Role(%d).String() = %q, want %q", uint8(r), got, want)
		}
	}
}

// TestParamRoles: the built-in layers declare what each parameter is;
// the Role matches the Keras name and no built-in layer has a constraint.
func TestParamRoles(t *testing.T) {
	specs := []Spec{Dense{Units: 3}, Conv1D{Filters: 2, Kernel: 2}, Conv2D{Filters: 2, Kernel: []int{2}},
		BatchNorm{}}
	ins := [][]int{{4}, {5, 2}, {4, 4, 2}, {3}}
	for i, s := range specs {
		l, err := s.Build(ins[i], 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range l.Params() {
			if p.Role.String() != p.Name {
				t.Errorf("%s: parameter %q has role %v", l.Kind(), p.Name, p.Role)
			}
			if p.Constraint != nil {
				t.Errorf("%s: parameter %q has constraint %v", l.Kind(), p.Name, p.Constraint)
			}
		}
	}
}

// TestFuncParamDeclaration: Func keeps a parameter's Role and Constraint,
// Clone copies the arrays, and an invalid Bounds is refused.
func TestFuncParamDeclaration(t *testing.T) {
	id := func(params [][]float64, in, out []float64, batch int) error { copy(out, in); return nil }
	p := Param{Name: "w", Role: RoleKernel, Shape: []int{2}, Value: []float64{1, 2}, Trainable: true,
		Constraint: Bounds{-1, 1}}
	l, err := Func{Out: []int{2}, Params: []Param{p}, Forward: id}.Build([]int{2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := l.Params()[0]
	if got.Role != RoleKernel || got.Constraint != (Bounds{-1, 1}) {
		t.Errorf("Params()[0] = %+v, want role kernel and Bounds[-1, 1]", got)
	}
	c := got.Clone()
	c.Value[0], c.Shape[0] = 9, 9
	if got.Value[0] != 1 || got.Shape[0] != 2 || c.Role != got.Role || c.Constraint != got.Constraint {
		t.Errorf("Clone shares arrays or drops the declaration: %+v, %+v", got, c)
	}
	p.Constraint = Bounds{1, -1}
	_, err = Func{Out: []int{2}, Params: []Param{p}, Forward: id}.Build([]int{2}, 0)
	if err == nil || !strings.Contains(err.Error(), "constraint") {
		t.Errorf("Func with Bounds[1, -1]: error %v, want one naming the constraint", err)
	}
}
