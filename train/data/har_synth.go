package data

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// The synthetic UCI HAR generator. It imitates the real set's protocol and
// layout (Anguita et al. 2013; the data set's README.txt): 30 subjects
// with a phone at the waist perform six activities, recorded continuously
// at 50 Hz and cut into 2.56 s windows (128 samples) with 50 % overlap.
// Signals come from a simple kinematic model, not from recordings; see
// WriteSyntheticHAR.

// harSynthVersion is written into the README; bump it whenever the
// generator's output for a seed changes.
const harSynthVersion = 2

const (
	harRate = 50.0          // Hz
	harHop  = harWindow / 2 // 50 % overlap: consecutive windows share 64 samples
	// harGravityCut is the corner of the low-pass gravity estimate (Hz), as
	// in the UCI preprocessing (Anguita et al. 2013: a 0.3 Hz Butterworth).
	harGravityCut = 0.3
)

// The real set's subjects per split and windows per class (label 1..6)
// per split (UCI HAR README.txt; counts of y_train.txt and y_test.txt).
var (
	harTrainSubjects = []int{1, 3, 5, 6, 7, 8, 11, 14, 15, 16, 17, 19, 21, 22, 23, 25, 26, 27, 28, 29, 30}
	harTestSubjects  = []int{2, 4, 9, 10, 12, 13, 18, 20, 24}
	harTrainCounts   = [harClasses]int{1226, 1073, 986, 1286, 1374, 1407}
	harTestCounts    = [harClasses]int{496, 471, 420, 491, 532, 537}
)

// harProtocol is the order in which a subject performs the activities
// (labels 0..5), as in the UCI protocol: standing, sitting, laying,
// walking, walking downstairs, walking upstairs.
var harProtocol = [harClasses]int{4, 3, 5, 0, 2, 1}

// harSpec fixes the windows per class of each split (tests use small ones).
type harSpec struct {
	counts [2][harClasses]int
}

// harFullSpec is the real set's size.
var harFullSpec = harSpec{counts: [2][harClasses]int{harTrainCounts, harTestCounts}}

// SyntheticHAR returns the deterministic synthetic stand-in for UCI HAR
// that WriteSyntheticHAR(dir, seed) writes: the same subjects, class
// counts and windows (the loaded files equal these values within the
// text precision, 8 significant digits), with Synthetic = true. The same
// seed always gives the same windows (on one platform: math.Sin and
// math.Exp may differ in the last bit between architectures).
func SyntheticHAR(seed int64) (train, test *HARSet, err error) {
	return synthHAR(seed, harFullSpec)
}

// WriteSyntheticHAR writes a synthetic UCI HAR set (SyntheticHAR(seed))
// into dir in the real layout — activity_labels.txt, train/ and test/ with
// y_<split>.txt, subject_<split>.txt and the nine "Inertial Signals" files,
// 128 numbers per line in UCI's style (16 characters each, 8 significant
// digits, three-digit exponent: "  1.8085150e-004 -2.3000000e+000") —
// plus a README.txt whose first line says SYNTHETIC and which names the
// generator version and seed (HAR reads it and sets Synthetic). dir is
// created if needed; a dir holding a README.txt that is not a synthetic
// one (say, the real data) is refused.
//
// The model (one continuous recording per subject and activity, cut into
// 128-sample windows with 50 % overlap; every random draw from PCG streams
// seeded by seed and the subject, so subjects are generated concurrently
// without changing the output):
//   - per subject: step cadence 1.6–2.2 Hz, gait amplitude ×0.75–1.3,
//     gait harmonic phases, phone-mounting rotation (4° per axis, standard deviation),
//     standing lean, the extra lean when sitting (12° ± 2.5°; with the
//     mounting and standing lean it overlaps between subjects), the angle lying on the back, sway amplitudes and
//     accelerometer (0.015 g) and gyroscope (0.01 rad/s) biases;
//   - walking: vertical acceleration at the step frequency with two
//     harmonics, a heel-strike pulse, anterior-posterior acceleration at
//     the step and medio-lateral at the stride frequency, pelvic rotation
//     (yaw and roll at the stride, pitch at the step frequency) giving the
//     gyroscope signal and a moving gravity direction; cadence and
//     amplitude wander slowly (Ornstein–Uhlenbeck, 3 % and 8 %);
//     upstairs: cadence ×0.78–0.88, stronger vertical and forward push,
//     forward lean; downstairs: cadence ×1.05–1.18, sharp impacts, backward
//     lean;
//   - sitting, standing, laying: gravity along the posture's up direction
//     with slow sway (three sinusoids of 0.05–0.4 Hz per axis, 0.1–0.9°) and sensor
//     noise; laying puts gravity along the phone's z axis;
//   - total_acc = mounting·(gravity + body acceleration) + bias + noise
//     (0.004 g), body_gyro = mounting·angular rate + bias + noise
//     (0.005 rad/s), body_acc = total_acc minus its gravity estimate: a
//     second-order 0.3 Hz Butterworth low-pass run forwards and backwards
//     over the whole recording (zero phase).
//
// The full set (7352 + 2947 windows) is about 190 MB of text.
func WriteSyntheticHAR(dir string, seed int64) error {
	return writeSynthHAR(dir, seed, harFullSpec)
}

