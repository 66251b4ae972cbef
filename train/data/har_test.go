package data

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Tolerances and thresholds for the HAR tests.
const (
	// harRelTol: the files hold 8 significant digits ("%.7e"), so a value
	// read back differs from the generated one by at most 5e-8 relative;
	// the brief's bound is 1e-6.
	harRelTol = 1e-6
	// harChanceAcc is chance for six classes; the nearest-centroid
	// classifier must reach harMinAcc, well above it (measured 0.884 for
	// seed 1), and stay below harMaxAcc: the synthetic set must not be
	// trivially separable (sitting and standing overlap).
	harChanceAcc = 1.0 / 6
	harMinAcc    = 0.70
	harMaxAcc    = 0.97
	// harMinMoveStatic: moving (walk, up, down) against static (sit,
	// stand, lay) is nearly perfect (measured 0.998).
	harMinMoveStatic = 0.99
	// harMinSitStandConf: the share of sitting and standing windows
	// assigned to the other of the two (measured 0.106) must be clearly
	// present, as in the real data (Anguita et al. 2013; the BrainScaleS-2/hxtorch paper, §4.2),
	// and below harMaxSitStandConf (not a coin toss).
	harMinSitStandConf = 0.05
	harMaxSitStandConf = 0.40
)

// harValue is the tiny layout's value of window i, time t, channel c in
// split k: a multiple of 1/4 below 10^4, exact in 8 significant digits.
func harValue(k, i, t, c int) float64 {
	v := float64(k*4000+i*1000+c*128+t) / 4
	if (t+c)%3 == 0 {
		v = -v
	}
	return v
}

// harTiny is a hand-made layout: 3 training and 2 test windows.
type harTiny struct {
	labels, subjects [2][]int
}

var harTinySpec = harTiny{
	labels:   [2][]int{{5, 1, 6}, {3, 4}},
	subjects: [2][]int{{1, 1, 30}, {2, 24}},
}

// writeHARTiny writes harTinySpec into dir: the training split in UCI's
// padded style, the test split with tabs, single spaces, CRLF line ends and
// a trailing blank line, to exercise the parser.
func writeHARTiny(t *testing.T, dir string) {
	t.Helper()
	put := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(harLabels, "1 WALKING\n2 WALKING_UPSTAIRS\n3 WALKING_DOWNSTAIRS\n4 SITTING\n5 STANDING\n6 LAYING\n")
	put(harReadme, "==================================================================\nHuman Activity Recognition Using Smartphones Dataset\n")
	for k, sp := range harSplits {
		eol := "\n"
		if k == 1 {
			eol = "\r\n"
		}
		var y, s strings.Builder
		for i := range harTinySpec.labels[k] {
			fmt.Fprintf(&y, "%d%s", harTinySpec.labels[k][i], eol)
			fmt.Fprintf(&s, "%d%s", harTinySpec.subjects[k][i], eol)
		}
		put(harYFile(sp), y.String())
		put(harSubjectFile(sp), s.String())
		for c, name := range HARChannels() {
			var b []byte
			for i := range harTinySpec.labels[k] {
				for tt := range harWindow {
					v := harValue(k, i, tt, c)
					if k == 0 {
						b = appendUCIFloat(b, v)
					} else {
						sep := " "
						if tt%2 == 1 {
							sep = "\t"
						}
						b = append(b, sep...)
						b = strconv.AppendFloat(b, v, 'g', -1, 64)
					}
				}
				b = append(b, eol...)
			}
			if k == 1 {
				b = append(b, eol...)
			}
			put(harSignalFile(sp, name), string(b))
		}
	}
}

