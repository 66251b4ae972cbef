package data

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Dataset is a labelled image set: Images[i] is image i, Rows×Cols pixels
// row-major (in [0, 1] when Scaled, else the file's raw values), Labels[i]
// its class in [0, len(Classes)). The image rows of a loaded set share one
// contiguous backing array.
type Dataset struct {
	Name       string
	Images     [][]float64
	Labels     []int
	Rows, Cols int
	Classes    []string
	Scaled     bool
}

// Len returns the number of examples.
func (d *Dataset) Len() int { return len(d.Labels) }

// MNISTClasses returns the MNIST class names, "0" to "9".
func MNISTClasses() []string {
	return []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
}

// FashionMNISTClasses returns the Fashion-MNIST class names in label order
// (Xiao, Rasul & Vollgraf 2017, Table 1; the dataset's README).
func FashionMNISTClasses() []string {
	return []string{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
		"Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"}
}

// Load reads an image IDX file (shape [n, rows, cols], ubyte unless raw)
// and a label IDX file (shape [n], integer type) into a Dataset with the
// given class names; labels must lie in [0, len(classes)). Unless raw,
// pixels are divided by 255 into [0, 1]. Either file may be gzipped.
func Load(imagesPath, labelsPath string, classes []string, raw bool) (*Dataset, error) {
	d, _, err := load(imagesPath, labelsPath, classes, raw, -1)
	return d, err
}

// load is Load of the first limit examples (all when limit < 0); it also
// returns the number of examples the files declare.
func load(imagesPath, labelsPath string, classes []string, raw bool, limit int) (*Dataset, int, error) {
	if len(classes) == 0 {
		return nil, 0, errors.New("data: Load: classes is empty; give one name per label value")
	}
	im, declared, err := loadIDX(imagesPath, limit)
	if err != nil {
		return nil, 0, err
	}
	lb, declaredLabels, err := loadIDX(labelsPath, limit)
	if err != nil {
		return nil, 0, err
	}
	if declaredLabels != declared {
		return nil, 0, corrupt(labelsPath, "%d labels for %d images in %s: counts must match", declaredLabels, declared, imagesPath)
	}
	if len(im.Shape) != 3 {
		return nil, 0, corrupt(imagesPath, "shape %v: images must have 3 dimensions [n, rows, cols]", im.Shape)
	}
	if !raw && im.Type != UByte {
		return nil, 0, corrupt(imagesPath, "type %s: scaling to [0, 1] needs ubyte pixels (load with raw = true)", im.Type)
	}
	if len(lb.Shape) != 1 {
		return nil, 0, corrupt(labelsPath, "shape %v: labels must have 1 dimension [n]", lb.Shape)
	}
	switch lb.Type {
	case UByte, Byte, Short, Int:
	default:
		return nil, 0, corrupt(labelsPath, "type %s: labels must be an integer type", lb.Type)
	}
	n, rows, cols := im.Shape[0], im.Shape[1], im.Shape[2]
	if lb.Shape[0] != n {
		return nil, 0, corrupt(labelsPath, "%d labels for %d images in %s: counts must match", lb.Shape[0], n, imagesPath)
	}
	d := &Dataset{Name: filepath.Base(imagesPath), Rows: rows, Cols: cols,
		Classes: append([]string(nil), classes...), Scaled: !raw,
		Images: make([][]float64, n), Labels: make([]int, n)}
	for i, v := range lb.Data {
		if v < 0 || int(v) >= len(classes) {
			return nil, 0, corrupt(labelsPath, "label %d is %v: must be in [0, %d)", i, v, len(classes))
		}
		d.Labels[i] = int(v)
	}
	px := im.Data
	if !raw {
		for i := range px {
			px[i] /= 255
		}
	}
	size := rows * cols
	for i := range d.Images {
		d.Images[i] = px[i*size : (i+1)*size : (i+1)*size]
	}
	return d, declared, nil
}

// ClassCounts returns how many examples each class has.
func (d *Dataset) ClassCounts() []int {
	c := make([]int, len(d.Classes))
	for _, l := range d.Labels {
		if l >= 0 && l < len(c) {
			c[l]++
		}
	}
	return c
}

// Subset returns the first n examples as a new Dataset sharing the image
// rows with d (d is unchanged). n must be in [0, d.Len()].
func (d *Dataset) Subset(n int) (*Dataset, error) {
	if n < 0 || n > d.Len() {
		return nil, fmt.Errorf("data: %s: Subset(%d): n must be in [0, %d]", d.Name, n, d.Len())
	}
	s := *d
	s.Images = d.Images[:n:n]
	s.Labels = d.Labels[:n:n]
	s.Classes = append([]string(nil), d.Classes...)
	return &s, nil
}

// Batch is one minibatch: Images and Labels of the examples at Indices
// (positions in the Dataset). Image rows are shared with the Dataset.
type Batch struct {
	Images  [][]float64
	Labels  []int
	Indices []int
}

// Batches splits d into minibatches of batchSize examples, the last one
// partial when batchSize does not divide d.Len(). With shuffle the order
// is a permutation drawn from seed (PCG, math/rand/v2): the same seed gives
// the same batches; without shuffle the order is the dataset's.
func (d *Dataset) Batches(batchSize int, shuffle bool, seed int64) ([]Batch, error) {
	if batchSize < 1 {
		return nil, fmt.Errorf("data: %s: Batches: batchSize = %d: must be at least 1", d.Name, batchSize)
	}
	n := d.Len()
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if shuffle {
		r := rand.New(rand.NewPCG(uint64(seed), 0x6e6575726f676f)) // "neurogo"
		r.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	out := make([]Batch, 0, (n+batchSize-1)/batchSize)
	for lo := 0; lo < n; lo += batchSize {
		hi := min(lo+batchSize, n)
		b := Batch{Images: make([][]float64, hi-lo), Labels: make([]int, hi-lo), Indices: order[lo:hi:hi]}
		for k, i := range b.Indices {
			b.Images[k] = d.Images[i]
			b.Labels[k] = d.Labels[i]
		}
		out = append(out, b)
	}
	return out, nil
}

// OneHot returns one row per label with 1 at the label's index and 0
// elsewhere; every label must be in [0, classes).
func OneHot(labels []int, classes int) ([][]float64, error) {
	if classes < 1 {
		return nil, fmt.Errorf("data: OneHot: classes = %d: must be at least 1", classes)
	}
	flat := make([]float64, len(labels)*classes)
	out := make([][]float64, len(labels))
	for i, l := range labels {
		if l < 0 || l >= classes {
			return nil, fmt.Errorf("data: OneHot: labels[%d] = %d: must be in [0, %d)", i, l, classes)
		}
		out[i] = flat[i*classes : (i+1)*classes : (i+1)*classes]
		out[i][l] = 1
	}
	return out, nil
}

// fileIn returns dir/name or dir/name.gz, whichever exists (plain first).
func fileIn(dir, name string) (string, bool) {
	for _, p := range []string{filepath.Join(dir, name), filepath.Join(dir, name+".gz")} {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, true
		}
	}
	return filepath.Join(dir, name), false
}