func writeSynthHAR(dir string, seed int64, spec harSpec) error {
	if dir == "" {
		return fmt.Errorf("data: WriteSyntheticHAR: dir is empty: give a directory to write the set into")
	}
	if b, err := os.ReadFile(filepath.Join(dir, harReadme)); err == nil && !strings.HasPrefix(string(b), harSynthMark) {
		return fmt.Errorf("data: WriteSyntheticHAR: dir = %s: it holds a README.txt that is not a synthetic set's (real data?); refusing to overwrite", dir)
	}
	train, test, err := synthHAR(seed, spec)
	if err != nil {
		return err
	}
	for _, sp := range harSplits {
		if err := os.MkdirAll(filepath.Join(dir, sp, "Inertial Signals"), 0o755); err != nil {
			return fmt.Errorf("data: WriteSyntheticHAR: %w", err)
		}
	}
	// The README first: a partly written set is never mistaken for real data.
	if err := os.WriteFile(filepath.Join(dir, harReadme), []byte(harSynthReadme(seed, train, test)), 0o644); err != nil {
		return fmt.Errorf("data: WriteSyntheticHAR: %w", err)
	}
	var labels strings.Builder
	for i, name := range harActivities() {
		fmt.Fprintf(&labels, "%d %s\n", i+1, name)
	}
	if err := os.WriteFile(filepath.Join(dir, harLabels), []byte(labels.String()), 0o644); err != nil {
		return fmt.Errorf("data: WriteSyntheticHAR: %w", err)
	}
	type job struct {
		path string
		fill func(w *bufio.Writer)
	}
	var jobs []job
	for k, s := range []*HARSet{train, test} {
		sp := harSplits[k]
		jobs = append(jobs,
			job{filepath.Join(dir, harYFile(sp)), func(w *bufio.Writer) { writeInts(w, s.Labels, 1) }},
			job{filepath.Join(dir, harSubjectFile(sp)), func(w *bufio.Writer) { writeInts(w, s.Subjects, 0) }})
		for c, name := range HARChannels() {
			jobs = append(jobs, job{filepath.Join(dir, harSignalFile(sp, name)), func(w *bufio.Writer) { writeChannel(w, s.Signals, c) }})
		}
	}
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			f, err := os.Create(j.path)
			if err != nil {
				errs[i] = err
				return
			}
			w := bufio.NewWriterSize(f, 1<<16)
			j.fill(w)
			err = w.Flush()
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("data: WriteSyntheticHAR: %w", err)
		}
	}
	return nil
}

func harSynthReadme(seed int64, train, test *HARSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s UCI HAR layout: NOT the real data set.\n\n", harSynthMark)
	fmt.Fprintf(&b, "Written by neurogo (github.com/neurogo/neurogo/train/data.WriteSyntheticHAR),\n")
	fmt.Fprintf(&b, "generator version %d, seed %d.\n\n", harSynthVersion, seed)
	fmt.Fprintf(&b, "The layout, subjects and class counts imitate \"Human Activity Recognition Using\n")
	fmt.Fprintf(&b, "Smartphones\" (Anguita et al. 2013): %d training and %d test windows of 128\n", train.Len(), test.Len())
	fmt.Fprintf(&b, "samples (2.56 s at 50 Hz, 50 %% overlap), nine inertial channels (acceleration in g,\n")
	fmt.Fprintf(&b, "angular rate in rad/s). The signals come from a kinematic model (see the Go\n")
	fmt.Fprintf(&b, "documentation of WriteSyntheticHAR), not from recordings. Every result obtained\n")
	fmt.Fprintf(&b, "from these files must be labelled synthetic.\n")
	return b.String()
}

