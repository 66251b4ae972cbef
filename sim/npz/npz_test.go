package npz

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// numpyArrays are the arrays testdata/gen.py writes, as they read back:
// C order, float64. Fortran-order members hold the same values as their
// C-order twins.
var numpyArrays = map[string]Array{
	"f8_0d":           {Shape: []int{}, Data: []float64{2.5}},
	"f8_1d":           {Shape: []int{5}, Data: []float64{0.5, -1.25, 3.0, 1e-300, math.Copysign(0, -1)}},
	"f8_2d":           {Shape: []int{2, 3}, Data: []float64{0, 0.125, 0.25, 0.375, 0.5, 0.625}},
	"f8_3d":           {Shape: []int{2, 3, 4}, Data: arange(24, -3.25)},
	"f8_2d_fortran":   {Shape: []int{2, 3}, Data: []float64{0, 0.125, 0.25, 0.375, 0.5, 0.625}},
	"f8_3d_fortran":   {Shape: []int{2, 3, 4}, Data: arange(24, -3.25)},
	"f8_empty":        {Shape: []int{0, 3}, Data: []float64{}},
	"f8_special":      {Shape: []int{3}, Data: []float64{math.Inf(1), math.Inf(-1), math.NaN()}},
	"f8_big_endian":   {Shape: []int{2}, Data: []float64{1.5, -2.0}},
	"f4_1d":           {Shape: []int{2}, Data: []float64{0.5, -2.0}},
	"i8_2d":           {Shape: []int{2, 3}, Data: []float64{1, -2, 3, 1 << 53, -(1 << 40), 0}},
	"i4_1d":           {Shape: []int{2}, Data: []float64{7, -7}},
	"u1_1d":           {Shape: []int{2}, Data: []float64{0, 255}},
	"bool_1d":         {Shape: []int{3}, Data: []float64{1, 0, 1}},
	"bool_2d_fortran": {Shape: []int{3, 2}, Data: []float64{1, 0, 0, 0, 1, 1}},
	"ens/a/gain":      {Shape: []int{2}, Data: []float64{1, 2}},
}

// arange returns n consecutive values starting at start (numpy.arange(n) + start).
func arange(n int, start float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i) + start
	}
	return out
}

// sameArray reports whether a and b have equal shapes and bitwise-equal
// data (any NaN equals any NaN; -0 differs from +0).
func sameArray(a, b Array) bool {
	if len(a.Shape) != len(b.Shape) || len(a.Data) != len(b.Data) {
		return false
	}
	for i := range a.Shape {
		if a.Shape[i] != b.Shape[i] {
			return false
		}
	}
	for i := range a.Data {
		x, y := a.Data[i], b.Data[i]
		if math.IsNaN(x) && math.IsNaN(y) {
			continue
		}
		if math.Float64bits(x) != math.Float64bits(y) {
			return false
		}
	}
	return true
}

func TestReadNumpy(t *testing.T) {
	for _, file := range []string{"numpy.npz", "numpy_compressed.npz"} {
		t.Run(file, func(t *testing.T) {
			got, err := Read(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(numpyArrays) {
				t.Errorf("read %d arrays, want %d", len(got), len(numpyArrays))
			}
			for key, want := range numpyArrays {
				a, ok := got[key]
				switch {
				case !ok:
					t.Errorf("key %q missing", key)
				case !sameArray(a, want):
					t.Errorf("key %q = %v %v, want %v %v", key, a.Shape, a.Data, want.Shape, want.Data)
				}
			}
		})
	}
}

func TestReadUnsupportedDtype(t *testing.T) {
	for _, tc := range []struct{ file, key, dtype string }{
		{"complex.npz", "z", "<c16"},
		{"string.npz", "s", "<U2"},
		{"object.npz", "o", "|O"},
	} {
		path := filepath.Join("testdata", tc.file)
		_, err := Read(path)
		if err == nil {
			t.Errorf("%s: no error", tc.file)
			continue
		}
		for _, want := range []string{path, `key "` + tc.key + `"`, tc.dtype} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not mention %q", tc.file, err, want)
			}
		}
	}
}

