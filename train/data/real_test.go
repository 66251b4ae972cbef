package data

import (
	"errors"
	"math"
	"os"
	"reflect"
	"testing"
	"time"
)

// Tolerances for the full-set statistics.
const (
	// statTol: the reference mean and std are quoted to 4 decimals
	// (torchvision's Normalize((0.1307,), (0.3081,)) for MNIST; 0.2860 and
	// 0.3530 for Fashion-MNIST), so half a unit of the last digit plus
	// float64 summation error.
	statTol = 5e-5 + 1e-9
	// classShareMin, classShareMax: every class holds 5–15 % of a set.
	classShareMin, classShareMax = 0.05, 0.15
)

// requireData loads a full set, skipping only when it is not installed and
// NEUROGO_REQUIRE_DATA is unset (or 0); scripts/test sets it to 1.
func requireData(t *testing.T, set string, load func(string) (*Dataset, *Dataset, error)) (*Dataset, *Dataset) {
	t.Helper()
	t0 := time.Now()
	train, test, err := load("")
	if errors.Is(err, ErrNotFound) {
		if r := os.Getenv("NEUROGO_REQUIRE_DATA"); r == "" || r == "0" {
			t.Skipf("%s is not installed (NEUROGO_REQUIRE_DATA unset, so skipping): %v", set, err)
		}
		t.Fatalf("%s is required (NEUROGO_REQUIRE_DATA=%s) but not installed: %v", set, os.Getenv("NEUROGO_REQUIRE_DATA"), err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s loaded in %v", set, time.Since(t0).Round(time.Millisecond))
	return train, test
}

func TestFullSets(t *testing.T) {
	cases := []struct {
		set                  string
		load                 func(string) (*Dataset, *Dataset, error)
		mean, std            float64 // of the training pixels in [0, 1]
		trainCounts, testCnt []int
		first                []int // first training labels
	}{
		{"MNIST", MNIST, 0.1307, 0.3081,
			[]int{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949},
			[]int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009},
			[]int{5, 0, 4, 1, 9, 2, 1, 3, 1, 4}},
		{"Fashion-MNIST", FashionMNIST, 0.2860, 0.3530,
			[]int{6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000},
			[]int{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
			[]int{9, 0, 0, 3, 0, 2, 7, 2, 5, 5}},
	}
	for _, c := range cases {
		t.Run(c.set, func(t *testing.T) {
			train, test := requireData(t, c.set, c.load)
			for _, p := range []struct {
				d    *Dataset
				n    int
				want []int
			}{{train, 60000, c.trainCounts}, {test, 10000, c.testCnt}} {
				d := p.d
				if d.Len() != p.n || len(d.Images) != p.n || d.Rows != 28 || d.Cols != 28 || len(d.Classes) != 10 {
					t.Fatalf("%s: %d/%d images of %d×%d, %d classes", d.Name, d.Len(), len(d.Images), d.Rows, d.Cols, len(d.Classes))
				}
				counts := d.ClassCounts()
				for k, n := range counts {
					if share := float64(n) / float64(d.Len()); share < classShareMin || share > classShareMax {
						t.Errorf("%s: class %d holds %.1f %% of the set, want %g–%g %%", d.Name, k, 100*share, 100*classShareMin, 100*classShareMax)
					}
				}
				if !reflect.DeepEqual(counts, p.want) {
					t.Errorf("%s: class counts %v, want %v", d.Name, counts, p.want)
				}
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, im := range d.Images {
					if len(im) != 784 {
						t.Fatalf("%s: image of %d pixels", d.Name, len(im))
					}
					for _, v := range im {
						lo, hi = math.Min(lo, v), math.Max(hi, v)
					}
				}
				if lo != 0 || hi != 1 {
					t.Errorf("%s: pixels in [%v, %v], want [0, 1]", d.Name, lo, hi)
				}
			}
			if got := train.Labels[:len(c.first)]; !reflect.DeepEqual(got, c.first) {
				t.Errorf("first training labels %v, want %v", got, c.first)
			}
			var sum, sq float64
			n := 0
			for _, im := range train.Images {
				for _, v := range im {
					sum += v
					sq += v * v
					n++
				}
			}
			mean := sum / float64(n)
			std := math.Sqrt(sq/float64(n) - mean*mean)
			t.Logf("training pixels: mean %.6f, std %.6f", mean, std)
			if math.Abs(mean-c.mean) > statTol || math.Abs(std-c.std) > statTol {
				t.Errorf("training pixels: mean %.6f, std %.6f; want %.4f, %.4f ± %g", mean, std, c.mean, c.std, statTol)
			}
		})
	}
}
