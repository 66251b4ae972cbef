package data

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func idxBytes(t testing.TB, x *IDX) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteIDX(&b, x); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

// TestIDXRoundTrip writes and reads every element type, plain and gzip.
func TestIDXRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		x    IDX
	}{
		{"ubyte 2x3", IDX{UByte, []int{2, 3}, []float64{0, 1, 2, 127, 128, 255}}},
		{"byte", IDX{Byte, []int{4}, []float64{-128, -1, 0, 127}}},
		{"short", IDX{Short, []int{2, 2}, []float64{-32768, -1, 2, 32767}}},
		{"int", IDX{Int, []int{3}, []float64{math.MinInt32, 0, math.MaxInt32}}},
		{"float", IDX{Float, []int{1, 1, 3}, []float64{-1.5, 0.25, 1024.5}}},
		{"double", IDX{Double, []int{2}, []float64{math.Pi, -math.SmallestNonzeroFloat64}}},
		{"scalar (0 dims)", IDX{UByte, []int{}, []float64{7}}},
		{"empty (a zero dim)", IDX{Int, []int{0, 5}, []float64{}}},
	}
	for _, c := range cases {
		raw := idxBytes(t, &c.x)
		for _, form := range []string{"plain", "gzip"} {
			t.Run(c.name+"/"+form, func(t *testing.T) {
				b := raw
				if form == "gzip" {
					b = gz(t, raw)
				}
				got, err := ReadIDX(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				if got.Type != c.x.Type || !reflect.DeepEqual(got.Shape, c.x.Shape) || !reflect.DeepEqual(got.Data, c.x.Data) {
					t.Errorf("got %v %v %v, want %v %v %v", got.Type, got.Shape, got.Data, c.x.Type, c.x.Shape, c.x.Data)
				}
			})
		}
	}
}

// TestIDXCorrupt checks that malformed input is refused with an error
// wrapping ErrCorrupt that names the rule.
func TestIDXCorrupt(t *testing.T) {
	good := idxBytes(t, &IDX{UByte, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}})
	gzGood := gz(t, good)
	badCRC := append([]byte(nil), gzGood...)
	badCRC[len(badCRC)-5] ^= 0xff // the CRC-32 in the gzip trailer
	cases := []struct {
		name string
		b    []byte
		want string // substring of the error
	}{
		{"empty", nil, "got 0 of 4 bytes"},
		{"short magic", []byte{0, 0, 8}, "got 3 of 4 bytes"},
		{"bad magic", append([]byte{0x50, 0x4b}, good[2:]...), "must be 00 00"},
		{"unknown type", append([]byte{0, 0, 0x07}, good[3:]...), "unknown element type 0x07"},
		{"too many dims", []byte{0, 0, 8, 200}, "200 dimensions"},
		{"truncated dims", good[:9], "only 5 bytes follow"},
		{"truncated data", good[:len(good)-2], "needs 6 bytes after the 12-byte header, got 4"},
		{"trailing bytes", append(append([]byte(nil), good...), 9, 9, 9), "3 trailing bytes"},
		{"absurd size", []byte{0, 0, 0x0E, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 2}, "refusing to allocate"},
		{"absurd size, 1 dim", []byte{0, 0, 8, 1, 0x10, 0, 0, 0}, "refusing to allocate"},
		{"gzip truncated", gzGood[:len(gzGood)-6], "read 6 of 6 bytes, then: unexpected EOF"},
		{"gzip bad checksum", badCRC, "checksum"},
		{"gzip bad header", []byte{0x1f, 0x8b, 0, 0}, "gzip header"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadIDX(bytes.NewReader(c.b))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("error %q does not wrap ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q lacks %q", err, c.want)
			}
		})
	}
}

func TestLoadIDXNamesFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "bad-idx1-ubyte.gz")
	if err := os.WriteFile(p, gz(t, []byte{0, 0, 8, 1, 0, 0, 0, 5, 1}), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadIDX(p)
	if err == nil || !strings.Contains(err.Error(), p+" (gzip)") || !strings.Contains(err.Error(), "needs 5 bytes") {
		t.Errorf("err = %v, want it to name %s (gzip) and the byte counts", err, p)
	}
	_, err = LoadIDX(filepath.Join(dir, "missing"))
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("err = %v, want a not-exist error naming the file", err)
	}
}

func TestWriteIDXErrors(t *testing.T) {
	cases := []struct {
		name string
		x    *IDX
	}{
		{"nil", nil},
		{"unknown type", &IDX{IDXType(1), []int{1}, []float64{0}}},
		{"shape mismatch", &IDX{UByte, []int{2}, []float64{0}}},
		{"out of range", &IDX{UByte, []int{1}, []float64{256}}},
		{"fraction", &IDX{Short, []int{1}, []float64{0.5}}},
		{"NaN", &IDX{Int, []int{1}, []float64{math.NaN()}}},
		{"negative dim", &IDX{UByte, []int{-1}, nil}},
	}
	for _, c := range cases {
		if err := WriteIDX(&bytes.Buffer{}, c.x); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// FuzzReadIDX: ReadIDX never panics, and what it accepts is consistent.
func FuzzReadIDX(f *testing.F) {
	f.Add(idxBytes(f, &IDX{UByte, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}}))
	f.Add(idxBytes(f, &IDX{Double, []int{1}, []float64{1}}))
	f.Add(gz(f, idxBytes(f, &IDX{Short, []int{2}, []float64{-1, 1}})))
	f.Add([]byte{0, 0, 0x0E, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 2})
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := ReadIDX(bytes.NewReader(b))
		if err != nil {
			return
		}
		n := 1
		for _, d := range x.Shape {
			n *= d
		}
		if n != len(x.Data) {
			t.Fatalf("shape %v but %d elements", x.Shape, len(x.Data))
		}
	})
}
