package data_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/neurogo/neurogo/train/data"
)

// The synthetic stand-in has the real set's subjects and class counts.
func ExampleSyntheticHAR() {
	train, test, err := data.SyntheticHAR(1)
	if err != nil {
		panic(err)
	}
	fmt.Println(train.Len(), test.Len(), train.Synthetic)
	fmt.Println(train.ClassCounts())
	fmt.Println(test.ClassCounts())
	fmt.Println(len(train.Signals[0]), "values per window: 128 samples × 9 channels")
	// Output:
	// 7352 2947 true
	// [1226 1073 986 1286 1374 1407]
	// [496 471 420 491 532 537]
	// 1152 values per window: 128 samples × 9 channels
}

// Write the synthetic set in the UCI layout and read it back: the loader
// sees the SYNTHETIC README and marks the sets.
func ExampleWriteSyntheticHAR() {
	dir, _ := os.MkdirTemp("", "neurogo-har")
	defer os.RemoveAll(dir)
	if err := data.WriteSyntheticHAR(dir, 1); err != nil {
		panic(err)
	}
	train, test, err := data.HAR(dir)
	fmt.Println(train.Len(), test.Len(), train.Synthetic, test.Synthetic, err)
	fmt.Println(train.Classes)
	fmt.Println(train.Subjects[0], train.Labels[0], train.Classes[train.Labels[0]])
	// Output:
	// 7352 2947 true true <nil>
	// [WALKING WALKING_UPSTAIRS WALKING_DOWNSTAIRS SITTING STANDING LAYING]
	// 1 4 STANDING
}

func ExampleHARChannels() {
	for c, name := range data.HARChannels() {
		fmt.Println(c, name)
	}
	// Output:
	// 0 body_acc_x
	// 1 body_acc_y
	// 2 body_acc_z
	// 3 body_gyro_x
	// 4 body_gyro_y
	// 5 body_gyro_z
	// 6 total_acc_x
	// 7 total_acc_y
	// 8 total_acc_z
}

// Signals are channels last: window i, sample t, channel c is
// Signals[i][t*9+c]. A standing subject's phone sees gravity (1 g) mostly
// along its x axis.
func ExampleHARSet() {
	train, _, _ := data.SyntheticHAR(1)
	const c = 6 // total_acc_x
	mean := 0.0
	for t := range 128 {
		mean += train.Signals[0][t*9+c] / 128
	}
	fmt.Printf("%s, subject %d: mean total_acc_x %.1f g\n", train.Classes[train.Labels[0]], train.Subjects[0], mean)
	// Output: STANDING, subject 1: mean total_acc_x 1.0 g
}

func ExampleHARSet_ClassCounts() {
	_, test, _ := data.SyntheticHAR(1)
	for l, n := range test.ClassCounts() {
		fmt.Printf("%d %-18s %d\n", l, test.Classes[l], n)
	}
	// Output:
	// 0 WALKING            496
	// 1 WALKING_UPSTAIRS   471
	// 2 WALKING_DOWNSTAIRS 420
	// 3 SITTING            491
	// 4 STANDING           532
	// 5 LAYING             537
}

func ExampleHARSet_Len() {
	train, _, _ := data.SyntheticHAR(1)
	fmt.Println(train.Len())
	// Output: 7352
}

// Without $NEUROGO_HAR the error says how to get a (synthetic) set.
func ExampleFindHAR() {
	withEnv("NEUROGO_HAR", "", func() {
		_, err := data.FindHAR()
		fmt.Println(errors.Is(err, data.ErrNotFound))
		fmt.Println(err)
	})
	// Output:
	// true
	// data: HAR: $NEUROGO_HAR is not set: data set not installed; the UCI HAR data set (Anguita et al. 2013) is not packaged for npm or Debian: download "UCI HAR Dataset.zip" from the UCI Machine Learning Repository ("Human Activity Recognition Using Smartphones"), unpack it and set NEUROGO_HAR to an unpacked "UCI HAR Dataset" directory (activity_labels.txt, train/, test/), or write a deterministic synthetic stand-in with data.WriteSyntheticHAR(dir, seed) or `neurogo repro har-analog --synthetic` (every figure from it is labelled synthetic)
}

// HAR checks the files; a directory without them gives ErrNotFound.
func ExampleHAR() {
	_, _, err := data.HAR("/nonexistent/har")
	fmt.Println(errors.Is(err, data.ErrNotFound))
	// Output: true
}