func TestHARLoadTiny(t *testing.T) {
	dir := t.TempDir()
	writeHARTiny(t, dir)
	train, test, err := HAR(dir)
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range []*HARSet{train, test} {
		want := make([]int, len(harTinySpec.labels[k]))
		for i, l := range harTinySpec.labels[k] {
			want[i] = l - 1
		}
		if !reflect.DeepEqual(s.Labels, want) || !reflect.DeepEqual(s.Subjects, harTinySpec.subjects[k]) {
			t.Errorf("%s: labels %v subjects %v, want %v %v", harSplits[k], s.Labels, s.Subjects, want, harTinySpec.subjects[k])
		}
		if s.Len() != len(want) || len(s.Signals) != len(want) || s.Synthetic {
			t.Errorf("%s: Len %d, %d signal rows, Synthetic %v", harSplits[k], s.Len(), len(s.Signals), s.Synthetic)
		}
		if !reflect.DeepEqual(s.Classes, harActivities()) {
			t.Errorf("%s: Classes %v", harSplits[k], s.Classes)
		}
		for i, row := range s.Signals {
			if len(row) != harWindow*harChannels {
				t.Fatalf("%s window %d: %d values", harSplits[k], i, len(row))
			}
			for tt := range harWindow {
				for c := range harChannels {
					if got, w := row[tt*harChannels+c], harValue(k, i, tt, c); got != w {
						t.Fatalf("%s window %d t %d channel %d: %v, want %v", harSplits[k], i, tt, c, got, w)
					}
				}
			}
		}
	}
	if got := train.ClassCounts(); !reflect.DeepEqual(got, []int{1, 0, 0, 0, 1, 1}) {
		t.Errorf("train ClassCounts = %v", got)
	}
	if got := test.ClassCounts(); !reflect.DeepEqual(got, []int{0, 0, 1, 1, 0, 0}) {
		t.Errorf("test ClassCounts = %v", got)
	}
	// A README starting with SYNTHETIC marks the set.
	if err := os.WriteFile(filepath.Join(dir, harReadme), []byte("SYNTHETIC test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a, b, err := HAR(dir); err != nil || !a.Synthetic || !b.Synthetic {
		t.Errorf("synthetic README: err %v", err)
	}
}

func TestHARCorrupt(t *testing.T) {
	sig := func(sp, ch string) string { return harSignalFile(sp, ch) }
	// edit returns a change to one file: the text's lines through f.
	edit := func(name string, f func(lines []string) []string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			p := filepath.Join(dir, name)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			if err := os.WriteFile(p, []byte(strings.Join(f(lines), "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	field := func(line string, k int, v string) string { // replace number k (0-based)
		f := strings.Fields(line)
		f[k] = v
		return strings.Join(f, " ")
	}
	cases := []struct {
		name   string
		change func(t *testing.T, dir string)
		is     error
		want   []string
	}{
		{"missing file", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, sig("test", "body_gyro_z")))
			os.Remove(filepath.Join(dir, harYFile("train")))
		}, ErrNotFound, []string{"lacks train/y_train.txt, test/Inertial Signals/body_gyro_z_test.txt", "UCI Machine Learning Repository", "WriteSyntheticHAR"}},
		{"127 numbers", edit(sig("train", "body_gyro_y"), func(l []string) []string {
			f := strings.Fields(l[1])
			l[1] = strings.Join(f[:127], "  ")
			return l
		}), ErrCorrupt, []string{"body_gyro_y_train.txt:2", "127 numbers: want 128"}},
		{"129 numbers", edit(sig("train", "total_acc_x"), func(l []string) []string {
			l[0] += " 1.0"
			return l
		}), ErrCorrupt, []string{"total_acc_x_train.txt:1", "129 numbers"}},
		{"long line", edit(sig("test", "body_acc_z"), func(l []string) []string {
			l[1] = strings.Repeat(" 1.5", 20000) // longer than the 64 KiB read buffer
			return l
		}), ErrCorrupt, []string{"body_acc_z_test.txt:2", "20000 numbers: want 128"}},
		{"line count mismatch", edit(sig("train", "total_acc_z"), func(l []string) []string {
			return l[:2]
		}), ErrCorrupt, []string{"total_acc_z_train.txt", "2 lines", "y_train.txt has 3", "line counts must match"}},
		{"subject count mismatch", edit(harSubjectFile("test"), func(l []string) []string {
			return append(l, "2")
		}), ErrCorrupt, []string{"subject_test.txt", "3 lines", "has 2"}},
		{"label 7", edit(harYFile("train"), func(l []string) []string {
			l[2] = "7"
			return l
		}), ErrCorrupt, []string{"y_train.txt:3", "value 7: must be in 1..6"}},
		{"subject 0", edit(harSubjectFile("test"), func(l []string) []string {
			l[1] = "0"
			return l
		}), ErrCorrupt, []string{"subject_test.txt:2", "value 0: must be in 1..30"}},
		{"label not a number", edit(harYFile("test"), func(l []string) []string {
			l[0] = "walk"
			return l
		}), ErrCorrupt, []string{"y_test.txt:1", `"walk"`}},
		{"NaN", edit(sig("train", "body_acc_y"), func(l []string) []string {
			l[2] = field(l[2], 5, "NaN")
			return l
		}), ErrCorrupt, []string{"body_acc_y_train.txt:3", "number 6 is NaN: must be finite"}},
		{"Inf", edit(sig("test", "body_acc_x"), func(l []string) []string {
			l[1] = field(l[1], 0, "-Inf")
			return l
		}), ErrCorrupt, []string{"body_acc_x_test.txt:2", "number 1 is -Inf"}},
		{"garbage number", edit(sig("train", "body_acc_z"), func(l []string) []string {
			l[0] = field(l[0], 127, "1.0e-0x4")
			return l
		}), ErrCorrupt, []string{"body_acc_z_train.txt:1", `number 128 "1.0e-0x4": not a number`}},
		{"blank line inside", edit(sig("train", "body_gyro_x"), func(l []string) []string {
			return append(l[:1], append([]string{""}, l[1:]...)...)
		}), ErrCorrupt, []string{"body_gyro_x_train.txt:2", "blank line"}},
		{"activity labels", edit(harLabels, func(l []string) []string {
			l[3] = "5 SITTING"
			return l
		}), ErrCorrupt, []string{"activity_labels.txt:4", `id "5": want 4`}},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			dir := t.TempDir()
			writeHARTiny(t, dir)
			c.change(t, dir)
			_, _, err := HAR(dir)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.is) {
				t.Errorf("err = %v: does not wrap %v", err, c.is)
			}
			msg := filepath.ToSlash(err.Error())
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("err = %v: want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestFindHAR(t *testing.T) {
	t.Setenv("NEUROGO_HAR", "")
	_, err := FindHAR()
	if err == nil || !errors.Is(err, ErrNotFound) {
		t.Fatalf("unset: err = %v", err)
	}
	for _, w := range []string{"$NEUROGO_HAR is not set", "is not packaged for npm or Debian", "WriteSyntheticHAR", "neurogo repro har-analog --synthetic"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("unset: err = %v: want %q", err, w)
		}
	}
	if _, _, err2 := HAR(""); !errors.Is(err2, ErrNotFound) {
		t.Errorf(`HAR(""), unset: err = %v`, err2)
	}
	empty := t.TempDir()
	t.Setenv("NEUROGO_HAR", empty)
	if _, err := FindHAR(); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "lacks activity_labels.txt") {
		t.Errorf("empty dir: err = %v", err)
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "UCI HAR Dataset")
	writeHARTiny(t, dir)
	for _, env := range []string{dir, parent} {
		t.Setenv("NEUROGO_HAR", env)
		if got, err := FindHAR(); err != nil || got != dir {
			t.Errorf("NEUROGO_HAR=%s: FindHAR = %q, %v; want %q", env, got, err, dir)
		}
	}
	if a, b, err := HAR(""); err != nil || a.Len() != 3 || b.Len() != 2 {
		t.Errorf(`HAR("") with NEUROGO_HAR: err %v`, err)
	}
}

