package stream

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// exprTol is the tolerance for evaluated expressions: one rounding of a
// few float64 operations.
const exprTol = 1e-12

func TestEval(t *testing.T) {
	vars := map[string]float64{"glob_input_size": 28, "k": 3, "neg": -7}
	cases := []struct {
		expr string
		want float64
	}{
		{"1", 1}, {"1e-3", 1e-3}, {"2.5E2", 250}, {".5", 0.5},
		{"glob_input_size // 2", 14}, {"glob_input_size // 4", 7},
		{"1 + 2 * 3", 7}, {"(1 + 2) * 3", 9}, {"7 / 2", 3.5}, {"7 // 2", 3},
		{"-7 // 2", -4}, {"neg % 3", 2}, {"7 % -3", -2}, {"2 ** 3 ** 2", 512},
		{"-2 ** 2", -4}, {"2 ** -1", 0.5}, {"--3", 3}, {"+k", 3},
		{"min(4, k, 9)", 3}, {"max(1, glob_input_size / 4)", 7}, {"abs(neg)", 7},
		{"int(3.9)", 3}, {"int(-3.9)", -3}, {"round(2.5)", 2}, {"round(3.5)", 4},
		{"k*k - 1", 8}, {"  k  ", 3},
	}
	for _, c := range cases {
		got, err := Eval(c.expr, vars)
		if err != nil || math.Abs(got-c.want) > exprTol {
			t.Errorf("Eval(%q) = %g, %v; want %g", c.expr, got, err, c.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	vars := map[string]float64{"glob_input_size": 28}
	cases := []struct {
		expr string
		col  int
		msg  string
	}{
		{"glob_input_sise // 2", 1, `unknown name "glob_input_sise"`},
		{"1 / 0", 3, "division by zero"},
		{"1 // (2 - 2)", 3, "division by zero"},
		{"5 % 0", 3, "division by zero"},
		{"0 ** -1", 3, "division by zero"},
		{"__import__('os')", 1, `unknown function "__import__"`},
		{"os.system", 1, `unknown name "os"`},
		{"glob_input_size.real", 16, "unexpected character '.'"},
		{"lambda: 1", 1, `unknown name "lambda"`},
		{"'28'", 1, "strings are not allowed"},
		{"[1, 2]", 1, "unexpected character '['"},
		{"exec(1)", 1, `unknown function "exec"`},
		{"1 +", 4, "unexpected end of expression"},
		{"(1 + 2", 7, `expected ")"`},
		{"1 2", 3, "unexpected number 2"},
		{"", 1, "unexpected end of expression"},
		{"min(1)", 1, "at least 2 arguments"},
		{"abs(1, 2)", 1, "needs 1 argument"},
		{"10 ** 400", 4, "not a finite number"},
		{"(-8) ** 0.5", 6, "not a finite number"},
		{strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), 0, "nested too deeply"},
	}
	for _, c := range cases {
		_, err := Eval(c.expr, vars)
		var e *ExprError
		if !errors.As(err, &e) {
			t.Errorf("Eval(%q): error %v, want an *ExprError", c.expr, err)
			continue
		}
		if (c.col > 0 && e.Col != c.col) || !strings.Contains(e.Msg, c.msg) || e.Expr != c.expr {
			t.Errorf("Eval(%q) = %v (column %d), want column %d and %q", c.expr, err, e.Col, c.col, c.msg)
		}
	}
	if _, err := evalInt("28 / 8", vars); err == nil || !strings.Contains(err.Error(), "must be an integer, got 3.5") {
		t.Errorf("evalInt(28 / 8): %v", err)
	}
	if v, err := evalInt("28 / 4", vars); err != nil || v != 7 {
		t.Errorf("evalInt(28 / 4) = %d, %v", v, err)
	}
}
