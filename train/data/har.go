package data

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// UCI HAR layout (Anguita, Ghio, Oneto, Parra & Reyes-Ortiz 2013, "A Public
// Domain Dataset for Human Activity Recognition Using Smartphones", ESANN;
// the data set's README.txt).
const (
	harWindow   = 128 // samples per window: 2.56 s at 50 Hz
	harChannels = 9
	harClasses  = 6
	harSubjects = 30
	harLabels   = "activity_labels.txt"
	harReadme   = "README.txt"
	// harSynthMark starts the first line of a synthetic set's README.txt.
	harSynthMark = "SYNTHETIC"
)

// harSplits are the two parts of the set, in the order HAR returns them.
var harSplits = [2]string{"train", "test"}

// HARSet is one split (train or test) of the UCI "Human Activity
// Recognition Using Smartphones" data set (Anguita et al. 2013): windows of
// 128 samples (2.56 s at 50 Hz) of the nine inertial channels.
type HARSet struct {
	// Signals[i] is window i: 128·9 values row-major [t][channel], channels
	// last ((L, C) = (128, 9), toolkit/layers' Conv1D layout), channel
	// order as HARChannels. Acceleration in g, angular rate in rad/s. The
	// rows of a loaded set share one contiguous backing array.
	Signals [][]float64
	// Labels[i] is window i's activity, 0..5 (the file's 1..6 minus one).
	Labels []int
	// Subjects[i] is the volunteer who recorded window i, 1..30.
	Subjects []int
	// Classes are the six activity names (activity_labels.txt).
	Classes []string
	// Synthetic is true when the windows come from WriteSyntheticHAR or
	// SyntheticHAR, not from the real recordings.
	Synthetic bool
}

// Len returns the number of windows.
func (s *HARSet) Len() int { return len(s.Labels) }

// ClassCounts returns how many windows each activity has (len(Classes)
// entries).
func (s *HARSet) ClassCounts() []int {
	c := make([]int, len(s.Classes))
	for _, l := range s.Labels {
		if l >= 0 && l < len(c) {
			c[l]++
		}
	}
	return c
}

// HARChannels returns the nine inertial channel names in file and channel
// order: body acceleration (g, gravity removed), body angular rate (rad/s)
// and total acceleration (g, gravity included), each x, y, z.
func HARChannels() []string {
	return []string{"body_acc_x", "body_acc_y", "body_acc_z",
		"body_gyro_x", "body_gyro_y", "body_gyro_z",
		"total_acc_x", "total_acc_y", "total_acc_z"}
}

// harActivities are the class names of activity_labels.txt, label 1 first.
func harActivities() []string {
	return []string{"WALKING", "WALKING_UPSTAIRS", "WALKING_DOWNSTAIRS", "SITTING", "STANDING", "LAYING"}
}

const harInstall = "the UCI HAR data set (Anguita et al. 2013) is not packaged for npm or Debian: download " +
	"\"UCI HAR Dataset.zip\" from the UCI Machine Learning Repository (\"Human Activity Recognition Using Smartphones\"), " +
	"unpack it and set NEUROGO_HAR to an unpacked \"UCI HAR Dataset\" directory (activity_labels.txt, train/, test/), " +
	"or write a deterministic synthetic stand-in with data.WriteSyntheticHAR(dir, seed) " +
	"or `neurogo repro har-analog --synthetic` (every figure from it is labelled synthetic)"

// FindHAR returns the directory named by $NEUROGO_HAR (or its
// "UCI HAR Dataset" subdirectory, as unpacked from the UCI archive) when it
// holds the complete layout. Otherwise the error wraps ErrNotFound, lists
// what is missing, and says where the set comes from and how
// to make a synthetic one (WriteSyntheticHAR, `neurogo repro har-analog
// --synthetic`).
func FindHAR() (string, error) {
	d := os.Getenv("NEUROGO_HAR")
	if d == "" {
		return "", fmt.Errorf("data: HAR: $NEUROGO_HAR is not set: %w; %s", ErrNotFound, harInstall)
	}
	missing := harMissing(d)
	if len(missing) == 0 {
		return d, nil
	}
	if sub := filepath.Join(d, "UCI HAR Dataset"); len(harMissing(sub)) == 0 {
		return sub, nil
	}
	return "", fmt.Errorf("data: HAR: $NEUROGO_HAR = %s lacks %s: %w; %s", d, strings.Join(missing, ", "), ErrNotFound, harInstall)
}

