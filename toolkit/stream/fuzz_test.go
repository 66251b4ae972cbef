package stream

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: Parse never panics and returns either a Net or an error,
// never both. Imports are served from the testdata files held in memory.
func FuzzParse(f *testing.F) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.st_graph"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no seed corpus: %v", err)
	}
	files := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		files[p] = b
		f.Add(b)
	}
	f.Add([]byte("name: x\nglobals: {a: 1e308 * 10}\n"))
	f.Add([]byte("a: &x [*x]\n"))
	read := func(p string) ([]byte, error) {
		if b, ok := files[p]; ok {
			return b, nil
		}
		return nil, os.ErrNotExist
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse(data, filepath.Join("testdata", "fuzz.st_graph"), LoadOptions{ReadFile: read})
		if (n == nil) == (err == nil) {
			t.Fatalf("Parse = %v, %v: want exactly one of a Net and an error", n, err)
		}
		if n != nil {
			if err := n.Validate(); err != nil {
				t.Fatalf("Parse returned a Net that does not validate: %v", err)
			}
		}
	})
}