func TestWriteRead(t *testing.T) {
	arrays := map[string]Array{
		"scalar":   {Data: []float64{math.Pi}},
		"vec":      {Shape: []int{4}, Data: []float64{1, -2, math.Inf(1), math.NaN()}},
		"mat":      {Shape: []int{2, 3}, Data: arange(6, 0.5)},
		"cube":     {Shape: []int{2, 3, 4}, Data: arange(24, -1)},
		"empty0":   {Shape: []int{0, 3}, Data: nil},
		"empty1":   {Shape: []int{3, 0}, Data: []float64{}},
		"big/dims": {Shape: []int{1, 1, 1, 1, 2}, Data: []float64{7, 8}},
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.npz")
	if err := Write(path, arrays); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(arrays) {
		t.Errorf("read %d arrays, want %d", len(got), len(arrays))
	}
	for key, want := range arrays {
		if want.Shape == nil {
			want.Shape = []int{}
		}
		if want.Data == nil {
			want.Data = []float64{}
		}
		if !sameArray(got[key], want) {
			t.Errorf("key %q = %v %v, want %v %v", key, got[key].Shape, got[key].Data, want.Shape, want.Data)
		}
	}

	// Deterministic: the same arrays give the same bytes.
	var b1, b2 bytes.Buffer
	if err := WriteTo(&b1, arrays); err != nil {
		t.Fatal(err)
	}
	if err := WriteTo(&b2, arrays); err != nil {
		t.Fatal(err)
	}
	onDisk, _ := os.ReadFile(path)
	if !bytes.Equal(b1.Bytes(), b2.Bytes()) || !bytes.Equal(b1.Bytes(), onDisk) {
		t.Error("writing the same arrays twice gave different bytes")
	}
}

// TestWriteMatchesNumpy checks that each member Write produces is byte for
// byte the .npy that numpy.savez stored for the same float64 C-order array.
func TestWriteMatchesNumpy(t *testing.T) {
	keys := []string{"f8_0d", "f8_1d", "f8_2d", "f8_3d", "f8_empty", "ens/a/gain"}
	numpyMembers := members(t, mustRead(t, filepath.Join("testdata", "numpy.npz")))
	arrays := map[string]Array{}
	for _, k := range keys {
		arrays[k] = numpyArrays[k]
	}
	var buf bytes.Buffer
	if err := WriteTo(&buf, arrays); err != nil {
		t.Fatal(err)
	}
	ours := members(t, buf.Bytes())
	for _, k := range keys {
		if !bytes.Equal(ours[k+".npy"], numpyMembers[k+".npy"]) {
			t.Errorf("key %q:\n ours  %q\n numpy %q", k, ours[k+".npy"], numpyMembers[k+".npy"])
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// members returns the uncompressed members of a zip archive.
func members(t *testing.T, archive []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

func TestWriteInvalid(t *testing.T) {
	for _, tc := range []struct {
		name   string
		arrays map[string]Array
		want   string
	}{
		{"short data", map[string]Array{"w": {Shape: []int{2, 3}, Data: make([]float64, 5)}}, `key "w": shape [2 3] needs 6 values, Data has 5`},
		{"negative dim", map[string]Array{"n": {Shape: []int{-1}, Data: nil}}, `key "n": shape [-1]: negative dimension`},
		{"overflow", map[string]Array{"o": {Shape: []int{1 << 62, 8}}}, `key "o": shape [4611686018427387904 8]: too many elements`},
		{"scalar without data", map[string]Array{"s": {}}, `key "s": shape [] needs 1 values, Data has 0`},
		{"empty key", map[string]Array{"": {Data: []float64{1}}}, "empty key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.npz")
			err := Write(path, tc.arrays)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v, want one naming %q and %q", err, path, tc.want)
			}
			if _, serr := os.Stat(path); !os.IsNotExist(serr) {
				t.Errorf("Write left a file behind after an invalid array")
			}
		})
	}
}

// npyMember returns a .npy stream with the given header dictionary (padded
// as numpy pads it) followed by data.
func npyMember(dict string, data []byte) []byte {
	h := dict
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), byte(len(h)>>8))
	return append(append(b, h...), data...)
}

// zipOf returns a zip archive (stored members, valid CRCs) of the members.
func zipOf(names []string, contents [][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, name := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			panic(err)
		}
		w.Write(contents[i])
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func f8s(vs ...float64) []byte {
	var b []byte
	for _, v := range vs {
		u := math.Float64bits(v)
		b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24), byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56))
	}
	return b
}