// writeInts writes one integer per line (value + add).
func writeInts(w *bufio.Writer, v []int, add int) {
	var buf []byte
	for _, x := range v {
		buf = strconv.AppendInt(buf[:0], int64(x+add), 10)
		buf = append(buf, '\n')
		w.Write(buf)
	}
}

// writeChannel writes channel c of every window, one window per line.
func writeChannel(w *bufio.Writer, sig [][]float64, c int) {
	buf := make([]byte, 0, harWindow*16+1)
	for _, row := range sig {
		buf = buf[:0]
		for t := 0; t < harWindow; t++ {
			buf = appendUCIFloat(buf, row[t*harChannels+c])
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
}

// appendUCIFloat appends v as UCI writes it: a space, the sign or a space,
// and 8 significant digits with a three-digit exponent, e.g.
// "  1.8085150e-004" or " -2.3000000e+000" (16 bytes).
func appendUCIFloat(b []byte, v float64) []byte {
	b = append(b, ' ')
	if !math.Signbit(v) {
		b = append(b, ' ')
	}
	start := len(b)
	b = strconv.AppendFloat(b, v, 'e', 7, 64)
	// strconv writes at least two exponent digits; UCI writes three.
	e := start
	for e < len(b) && b[e] != 'e' {
		e++
	}
	if len(b)-e == 4 { // "e+dd"
		b = append(b, 0)
		copy(b[e+3:], b[e+2:e+4])
		b[e+2] = '0'
	}
	return b
}

// harStream returns an independent PCG stream for (seed, kind, a, b).
func harStream(seed int64, kind, a, b uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x4841522d73796e74^(kind<<48)^(a<<24)^b)) // "HAR-synt"
}

// harAllocate splits each class count of a split over its subjects with
// per-subject weights (0.8–1.2 for the subject, ×0.85–1.15 per class) by
// largest remainders, so the class totals are exact.
func harAllocate(r *rand.Rand, counts [harClasses]int, nSub int) [][harClasses]int {
	out := make([][harClasses]int, nSub)
	subW := make([]float64, nSub)
	for s := range subW {
		subW[s] = 0.8 + 0.4*r.Float64()
	}
	for c, total := range counts {
		w := make([]float64, nSub)
		sum := 0.0
		for s := range w {
			w[s] = subW[s] * (0.85 + 0.3*r.Float64())
			sum += w[s]
		}
		given := 0
		rem := make([]float64, nSub)
		for s := range w {
			x := float64(total) * w[s] / sum
			out[s][c] = int(x)
			rem[s] = x - float64(out[s][c])
			given += out[s][c]
		}
		for ; given < total; given++ { // largest remainder first, lowest index on ties
			best := 0
			for s := range rem {
				if rem[s] > rem[best] {
					best = s
				}
			}
			out[best][c]++
			rem[best] = -1
		}
	}
	return out
}

// synthHAR generates both splits; subjects run concurrently, each from its
// own streams.
func synthHAR(seed int64, spec harSpec) (train, test *HARSet, err error) {
	var sets [2]*HARSet
	for k, subjects := range [][]int{harTrainSubjects, harTestSubjects} {
		alloc := harAllocate(harStream(seed, 1, uint64(k), 0), spec.counts[k], len(subjects))
		type part struct {
			windows [][]float64
			labels  []int
		}
		parts := make([]part, len(subjects))
		var wg sync.WaitGroup
		sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
		for i, subj := range subjects {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				parts[i].windows, parts[i].labels = harSubjectWindows(seed, subj, alloc[i])
			}()
		}
		wg.Wait()
		n := 0
		for _, p := range parts {
			n += len(p.labels)
		}
		const size = harWindow * harChannels
		flat := make([]float64, 0, n*size)
		s := &HARSet{Signals: make([][]float64, 0, n), Labels: make([]int, 0, n), Subjects: make([]int, 0, n),
			Classes: harActivities(), Synthetic: true}
		for i, subj := range subjects {
			for w, c := range parts[i].labels {
				s.Labels = append(s.Labels, c)
				s.Subjects = append(s.Subjects, subj)
				lo := len(flat)
				flat = append(flat, parts[i].windows[w]...)
				s.Signals = append(s.Signals, flat[lo:lo+size:lo+size])
			}
		}
		sets[k] = s
	}
	return sets[0], sets[1], nil
}