// harSmall is a small spec for tests that write files (about 1/20 of the
// real counts).
var harSmall = harSpec{counts: [2][harClasses]int{{61, 54, 49, 64, 69, 70}, {25, 24, 21, 25, 27, 27}}}

func TestSyntheticHARCounts(t *testing.T) {
	train, test, err := SyntheticHAR(1)
	if err != nil {
		t.Fatal(err)
	}
	for k, c := range []struct {
		s        *HARSet
		counts   [harClasses]int
		subjects []int
	}{{train, harTrainCounts, harTrainSubjects}, {test, harTestCounts, harTestSubjects}} {
		s := c.s
		if !s.Synthetic || !reflect.DeepEqual(s.Classes, harActivities()) {
			t.Errorf("%s: Synthetic %v, Classes %v", harSplits[k], s.Synthetic, s.Classes)
		}
		if got := s.ClassCounts(); !slices.Equal(got, c.counts[:]) {
			t.Errorf("%s: ClassCounts = %v, want %v", harSplits[k], got, c.counts)
		}
		if len(s.Signals) != s.Len() || len(s.Subjects) != s.Len() {
			t.Fatalf("%s: %d signals, %d subjects, %d labels", harSplits[k], len(s.Signals), len(s.Subjects), s.Len())
		}
		// every subject of the split, and only those, does every activity
		per := map[int]*[harClasses]int{}
		for i, subj := range s.Subjects {
			if per[subj] == nil {
				per[subj] = new([harClasses]int)
			}
			per[subj][s.Labels[i]]++
		}
		got := make([]int, 0, len(per))
		for subj, n := range per {
			got = append(got, subj)
			for a, m := range n {
				if m < 10 {
					t.Errorf("%s: subject %d has %d windows of %s", harSplits[k], subj, m, harActivities()[a])
				}
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.subjects) {
			t.Errorf("%s: subjects %v, want %v", harSplits[k], got, c.subjects)
		}
		for i, row := range s.Signals {
			if len(row) != harWindow*harChannels {
				t.Fatalf("%s window %d: %d values", harSplits[k], i, len(row))
			}
			for j, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 8 {
					t.Fatalf("%s window %d value %d = %v: want finite, |v| ≤ 8", harSplits[k], i, j, v)
				}
			}
		}
	}
}

