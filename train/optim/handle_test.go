package optim

import (
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/layers"
)

// TestApplyConstraints: each var's declared constraint projects its
// Value; vars without a Param or a Constraint are left alone.
func TestApplyConstraints(t *testing.T) {
	bounded := &layers.Param{Name: "kernel", Role: layers.RoleKernel, Constraint: layers.Bounds{Lo: -63, Hi: 63}}
	free := &layers.Param{Name: "bias", Role: layers.RoleBias}
	vars := []*Var{
		{Name: "a.kernel", Value: []float64{-70, 5, 64}, Param: bounded},
		{Name: "a.bias", Value: []float64{-70, 64}, Param: free},
		{Name: "e.bias", Value: []float64{100}},
	}
	ApplyConstraints(vars)
	want := [][]float64{{-63, 5, 63}, {-70, 64}, {100}}
	for i, v := range vars {
		for j := range v.Value {
			if v.Value[j] != want[i][j] {
				t.Errorf("%s: %v, want %v", v.Name, v.Value, want[i])
				break
			}
		}
	}
	ApplyConstraints(nil)
	ApplyConstraints([]*Var{nil})
}

// TestMultiTypedRules: rules select by the owner's identity and by the
// parameter's Role, whatever the names.
func TestMultiTypedRules(t *testing.T) {
	type object struct{ label string }
	conv, dense := &object{"same"}, &object{"same"} // equal labels, different objects
	kernel := &layers.Param{Role: layers.RoleKernel}
	bias := &layers.Param{Role: layers.RoleBias}
	mk := func(name string, owner any, p *layers.Param) *Var {
		return &Var{Name: name, Kind: "Layer", Value: []float64{0}, Grad: []float64{1}, Owner: owner, Param: p}
	}
	vars := []*Var{
		mk("x.kernel", conv, kernel), // rule 0 (owner)
		mk("x.bias", conv, bias),     // rule 0 (owner, first rule wins)
		mk("y.kernel", dense, kernel),
		mk("y.bias", dense, bias), // rule 1 (role)
		mk("z", nil, nil),         // default
	}
	m := &Multi{
		Rules:   []Rule{{Owner: conv, Opt: &SGD{LR: 1}}, {Role: layers.RoleBias, Opt: &SGD{LR: 2}}},
		Default: &SGD{LR: 3},
	}
	if err := m.Step(vars, 1); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{-1, -1, -3, -2, -3} {
		if vars[i].Value[0] != want {
			t.Errorf("%s: %g, want %g", vars[i].Name, vars[i].Value[0], want)
		}
	}
	m.Default = nil
	if err := m.Step(vars[2:3], 2); err == nil || !strings.Contains(err.Error(), `"y.kernel"`) {
		t.Errorf("unmatched var: %v, want an error naming it", err)
	}
}

func TestMultiRuleSelectors(t *testing.T) {
	cases := []struct {
		name string
		r    Rule
		want string
	}{
		{"none", Rule{Opt: &SGD{}}, "Rules[0].Match is empty"},
		{"two", Rule{Match: "Dense", Role: layers.RoleBias, Opt: &SGD{}}, "must set exactly one"},
		{"three", Rule{Match: "Dense", Owner: new(int), Role: layers.RoleBias, Opt: &SGD{}}, "sets 3 of"},
		{"slice owner", Rule{Owner: []int{1}, Opt: &SGD{}}, "must be comparable"},
	}
	for _, tc := range cases {
		err := (&Multi{Rules: []Rule{tc.r}}).Step([]*Var{{Name: "p", Value: []float64{0}, Grad: []float64{0}}}, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
