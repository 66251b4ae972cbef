package kernel

import (
	"go/types"
	"testing"
	"time"
)

func TestModuleImporter(t *testing.T) {
	root := SourceRoot()
	if root == "" {
		t.Skip("no neurogo source tree")
	}
	imp := newModuleImporter(root)
	t0 := time.Now()
	pkg, err := imp.Import("github.com/neurogo/neurogo/repro")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("repro and its neurogo dependencies typed in %v", time.Since(t0))
	obj := pkg.Scope().Lookup("StreamResult")
	if obj == nil {
		t.Fatal("no StreamResult in repro")
	}
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		t.Fatalf("StreamResult is %v", obj.Type())
	}
	found := false
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Name() == "Parallel" {
			found = true
			if got := f.Type().String(); got != "[]float64" {
				t.Errorf("StreamResult.Parallel is %s, want []float64", got)
			}
		}
	}
	if !found {
		t.Error("StreamResult has no field Parallel")
	}
	// the standard library comes from the std importer, once
	fmt1, err := imp.Import("fmt")
	if err != nil {
		t.Fatal(err)
	}
	fmt2, _ := imp.Import("fmt")
	if fmt1 != fmt2 {
		t.Error("fmt imported twice as different packages")
	}
	if _, err := imp.Import("github.com/neurogo/neurogo/no/such/package"); err == nil {
		t.Error("a missing neurogo package imported without error")
	}
}