// TestSyntheticHARPhysics checks the units and the gravity model: static
// windows see |total_acc| ≈ 1 g and little rotation; body_acc is total_acc
// minus gravity; laying puts gravity off the phone's x axis.
func TestSyntheticHARPhysics(t *testing.T) {
	const (
		gravTol    = 0.05 // g: |mean total_acc| of a static window (biases ≈ 0.015 g per axis)
		staticGyro = 0.1  // rad/s: std of the gyro in a static window
		movingAcc  = 0.05 // g: minimum std of body_acc (vertical) in a moving window
		bodyMean   = 0.1  // g: |mean body_acc| of any window (gravity, 1 g, is removed; slow gait modulation is not)
	)
	train, _, err := SyntheticHAR(3)
	if err != nil {
		t.Fatal(err)
	}
	var layX, uprightX []float64
	for i, row := range train.Signals {
		var mean, sd [harChannels]float64
		for c := range harChannels {
			for tt := range harWindow {
				mean[c] += row[tt*harChannels+c] / harWindow
			}
			for tt := range harWindow {
				d := row[tt*harChannels+c] - mean[c]
				sd[c] += d * d / harWindow
			}
			sd[c] = math.Sqrt(sd[c])
		}
		l := train.Labels[i]
		for ax := range 3 {
			if math.Abs(mean[ax]) > bodyMean {
				t.Fatalf("window %d (%s): body_acc mean %v", i, train.Classes[l], mean[:3])
			}
		}
		g := math.Sqrt(mean[6]*mean[6] + mean[7]*mean[7] + mean[8]*mean[8])
		switch {
		case l >= 3: // static
			if math.Abs(g-1) > gravTol || sd[3] > staticGyro || sd[4] > staticGyro || sd[5] > staticGyro {
				t.Fatalf("window %d (%s): |total_acc| %v g, gyro std %v", i, train.Classes[l], g, sd[3:6])
			}
			if l == 5 {
				layX = append(layX, mean[6])
			} else {
				uprightX = append(uprightX, mean[6])
			}
		default:
			if sd[0] < movingAcc {
				t.Fatalf("window %d (%s): body_acc_x std %v g", i, train.Classes[l], sd[0])
			}
		}
	}
	if slices.Max(layX) > 0.6 || slices.Min(uprightX) < 0.8 {
		t.Errorf("total_acc_x: laying up to %v g, sitting/standing down to %v g; want gravity off x when laying", slices.Max(layX), slices.Min(uprightX))
	}
}

