package data

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadIDXPrefix(t *testing.T) {
	full := &IDX{UByte, []int{5, 2, 3}, make([]float64, 30)}
	for i := range full.Data {
		full.Data[i] = float64(i)
	}
	dir := t.TempDir()
	plain, zipped := filepath.Join(dir, "x.idx"), filepath.Join(dir, "x.idx.gz")
	if err := os.WriteFile(plain, idxBytes(t, full), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(zipped, gz(t, idxBytes(t, full)), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		n       int
		wantErr string
	}{
		{0, ""}, {2, ""}, {5, ""},
		{6, "the first 6 entries asked for, the file holds 5"},
		{-1, "n must be ≥ 0"},
	}
	for _, path := range []string{plain, zipped} {
		for _, c := range cases {
			x, err := LoadIDXPrefix(path, c.n)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("%s, n=%d: err = %v, want %q", filepath.Base(path), c.n, err, c.wantErr)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s, n=%d: %v", filepath.Base(path), c.n, err)
			}
			if !reflect.DeepEqual(x.Shape, []int{c.n, 2, 3}) || !reflect.DeepEqual(x.Data, full.Data[:6*c.n]) {
				t.Errorf("%s, n=%d: shape %v, data %v", filepath.Base(path), c.n, x.Shape, x.Data)
			}
		}
	}
}

// writeTruncatedMNIST writes MNIST-named files whose headers declare the
// full 60 000 / 10 000 images of 28×28 but that hold only the first n
// images and labels: a subset of at most n must load without reading on.
func writeTruncatedMNIST(t *testing.T, dir string, n int) {
	t.Helper()
	header := func(ndims byte, dims ...int) []byte {
		b := []byte{0, 0, byte(UByte), ndims}
		for _, d := range dims {
			b = binary.BigEndian.AppendUint32(b, uint32(d))
		}
		return b
	}
	for _, p := range []struct {
		images, labels string
		declared       int
	}{{trainImages, trainLabels, 60000}, {testImages, testLabels, 10000}} {
		im := header(3, p.declared, 28, 28)
		for i := range n * 28 * 28 {
			im = append(im, byte(i/(28*28)))
		}
		lb := header(1, p.declared)
		for i := range n {
			lb = append(lb, byte(i%10))
		}
		if err := os.WriteFile(filepath.Join(dir, p.images), im, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p.labels), lb, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMNISTSubset(t *testing.T) {
	dir := t.TempDir()
	writeTruncatedMNIST(t, dir, 12)
	tr, te, err := MNISTSubset(dir, 12, 7)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 12 || te.Len() != 7 || tr.Rows != 28 || tr.Name != "MNIST train" || te.Name != "MNIST test" {
		t.Fatalf("got %d (%d×%d, %q) and %d (%q)", tr.Len(), tr.Rows, tr.Cols, tr.Name, te.Len(), te.Name)
	}
	if tr.Labels[11] != 1 || tr.Images[3][0] != 3.0/255 || len(tr.Images[11]) != 784 {
		t.Errorf("label 11 = %d, pixel 3/0 = %v, image size %d", tr.Labels[11], tr.Images[3][0], len(tr.Images[11]))
	}
	for _, c := range []struct {
		nTrain, nTest int
		corrupt       bool
		want          string
	}{
		{13, 5, true, "data truncated"}, // the files end after 12 images
		{0, 5, true, "data truncated"},  // 0: all 60 000
		{-1, 5, false, "must be in [0, 60000] and [0, 10000]"},
		{5, 10001, false, "must be in [0, 60000] and [0, 10000]"},
	} {
		_, _, err := MNISTSubset(dir, c.nTrain, c.nTest)
		if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, ErrCorrupt) != c.corrupt {
			t.Errorf("MNISTSubset(%d, %d): err = %v, want %q (corrupt %v)", c.nTrain, c.nTest, err, c.want, c.corrupt)
		}
	}
	// a set whose headers declare too few images is refused, as by MNIST
	small := t.TempDir()
	writeSet(t, small, 20, 5, 28, 28, true)
	if _, _, err := MNISTSubset(small, 10, 5); err == nil || !errors.Is(err, ErrCorrupt) ||
		!strings.Contains(err.Error(), "20 images of 28×28 pixels, want 60000") {
		t.Errorf("small set: err = %v", err)
	}
	if _, _, err := FashionMNISTSubset(t.TempDir(), 1, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("FashionMNISTSubset of an empty directory: err = %v", err)
	}
}

// The first examples of a subset are those of the full set.
func TestMNISTSubsetMatchesFull(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the full set")
	}
	full, fullTest := requireData(t, "MNIST", MNIST)
	tr, te, err := MNISTSubset("", 300, 40)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tr.Labels, full.Labels[:300]) || !reflect.DeepEqual(tr.Images, full.Images[:300]) ||
		!reflect.DeepEqual(te.Labels, fullTest.Labels[:40]) || !reflect.DeepEqual(te.Images, fullTest.Images[:40]) {
		t.Error("the subset differs from the first examples of the full set")
	}
}