// harFiles lists the layout's files relative to its directory.
func harFiles() []string {
	files := []string{harLabels}
	for _, sp := range harSplits {
		files = append(files, harYFile(sp), harSubjectFile(sp))
		for _, ch := range HARChannels() {
			files = append(files, harSignalFile(sp, ch))
		}
	}
	return files
}

func harYFile(split string) string       { return filepath.Join(split, "y_"+split+".txt") }
func harSubjectFile(split string) string { return filepath.Join(split, "subject_"+split+".txt") }
func harSignalFile(split, ch string) string {
	return filepath.Join(split, "Inertial Signals", ch+"_"+split+".txt")
}

// harMissing lists the layout's files that are not regular files in dir.
func harMissing(dir string) []string {
	var missing []string
	for _, f := range harFiles() {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || !st.Mode().IsRegular() {
			missing = append(missing, f)
		}
	}
	return missing
}

// HAR loads the UCI HAR training (7352 windows, 21 subjects) and test (2947
// windows, 9 subjects) splits from dir; dir "" means FindHAR. It reads
// activity_labels.txt, y_<split>.txt, subject_<split>.txt and the nine
// "Inertial Signals" files of each split and checks that every file is
// present (the error lists the missing ones and wraps ErrNotFound), that
// every signal line holds 128 finite numbers, that all eleven files of a
// split have the same number of lines, that labels are in 1..6 and
// subjects in 1..30; these errors name file:line and wrap ErrCorrupt. The
// counts are not required to be the real set's, so subsets load too. A
// README.txt whose first line starts with "SYNTHETIC" (written by
// WriteSyntheticHAR) sets Synthetic on both splits.
func HAR(dir string) (train, test *HARSet, err error) {
	if dir == "" {
		if dir, err = FindHAR(); err != nil {
			return nil, nil, err
		}
	} else if missing := harMissing(dir); len(missing) > 0 {
		return nil, nil, fmt.Errorf("data: HAR: %s lacks %s: %w; %s", dir, strings.Join(missing, ", "), ErrNotFound, harInstall)
	}
	classes, err := readHARLabels(filepath.Join(dir, harLabels))
	if err != nil {
		return nil, nil, err
	}
	synthetic := harIsSynthetic(dir)
	var sets [2]*HARSet
	for i, sp := range harSplits {
		s, err := loadHARSplit(dir, sp)
		if err != nil {
			return nil, nil, err
		}
		s.Classes = append([]string(nil), classes...)
		s.Synthetic = synthetic
		sets[i] = s
	}
	return sets[0], sets[1], nil
}

// harIsSynthetic reports whether dir/README.txt starts with harSynthMark.
func harIsSynthetic(dir string) bool {
	f, err := os.Open(filepath.Join(dir, harReadme))
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(harSynthMark))
	if _, err := io.ReadFull(f, b); err != nil {
		return false
	}
	return string(b) == harSynthMark
}

// readHARLabels reads activity_labels.txt: six lines "k NAME", k = 1..6 in
// order.
func readHARLabels(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("data: HAR: %w", err)
	}
	var names []string
	for i, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, corrupt(fmt.Sprintf("%s:%d", path, i+1), "%d fields: want \"<id> <ACTIVITY>\"", len(f))
		}
		if id, err := strconv.Atoi(f[0]); err != nil || id != len(names)+1 {
			return nil, corrupt(fmt.Sprintf("%s:%d", path, i+1), "id %q: want %d (ids 1..%d in order)", f[0], len(names)+1, harClasses)
		}
		names = append(names, f[1])
	}
	if len(names) != harClasses {
		return nil, corrupt(path, "%d activities: want %d", len(names), harClasses)
	}
	return names, nil
}

// harLines calls fn for every line of path (without the line ending) with
// its 1-based number. Blank lines are allowed only at the end of the file.
// It returns the number of non-blank lines.
func harLines(path string, fn func(line []byte, n int) error) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("data: HAR: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	n, blank := 0, 0
	var long []byte
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull { // a line longer than the buffer
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && err != io.EOF {
			return 0, fmt.Errorf("data: HAR: %s: %w", path, err)
		}
		if len(line) > 0 {
			line = bytes.TrimRight(line, "\r\n")
			if len(bytes.TrimSpace(line)) == 0 {
				if err != io.EOF {
					blank++
				}
			} else {
				if blank > 0 {
					return 0, corrupt(fmt.Sprintf("%s:%d", path, n+1), "blank line before line %d: blank lines are allowed only at the end", n+blank+1)
				}
				n++
				if e := fn(line, n); e != nil {
					return 0, e
				}
			}
		}
		if err == io.EOF {
			return n, nil
		}
	}
}