// harTraits are one subject's fixed properties.
type harTraits struct {
	cadence, amp          float64    // steps/s; gait amplitude factor
	ph                    [8]float64 // gait harmonic phases
	mount                 mat3       // phone orientation on the waist
	lean, sitLean, sitRol float64    // rad
	layPitch, layRoll     float64    // rad
	sway                  [3]float64 // rad: standing, sitting, laying
	accBias, gyroBias     [3]float64
}

func deg(x float64) float64 { return x * math.Pi / 180 }

func harSubjectTraits(r *rand.Rand) harTraits {
	var t harTraits
	t.cadence = 1.6 + 0.6*r.Float64()
	t.amp = 0.75 + 0.55*r.Float64()
	for i := range t.ph {
		t.ph[i] = 2 * math.Pi * r.Float64()
	}
	t.mount = rot(deg(4)*r.NormFloat64(), deg(4)*r.NormFloat64(), deg(4)*r.NormFloat64())
	t.lean = deg(2) * r.NormFloat64()
	t.sitLean = deg(12) + deg(2.5)*r.NormFloat64()
	t.sitRol = deg(2) * r.NormFloat64()
	t.layPitch = deg(90) + deg(8)*r.NormFloat64()
	t.layRoll = deg(12) * r.NormFloat64()
	t.sway = [3]float64{deg(0.3 + 0.6*r.Float64()), deg(0.2 + 0.5*r.Float64()), deg(0.1 + 0.3*r.Float64())}
	for i := range 3 {
		t.accBias[i] = 0.015 * r.NormFloat64()
		t.gyroBias[i] = 0.01 * r.NormFloat64()
	}
	return t
}

// harExecutions is how often a subject performs each activity; as in the
// UCI protocol, the whole sequence is performed twice.
const harExecutions = 2

// harSubjectWindows generates one subject's recordings (the protocol
// sequence, harExecutions times; each activity's windows split between the
// executions) and returns their windows (128·9 values each, channels last)
// and labels in recording order.
func harSubjectWindows(seed int64, subject int, counts [harClasses]int) (windows [][]float64, labels []int) {
	tr := harSubjectTraits(harStream(seed, 2, uint64(subject), 0))
	for e := range harExecutions {
		for _, c := range harProtocol {
			n := counts[c] / harExecutions
			if e < counts[c]%harExecutions {
				n++
			}
			if n == 0 {
				continue
			}
			r := harStream(seed, 3, uint64(subject), uint64(c*harExecutions+e))
			windows = append(windows, harRecording(r, &tr, c, n)...)
			for range n {
				labels = append(labels, c)
			}
		}
	}
	return windows, labels
}

// gait holds the per-activity gait parameters (amplitudes in g and rad).
type gait struct {
	av, h2, h3, aap, aml   float64 // vertical, its 2nd/3rd step harmonics, AP, ML
	imp, kappa             float64 // heel-strike pulse amplitude and sharpness
	yaw, roll, pitch, lean float64 // pelvic rotation amplitudes; extra lean
	cadLo, cadHi           float64 // cadence factor range
	apPush                 float64 // AP step harmonic
}

func harGait(c int) gait {
	switch c {
	case 1: // upstairs: slower, stronger vertical and forward push, forward lean
		return gait{av: 0.34, h2: 0.25, h3: 0.08, aap: 0.22, aml: 0.07, imp: 0.06, kappa: 2,
			yaw: deg(3), roll: deg(3), pitch: deg(4), lean: deg(-6), cadLo: 0.78, cadHi: 0.88, apPush: 0.4}
	case 2: // downstairs: faster, sharp impacts, backward lean
		return gait{av: 0.22, h2: 0.2, h3: 0.1, aap: 0.12, aml: 0.10, imp: 0.45, kappa: 8,
			yaw: deg(3), roll: deg(5), pitch: deg(2.5), lean: deg(3), cadLo: 1.05, cadHi: 1.18, apPush: 0.2}
	default: // walking
		return gait{av: 0.22, h2: 0.3, h3: 0.1, aap: 0.15, aml: 0.08, imp: 0.12, kappa: 3,
			yaw: deg(4), roll: deg(3), pitch: deg(2), lean: 0, cadLo: 0.97, cadHi: 1.03, apPush: 0.3}
	}
}

// besselI0 is the modified Bessel function of the first kind, order 0
// (power series; κ ≤ 10 here).
func besselI0(x float64) float64 {
	s, term := 1.0, 1.0
	for k := 1; k < 60; k++ {
		term *= (x / 2) * (x / 2) / float64(k*k)
		s += term
		if term < 1e-17*s {
			break
		}
	}
	return s
}

