package main

import (
	"bytes"
	"strings"
	"testing"
)

// Flag errors exit 2 before anything is measured.
func TestBenchSimFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--opt", "merge,unroll"}, `"unroll" is not a pass`},
		{[]string{"--ablation", "--models", "pes"}, "--ablation takes no --models"},
		{[]string{"--ablation", "--opt", "none"}, "--ablation takes no --opt"},
		{[]string{"--models", "nope"}, "must be one of"},
		{[]string{"--compare", "brian"}, `only "nengo"`},
	} {
		var out, errb bytes.Buffer
		if code := cmdBenchSim(tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("bench sim %v: exit %d, stderr %q; want 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
}