func TestSyntheticHARDeterminism(t *testing.T) {
	a1, b1, _ := SyntheticHAR(5)
	prev := runtime.GOMAXPROCS(1) // subjects one after another: the same output
	a2, b2, _ := SyntheticHAR(5)
	runtime.GOMAXPROCS(prev)
	if !reflect.DeepEqual(a1, a2) || !reflect.DeepEqual(b1, b2) {
		t.Error("seed 5 twice (GOMAXPROCS default and 1): different sets")
	}
	c, _, _ := SyntheticHAR(6)
	if reflect.DeepEqual(a1.Signals[0], c.Signals[0]) {
		t.Error("seeds 5 and 6: the same first window")
	}
	// Files: the same seed gives the same bytes, another seed other bytes.
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	for i, seed := range []int64{7, 7, 8} {
		if err := writeSynthHAR(dirs[i], seed, harSmall); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range append(harFiles(), harReadme) {
		read := func(d string) []byte {
			b, err := os.ReadFile(filepath.Join(d, f))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		x, y, z := read(dirs[0]), read(dirs[1]), read(dirs[2])
		if !bytes.Equal(x, y) {
			t.Errorf("%s: seed 7 twice: different bytes", f)
		}
		if strings.Contains(f, "Inertial Signals") && bytes.Equal(x, z) {
			t.Errorf("%s: seeds 7 and 8: the same bytes", f)
		}
	}
}

// TestSyntheticHAROverlap: consecutive windows of one recording share 64
// samples (50 % overlap), and each subject performs each activity twice.
func TestSyntheticHAROverlap(t *testing.T) {
	train, test, _ := SyntheticHAR(1)
	for k, s := range []*HARSet{train, test} {
		pairs := 0
		runs := map[[2]int]int{}
		for i := range s.Labels {
			if i == 0 || s.Subjects[i] != s.Subjects[i-1] || s.Labels[i] != s.Labels[i-1] {
				runs[[2]int{s.Subjects[i], s.Labels[i]}]++
				continue
			}
			prev, cur := s.Signals[i-1], s.Signals[i]
			if !slices.Equal(cur[:harHop*harChannels], prev[harHop*harChannels:]) {
				t.Fatalf("%s windows %d and %d (subject %d, %s): first half of the second is not the second half of the first",
					harSplits[k], i-1, i, s.Subjects[i], s.Classes[s.Labels[i]])
			}
			pairs++
		}
		for key, n := range runs {
			if n != harExecutions {
				t.Errorf("%s: subject %d, %s: %d recordings, want %d", harSplits[k], key[0], s.Classes[key[1]], n, harExecutions)
			}
		}
		t.Logf("%s: %d overlapping window pairs in %d recordings", harSplits[k], pairs, len(runs))
	}
}

// harRoundTrip writes a synthetic set with spec, loads it with HAR and
// compares it with synthHAR's windows.
func harRoundTrip(t *testing.T, seed int64, spec harSpec) {
	t.Helper()
	dir := t.TempDir()
	t0 := time.Now()
	if err := writeSynthHAR(dir, seed, spec); err != nil {
		t.Fatal(err)
	}
	tw := time.Since(t0)
	t0 = time.Now()
	train, test, err := HAR(dir)
	if err != nil {
		t.Fatal(err)
	}
	tl := time.Since(t0)
	var size int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			size += fi.Size()
		}
		return nil
	})
	t.Logf("seed %d: %d + %d windows written in %v (%.1f MB), loaded in %v", seed, train.Len(), test.Len(), tw.Round(time.Millisecond), float64(size)/1e6, tl.Round(time.Millisecond))
	mtrain, mtest, _ := synthHAR(seed, spec)
	for k, p := range [][2]*HARSet{{train, mtrain}, {test, mtest}} {
		got, want := p[0], p[1]
		if !got.Synthetic || !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.Subjects, want.Subjects) || !slices.Equal(got.Classes, want.Classes) {
			t.Fatalf("%s: loaded labels, subjects, classes or Synthetic differ from SyntheticHAR's", harSplits[k])
		}
		worst := 0.0
		for i := range want.Signals {
			for j, w := range want.Signals[i] {
				d := math.Abs(got.Signals[i][j] - w)
				if d > harRelTol*math.Abs(w) {
					t.Fatalf("%s window %d value %d: loaded %v, generated %v", harSplits[k], i, j, got.Signals[i][j], w)
				}
				if w != 0 {
					worst = max(worst, d/math.Abs(w))
				}
			}
		}
		t.Logf("%s: largest relative difference %.2g", harSplits[k], worst)
	}
	readme, _ := os.ReadFile(filepath.Join(dir, harReadme))
	for _, w := range []string{"SYNTHETIC", fmt.Sprintf("generator version %d, seed %d.", harSynthVersion, seed)} {
		if !strings.Contains(string(readme), w) {
			t.Errorf("README.txt lacks %q:\n%s", w, readme)
		}
	}
}

func TestSyntheticHARRoundTripSmall(t *testing.T) { harRoundTrip(t, 11, harSmall) }

// TestSyntheticHARRoundTripFull writes and reads the full-size set (about
// 190 MB; measured 0.5–1.2 s to write and 0.4–0.9 s to load on the
// shared 2-core machine).
func TestSyntheticHARRoundTripFull(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 180 MB; skipped with -short")
	}
	harRoundTrip(t, 1, harFullSpec)
}

func TestWriteSyntheticHARRefusesRealData(t *testing.T) {
	dir := t.TempDir()
	writeHARTiny(t, dir) // its README.txt is the real set's
	err := WriteSyntheticHAR(dir, 1)
	if err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Errorf("err = %v", err)
	}
	if err := WriteSyntheticHAR("", 1); err == nil {
		t.Error(`WriteSyntheticHAR(""): no error`)
	}
	// a synthetic set may be rewritten
	if err := writeSynthHAR(dir+"/synth", 1, harSmall); err != nil {
		t.Fatal(err)
	}
	if err := writeSynthHAR(dir+"/synth", 2, harSmall); err != nil {
		t.Errorf("rewrite synthetic: %v", err)
	}
}