// ou is an Ornstein–Uhlenbeck process with unit stationary variance and
// time constant tau, stepped exactly at dt.
type ou struct{ x, a, b float64 }

func newOU(r *rand.Rand, tau float64) ou {
	a := math.Exp(-1 / (harRate * tau))
	return ou{x: r.NormFloat64(), a: a, b: math.Sqrt(1 - a*a)}
}

func (o *ou) step(r *rand.Rand) float64 {
	o.x = o.a*o.x + o.b*r.NormFloat64()
	return o.x
}

// harRecording makes one continuous recording of activity c long enough
// for n windows (64·(n+1) samples) and cuts it into the windows.
func harRecording(r *rand.Rand, tr *harTraits, c, n int) [][]float64 {
	T := harHop * (n + 1)
	total := make([][3]float64, T)
	gyro := make([][3]float64, T)
	up := vec3{1, 0, 0} // world vertical in the upright body frame (x up, y left, z forward)
	moving := c <= 2
	var posture mat3
	var sway float64
	switch c {
	case 3: // sitting
		posture = rot(0, tr.lean+tr.sitLean+deg(2)*r.NormFloat64(), tr.sitRol+deg(2)*r.NormFloat64())
		sway = tr.sway[1]
	case 4: // standing
		posture = rot(0, tr.lean+deg(2)*r.NormFloat64(), deg(2)*r.NormFloat64())
		sway = tr.sway[0]
	case 5: // laying on the back: the body's z (forward) axis points up
		posture = rot(0, tr.layPitch+deg(5)*r.NormFloat64(), 0).mul(rot(tr.layRoll+deg(10)*r.NormFloat64(), 0, 0))
		sway = tr.sway[2]
	default:
		g := harGait(c)
		posture = rot(0, tr.lean+g.lean+deg(1.5)*r.NormFloat64(), 0)
	}
	// static sway: three sinusoids of 0.05–0.4 Hz per axis; posture drift
	// (all activities): two of 0.003–0.02 Hz per axis, 2° in all
	var sf, sp, sa [3][5]float64
	for ax := range 3 {
		for j := range 5 {
			if j < 3 {
				sf[ax][j] = 2 * math.Pi * (0.05 + 0.35*r.Float64())
				sa[ax][j] = sway * (0.5 + r.Float64()) * math.Sqrt(2.0/3)
			} else {
				sf[ax][j] = 2 * math.Pi * (0.003 + 0.017*r.Float64())
				sa[ax][j] = deg(2) * (0.5 + r.Float64())
			}
			sp[ax][j] = 2 * math.Pi * r.Float64()
		}
	}
	if moving {
		for ax := range 3 {
			for j := range 3 {
				sa[ax][j] = 0
			}
		}
	}
	g := harGait(c)
	cad := tr.cadence * (g.cadLo + (g.cadHi-g.cadLo)*r.Float64()) * (1 + 0.02*r.NormFloat64())
	amp := tr.amp * (1 + 0.12*r.NormFloat64())
	fOU, aOU := newOU(r, 2), newOU(r, 1.5)
	impMean := math.Exp(-g.kappa) * besselI0(g.kappa)
	phi := 2 * math.Pi * r.Float64() // stride phase; the step phase is 2·phi
	dt := 1 / harRate
	for i := range T {
		t := float64(i) * dt
		var alpha, omega, lin vec3
		if moving {
			f := cad * (1 + 0.03*fOU.step(r)) // steps/s
			a := amp * (1 + 0.08*aOU.step(r))
			w := math.Pi * f // stride phase rate, rad/s
			phi += w * dt
			ph := &tr.ph
			s2 := 2*phi + ph[0]
			vert := g.av * (math.Sin(s2) + g.h2*math.Sin(2*s2+ph[1]) + g.h3*math.Sin(3*s2+ph[2]))
			vert += g.imp * (math.Exp(g.kappa*(math.Cos(s2-ph[3])-1)) - impMean)
			ap := g.aap * (math.Sin(s2+math.Pi/2+ph[4]) + g.apPush*math.Sin(2*s2+ph[5]))
			ml := g.aml * math.Sin(phi+ph[6])
			lin = vec3{a * vert, a * ml, a * ap}
			// pelvic rotation: yaw about x and roll about z at the stride,
			// pitch about y at the step frequency; ω = dα/dt (small angles)
			yawA, rollA, pitchA := a*g.yaw, a*g.roll, a*g.pitch
			alpha = vec3{yawA * math.Sin(phi+ph[7]), pitchA * math.Sin(s2+ph[6]), rollA * math.Sin(phi+ph[2])}
			omega = vec3{yawA * w * math.Cos(phi+ph[7]), pitchA * 2 * w * math.Cos(s2+ph[6]), rollA * w * math.Cos(phi+ph[2])}
		}
		for ax := range 3 {
			for j := range 5 {
				x := sf[ax][j]*t + sp[ax][j]
				alpha[ax] += sa[ax][j] * math.Sin(x)
				omega[ax] += sa[ax][j] * sf[ax][j] * math.Cos(x)
			}
		}
		o := posture.mul(rot(alpha[0], alpha[1], alpha[2]))
		grav := o.tmulv(up) // world up seen in the body frame
		acc := tr.mount.tmulv(grav.add(lin))
		om := tr.mount.tmulv(omega)
		for ax := range 3 {
			total[i][ax] = acc[ax] + tr.accBias[ax] + 0.004*r.NormFloat64()
			gyro[i][ax] = om[ax] + tr.gyroBias[ax] + 0.005*r.NormFloat64()
		}
	}
	grav := gravityEstimate(total)
	out := make([][]float64, n)
	for k := range out {
		w := make([]float64, harWindow*harChannels)
		for t := range harWindow {
			i := k*harHop + t
			row := w[t*harChannels : (t+1)*harChannels]
			for ax := range 3 {
				row[ax] = total[i][ax] - grav[i][ax]
				row[3+ax] = gyro[i][ax]
				row[6+ax] = total[i][ax]
			}
		}
		out[k] = w
	}
	return out
}