func TestReadCorrupt(t *testing.T) {
	good := mustRead(t, filepath.Join("testdata", "numpy.npz"))
	flipped := append([]byte(nil), good...)
	// Flip a byte inside the data of the first member (f8_0d: 128-byte
	// header, then 8 bytes of data) so that only the CRC can notice.
	at := bytes.Index(flipped, []byte("\x93NUMPY")) + 128
	flipped[at] ^= 0xff

	const f8 = "{'descr': '<f8', 'fortran_order': False, 'shape': "
	one := func(dict string, data []byte) []byte {
		return zipOf([]string{"x.npy"}, [][]byte{npyMember(dict, data)})
	}
	for _, tc := range []struct {
		name    string
		archive []byte
		want    string // substring of the error
	}{
		{"empty", nil, "zip"},
		{"not a zip", []byte("hello, world"), "zip"},
		{"truncated archive", good[:len(good)/2], "zip"},
		{"flipped data byte", flipped, "checksum"},
		{"bad magic", zipOf([]string{"x.npy"}, [][]byte{[]byte("NUMPY\x01\x00")}), `key "x": not a .npy member`},
		{"version 3", zipOf([]string{"x.npy"}, [][]byte{[]byte("\x93NUMPY\x03\x00\x00\x00\x00\x00")}), "version 3.0"},
		{"header too long", zipOf([]string{"x.npy"}, [][]byte{[]byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f")}), "exceeds"},
		{"header truncated", zipOf([]string{"x.npy"}, [][]byte{[]byte("\x93NUMPY\x01\x00\x40\x00{'descr'")}), "header truncated"},
		{"no newline", zipOf([]string{"x.npy"}, [][]byte{[]byte("\x93NUMPY\x01\x00\x03\x00{} ")}), "newline"},
		{"keys out of order", one("{'shape': (1,), 'fortran_order': False, 'descr': '<f8', }", f8s(1)), "does not start with"},
		{"fortran_order garbage", one("{'descr': '<f8', 'fortran_order': 'shape': (, 'shape': (1,), }", f8s(1)), "fortran_order"},
		{"shape garbage", one(f8+"(a,), }", f8s(1)), "tuple of integers"},
		{"shape not closed", one(f8+"(1,, }", f8s(1)), "not closed"},
		{"negative dim", one(f8+"(-1,), }", nil), "tuple of integers"},
		{"huge shape", one(f8+"(1099511627776,), }", f8s(1, 2)), "data truncated"},
		{"overflowing shape", one(f8+"(4294967296, 4294967296, 4294967296), }", nil), "too many"},
		{"short data", one(f8+"(3,), }", f8s(1, 2)), "needs 24 bytes, member has 16"},
		{"trailing bytes", one(f8+"(1,), }", f8s(1, 2)), "8 bytes after the data"},
		{"unknown dtype", one("{'descr': '<f16', 'fortran_order': False, 'shape': (1,), }", make([]byte, 16)), `unsupported dtype "<f16"`},
		{"empty dtype", one("{'descr': '', 'fortran_order': False, 'shape': (1,), }", nil), "dtype"},
		{"duplicate key", zipOf([]string{"x.npy", "x"}, [][]byte{npyMember(f8+"(), }", f8s(1)), npyMember(f8+"(), }", f8s(1))}), "appears twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadFrom(bytes.NewReader(tc.archive), int64(len(tc.archive)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if errors.Is(err, errInternal) {
				t.Fatalf("npyio panicked: %v", err)
			}
		})
	}
}

func TestReadNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.npz")
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Read of a missing file: error %v does not name it", err)
	}
	garbage := filepath.Join(t.TempDir(), "garbage.npz")
	os.WriteFile(garbage, []byte("not a zip"), 0o644)
	if _, err := Read(garbage); err == nil || !strings.Contains(err.Error(), garbage) {
		t.Errorf("Read of a corrupt file: error %v does not name it", err)
	}
}