func TestAppendUCIFloat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{1.808515e-4, "  1.8085150e-004"},
		{-2.3, " -2.3000000e+000"},
		{0, "  0.0000000e+000"},
		{1e100, "  1.0000000e+100"},
		{-1.23456789e-123, " -1.2345679e-123"},
	} {
		if got := string(appendUCIFloat(nil, c.v)); got != c.want {
			t.Errorf("appendUCIFloat(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// harFeatures are per-channel mean and standard deviation of a window.
func harFeatures(s *HARSet) [][]float64 {
	out := make([][]float64, s.Len())
	for i, w := range s.Signals {
		f := make([]float64, 2*harChannels)
		for c := range harChannels {
			m := 0.0
			for tt := range harWindow {
				m += w[tt*harChannels+c]
			}
			m /= harWindow
			v := 0.0
			for tt := range harWindow {
				d := w[tt*harChannels+c] - m
				v += d * d
			}
			f[c], f[harChannels+c] = m, math.Sqrt(v/harWindow)
		}
		out[i] = f
	}
	return out
}

// TestSyntheticHARSeparability: a nearest-centroid classifier on
// standardised per-channel mean/std features, trained on the synthetic
// training split and tested on the test split (other subjects), is far
// above chance, separates moving from static almost perfectly and confuses
// sitting with standing, as the real data do.
func TestSyntheticHARSeparability(t *testing.T) {
	train, test, err := SyntheticHAR(1)
	if err != nil {
		t.Fatal(err)
	}
	ftr, fte := harFeatures(train), harFeatures(test)
	nf := len(ftr[0])
	mu, sd := make([]float64, nf), make([]float64, nf)
	for _, f := range ftr {
		for j, v := range f {
			mu[j] += v / float64(len(ftr))
		}
	}
	for _, f := range ftr {
		for j, v := range f {
			sd[j] += (v - mu[j]) * (v - mu[j]) / float64(len(ftr))
		}
	}
	for _, fs := range [][][]float64{ftr, fte} {
		for _, f := range fs {
			for j := range f {
				f[j] = (f[j] - mu[j]) / math.Sqrt(sd[j])
			}
		}
	}
	var cen [harClasses][]float64
	counts := train.ClassCounts()
	for c := range cen {
		cen[c] = make([]float64, nf)
	}
	for i, f := range ftr {
		for j, v := range f {
			cen[train.Labels[i]][j] += v / float64(counts[train.Labels[i]])
		}
	}
	var cm [harClasses][harClasses]int
	correct, moveStatic := 0, 0
	for i, f := range fte {
		best, bd := 0, math.Inf(1)
		for c := range cen {
			d := 0.0
			for j := range f {
				d += (f[j] - cen[c][j]) * (f[j] - cen[c][j])
			}
			if d < bd {
				best, bd = c, d
			}
		}
		l := test.Labels[i]
		cm[l][best]++
		if best == l {
			correct++
		}
		if (best <= 2) == (l <= 2) {
			moveStatic++
		}
	}
	n := float64(test.Len())
	acc, ms := float64(correct)/n, float64(moveStatic)/n
	sitStand := float64(cm[3][4]+cm[4][3]) / float64(test.ClassCounts()[3]+test.ClassCounts()[4])
	t.Logf("nearest centroid, seed 1: accuracy %.3f (chance %.3f), moving vs static %.4f, sitting↔standing confusion %.3f", acc, harChanceAcc, ms, sitStand)
	for l, row := range cm {
		t.Logf("  %-18s %v", test.Classes[l], row)
	}
	if acc < harMinAcc || acc > harMaxAcc {
		t.Errorf("accuracy %.3f: want in [%.2f, %.2f]", acc, harMinAcc, harMaxAcc)
	}
	if ms < harMinMoveStatic {
		t.Errorf("moving vs static %.4f: want at least %.2f", ms, harMinMoveStatic)
	}
	if sitStand < harMinSitStandConf || sitStand > harMaxSitStandConf {
		t.Errorf("sitting↔standing confusion %.3f: want in [%.2f, %.2f]", sitStand, harMinSitStandConf, harMaxSitStandConf)
	}
}