// gravityEstimate low-passes each axis with a second-order Butterworth
// filter (bilinear transform, corner harGravityCut) run forwards and then
// backwards (zero phase, fourth-order magnitude), each pass started in its
// steady state for the first sample it sees.
func gravityEstimate(x [][3]float64) [][3]float64 {
	k := math.Tan(math.Pi * harGravityCut / harRate)
	norm := 1 / (1 + math.Sqrt2*k + k*k)
	b0 := k * k * norm
	b1, b2 := 2*b0, b0
	a1 := 2 * (k*k - 1) * norm
	a2 := (1 - math.Sqrt2*k + k*k) * norm
	y := make([][3]float64, len(x))
	if len(x) == 0 {
		return y
	}
	pass := func(get func(i int) float64, set func(i int, v float64), idx func(j int) int) {
		x0 := get(idx(0))
		z2 := (b2 - a2) * x0
		z1 := (b1-a1)*x0 + z2
		for j := range x {
			i := idx(j)
			in := get(i)
			out := b0*in + z1
			z1 = b1*in - a1*out + z2
			z2 = b2*in - a2*out
			set(i, out)
		}
	}
	fwd := func(j int) int { return j }
	bwd := func(j int) int { return len(x) - 1 - j }
	for ax := range 3 {
		pass(func(i int) float64 { return x[i][ax] }, func(i int, v float64) { y[i][ax] = v }, fwd)
		pass(func(i int) float64 { return y[i][ax] }, func(i int, v float64) { y[i][ax] = v }, bwd)
	}
	return y
}

type vec3 [3]float64
type mat3 [3][3]float64

func (a vec3) add(b vec3) vec3 { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// rot returns Rx(ax)·Ry(ay)·Rz(az).
func rot(ax, ay, az float64) mat3 {
	cx, sx := math.Cos(ax), math.Sin(ax)
	cy, sy := math.Cos(ay), math.Sin(ay)
	cz, sz := math.Cos(az), math.Sin(az)
	rx := mat3{{1, 0, 0}, {0, cx, -sx}, {0, sx, cx}}
	ry := mat3{{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}}
	rz := mat3{{cz, -sz, 0}, {sz, cz, 0}, {0, 0, 1}}
	return rx.mul(ry).mul(rz)
}

func (a mat3) mul(b mat3) mat3 {
	var c mat3
	for i := range 3 {
		for j := range 3 {
			c[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j]
		}
	}
	return c
}

// tmulv returns aᵀ·v.
func (a mat3) tmulv(v vec3) vec3 {
	return vec3{
		a[0][0]*v[0] + a[1][0]*v[1] + a[2][0]*v[2],
		a[0][1]*v[0] + a[1][1]*v[1] + a[2][1]*v[2],
		a[0][2]*v[0] + a[1][2]*v[1] + a[2][2]*v[2],
	}
}
