package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// bench blas --quick --json prints the run line and one row per case
// with positive rates; no timing is checked.
func TestBenchBLASQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of products")
	}
	var out, errb bytes.Buffer
	if code := cmdBenchBLAS([]string{"--quick", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("bench blas --quick --json: exit %d, stderr %q", code, errb.String())
	}
	sc := bufio.NewScanner(&out)
	sc.Scan()
	if !strings.HasPrefix(sc.Text(), `{"run":`) {
		t.Fatalf("first line %q is not the run record", sc.Text())
	}
	rows := 0
	for sc.Scan() {
		var r blasRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if !(r.GFLOPs > 0 && r.PeerFLOPs > 0) || r.Op == "" {
			t.Errorf("row %+v", r)
		}
		rows++
	}
	if rows < 5 {
		t.Errorf("%d rows, want at least 5", rows)
	}
	if !strings.Contains(errb.String(), "sgemm") {
		t.Errorf("table lacks sgemm:\n%s", errb.String())
	}
}

func TestBenchBLASUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := cmdBenchBLAS([]string{"extra"}, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), "usage: neurogo bench blas") {
		t.Errorf("no usage: %q", errb.String())
	}
}