func TestAtRows(t *testing.T) {
	a := numpyArrays["f8_3d"]
	for _, tc := range []struct {
		idx  []int
		want float64
	}{
		{[]int{0, 0, 0}, -3.25},
		{[]int{0, 0, 3}, -0.25},
		{[]int{0, 2, 0}, 4.75},
		{[]int{1, 0, 0}, 8.75},
		{[]int{1, 2, 3}, 19.75},
	} {
		if got := a.At(tc.idx...); got != tc.want {
			t.Errorf("At%v = %v, want %v", tc.idx, got, tc.want)
		}
	}
	if got := numpyArrays["f8_0d"].At(); got != 2.5 {
		t.Errorf("0-d At() = %v, want 2.5", got)
	}

	m := numpyArrays["i8_2d"]
	rows := m.Rows()
	want := [][]float64{{1, -2, 3}, {1 << 53, -(1 << 40), 0}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("Rows() = %v, want %v", rows, want)
	}
	if cap(rows[0]) != 3 {
		t.Errorf("cap(Rows()[0]) = %d, want 3 (capped, so appends cannot clobber row 1)", cap(rows[0]))
	}

	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"At with too few indices", func() { a.At(1, 2) }},
		{"At out of range", func() { a.At(0, 3, 0) }},
		{"At negative", func() { a.At(0, 0, -1) }},
		{"Rows of a 3-d array", func() { a.Rows() }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			tc.f()
		}()
	}
}

// FuzzRead feeds arbitrary bytes to ReadFrom, both as a whole archive and
// as the content of one stored member with a valid CRC (so that the .npy
// header parser sees them). Read must return an error or valid arrays,
// never panic (nor recover from a panic inside npyio).
func FuzzRead(f *testing.F) {
	for _, name := range []string{"numpy.npz", "numpy_compressed.npz", "complex.npz"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(npyMember("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 1), }", f8s(1, 2)))
	f.Add(npyMember("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", []byte{1}))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, archive := range [][]byte{data, zipOf([]string{"x.npy"}, [][]byte{data})} {
			got, err := ReadFrom(bytes.NewReader(archive), int64(len(archive)))
			if errors.Is(err, errInternal) {
				t.Fatal(err)
			}
			for key, a := range got {
				if verr := a.validate(); verr != nil {
					t.Fatalf("key %q: %v", key, verr)
				}
			}
		}
	})
}

// TestReadNengoFixtures reads every fixture of sim/testdata/nengo (written by
// Python's zipfile and numpy.lib.format, see export.py there) and checks the
// keys and shapes that README.md documents.
func TestReadNengoFixtures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "nengo", "*.npz"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures in ../testdata/nengo (%v)", err)
	}
	for _, path := range paths {
		arrays, err := Read(path)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, key := range []string{"meta/dt", "meta/steps", "meta/seed"} {
			if a, ok := arrays[key]; !ok || len(a.Shape) != 0 {
				t.Errorf("%s: %s missing or not 0-d", path, key)
			}
		}
		if dt := arrays["meta/dt"].At(); dt != 0.001 {
			t.Errorf("%s: meta/dt = %v", path, dt)
		}
	}

	lif, err := Read(filepath.Join("..", "testdata", "nengo", "lif_ens.npz"))
	if err != nil {
		t.Fatal(err)
	}
	for key, shape := range map[string][]int{
		"ens/a/gain":                {50},
		"ens/a/encoders":            {50, 1},
		"ens/a/eval_points":         {750, 1},
		"ens/a/state/voltage":       {50},
		"conn/a_out/weights":        {1, 50},
		"conn/a_out/decoders_check": {1, 50},
		"conn/a_out/solver_targets": {750, 1},
		"probe/a_neurons":           {1000, 50},
		"probe/out_p":               {1000, 1},
	} {
		if got := lif[key].Shape; !reflect.DeepEqual(got, shape) {
			t.Errorf("lif_ens %s: shape %v, want %v", key, got, shape)
		}
	}
	if !sameArray(lif["conn/a_out/weights"], lif["conn/a_out/decoders_check"]) {
		t.Error("lif_ens: decoders_check differs from weights")
	}
	pes, err := Read(filepath.Join("..", "testdata", "nengo", "pes.npz"))
	if err != nil {
		t.Fatal(err)
	}
	if got := pes["probe/weights_p"].Shape; !reflect.DeepEqual(got, []int{100, 1, 60}) {
		t.Errorf("pes probe/weights_p: shape %v, want [100 1 60]", got)
	}
}