// readHARInts reads one integer in [lo, hi] per line.
func readHARInts(path string, lo, hi int) ([]int, error) {
	var v []int
	_, err := harLines(path, func(line []byte, n int) error {
		s := string(bytes.TrimSpace(line))
		x, err := strconv.Atoi(s)
		if err != nil {
			// UCI writes integers plainly, but accept "1.0000000e+000".
			f, ferr := strconv.ParseFloat(s, 64)
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1e9 {
				return corrupt(fmt.Sprintf("%s:%d", path, n), "%q: want one integer in %d..%d", s, lo, hi)
			}
			x = int(f)
		}
		if x < lo || x > hi {
			return corrupt(fmt.Sprintf("%s:%d", path, n), "value %d: must be in %d..%d", x, lo, hi)
		}
		v = append(v, x)
		return nil
	})
	return v, err
}

// readHARSignal parses one channel file into dst[i][t*harChannels+ch]; it
// returns the number of lines. Lines beyond len(dst) are counted but not
// stored.
func readHARSignal(path string, dst [][]float64, ch int) (int, error) {
	return harLines(path, func(line []byte, n int) error {
		var row []float64
		if n <= len(dst) {
			row = dst[n-1]
		}
		k := 0
		for i := 0; i < len(line); {
			for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
				i++
			}
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' {
				j++
			}
			if j == i {
				break
			}
			if k < harWindow {
				v, err := strconv.ParseFloat(string(line[i:j]), 64)
				if err != nil {
					return corrupt(fmt.Sprintf("%s:%d", path, n), "number %d %q: not a number", k+1, line[i:j])
				}
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return corrupt(fmt.Sprintf("%s:%d", path, n), "number %d is %v: must be finite", k+1, v)
				}
				if row != nil {
					row[k*harChannels+ch] = v
				}
			}
			k++
			i = j
		}
		if k != harWindow {
			return corrupt(fmt.Sprintf("%s:%d", path, n), "%d numbers: want %d (one window of 2.56 s at 50 Hz)", k, harWindow)
		}
		return nil
	})
}

// loadHARSplit reads one split's labels, subjects and nine signal files
// (the signal files concurrently, each filling its own channel).
func loadHARSplit(dir, split string) (*HARSet, error) {
	yPath := filepath.Join(dir, harYFile(split))
	sPath := filepath.Join(dir, harSubjectFile(split))
	labels, err := readHARInts(yPath, 1, harClasses)
	if err != nil {
		return nil, err
	}
	subjects, err := readHARInts(sPath, 1, harSubjects)
	if err != nil {
		return nil, err
	}
	if len(subjects) != len(labels) {
		return nil, corrupt(sPath, "%d lines, %s has %d: line counts must match", len(subjects), yPath, len(labels))
	}
	n := len(labels)
	flat := make([]float64, n*harWindow*harChannels)
	sig := make([][]float64, n)
	for i := range sig {
		sig[i] = flat[i*harWindow*harChannels : (i+1)*harWindow*harChannels : (i+1)*harWindow*harChannels]
	}
	var wg sync.WaitGroup
	errs := make([]error, harChannels)
	sem := make(chan struct{}, max(1, min(harChannels, runtime.GOMAXPROCS(0))))
	for c, name := range HARChannels() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			p := filepath.Join(dir, harSignalFile(split, name))
			lines, err := readHARSignal(p, sig, c)
			if err == nil && lines != n {
				err = corrupt(p, "%d lines, %s has %d: line counts must match", lines, yPath, n)
			}
			errs[c] = err
		}()
	}
	wg.Wait()
	for _, e := range errs { // the first failing channel; its error names the file
		if e != nil {
			return nil, e
		}
	}
	for i := range labels {
		labels[i]--
	}
	return &HARSet{Signals: sig, Labels: labels, Subjects: subjects}, nil
}
