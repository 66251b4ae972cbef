package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim/bench"
)

// Flag errors exit 2 before anything runs.
func TestBenchNengoFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--models", "nope"}, `"nope": must be one of integrator`},
		{[]string{"--models", ","}, "--models: empty list"},
		{[]string{"--dims", "64,x"}, `--dims: "x" is not a positive integer`},
		{[]string{"--dims", "0"}, `--dims: "0" is not a positive integer`},
		{[]string{"--rounds", "0"}, "--rounds 0: want at least 1"},
		{[]string{"--repeats", "-1"}, "must not be negative"},
		{[]string{"--batch", "10"}, "flag provided but not defined: -batch"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		var out, errb bytes.Buffer
		if code := cmdBenchNengo(tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("bench nengo %v: exit %d, stderr %q; want 2 and %q", tc.args, code, errb.String(), tc.want)
		}
		if out.Len() != 0 {
			t.Errorf("bench nengo %v: stdout %q, want nothing", tc.args, out.String())
		}
	}
}

// The defaults are the four models at 64, 128, 192 dimensions, 3 rounds
// of the full protocol; --quick, --repeats and --seconds change the
// protocol.
func TestBenchNengoFlags(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		models []string
		dims   []int
		rounds int
		cfg    bench.Config
	}{
		{nil, bench.Models, []int{64, 128, 192}, 3, bench.Default()},
		{[]string{"--quick"}, bench.Models, []int{64, 128, 192}, 3, bench.Quick()},
		{[]string{"--quick", "--models", "integrator", "--dims", "64", "--rounds", "1"},
			[]string{"integrator"}, []int{64}, 1, bench.Quick()},
		{[]string{"--models", "pes, cconv", "--repeats", "2", "--seconds", "0.5"},
			[]string{"pes", "cconv"}, []int{64, 128, 192}, 3,
			bench.Config{Warmup: 0.1, Seconds: 0.5, Repeats: 2, DT: 0.001}},
	} {
		var errb bytes.Buffer
		p, ok := parseBenchNengo(tc.args, &errb)
		if !ok {
			t.Fatalf("%v: %s", tc.args, errb.String())
		}
		if strings.Join(p.models, ",") != strings.Join(tc.models, ",") || !equalInts(p.dims, tc.dims) ||
			p.rounds != tc.rounds || p.cfg != tc.cfg {
			t.Errorf("%v: models %v dims %v rounds %d cfg %+v; want %v %v %d %+v",
				tc.args, p.models, p.dims, p.rounds, p.cfg, tc.models, tc.dims, tc.rounds, tc.cfg)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func side(sim string, build float64, steps int, times ...float64) nengoSide {
	s := nengoSide{Simulator: sim}
	s.BuildS, s.Steps, s.Times, s.Neurons = build, steps, times, 9984
	if sim == "neurogo" {
		n := 0
		s.PythonOps = &n
	}
	return s
}

// A cell's row: each side's median round for µs/step, the median build
// over the rounds, and the ratios between the sides.
func TestNengoCellRow(t *testing.T) {
	ng := []nengoSide{
		side("nengo", 3, 1000, 0.30, 0.30), // 300 µs/step
		side("nengo", 1, 1000, 0.10, 0.10), // 100
		side("nengo", 2, 1000, 0.20, 0.20), // 200: the median
	}
	nr := []nengoSide{
		side("neurogo", 2.2, 1000, 0.020, 0.020), // 20: the median
		side("neurogo", 4.0, 1000, 0.030, 0.030), // 30
		side("neurogo", 2.0, 1000, 0.010, 0.010), // 10
	}
	two := 2
	nr[0].PythonOps, nr[0].PythonOpTypes = &two, []string{"2 × ElementwiseInc: reason"}
	r, err := nengoCellRow("integrator", 64, ng, nr)
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }
	if !near(r.NengoUS, 200) || !near(r.NeuroUS, 20) || !near(r.Speedup, 10) {
		t.Errorf("µs/step %g, %g, speed-up %g; want 200, 20, 10", r.NengoUS, r.NeuroUS, r.Speedup)
	}
	if r.NengoB != 2 || r.NeuroB != 2.2 || !near(r.BuildRat, 1.1) {
		t.Errorf("builds %g, %g, ratio %g; want 2, 2.2, 1.1", r.NengoB, r.NeuroB, r.BuildRat)
	}
	if r.PyOps != 2 || len(r.PyTypes) != 1 || r.Rounds != 3 || r.Steps != 1000 || r.Repeats != 2 ||
		r.PerD != 156 || r.Neurons != 9984 || r.Batch != 1 {
		t.Errorf("row %+v", r)
	}
	// the rounds stay in their order for the record
	if !near(r.NengoRoundsUS[0], 300) || r.NeuroRoundsB[1] != 4 || r.NengoCI != 0 {
		t.Errorf("rounds %v %v, CI %g", r.NengoRoundsUS, r.NeuroRoundsB, r.NengoCI)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"speedup":10`, `"build_ratio":1.1`, `"python_ops":2`, `"nengo_us_per_step":200`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("JSON %s lacks %s", b, k)
		}
	}

	if _, err := nengoCellRow("pes", 64, ng, nr[:2]); err == nil {
		t.Error("uneven rounds: no error")
	}
	bad := []nengoSide{side("neurogo", 1, 1000, 0.01)}
	bad[0].PythonOps = nil
	if _, err := nengoCellRow("pes", 64, ng[:1], bad); err == nil || !strings.Contains(err.Error(), "python_ops") {
		t.Errorf("no python_ops: err %v", err)
	}
	if _, err := nengoCellRow("pes", 64, ng[:1], []nengoSide{side("neurogo", 1, 500, 0.01)}); err == nil {
		t.Error("different step counts: no error")
	}
}

// The median is the upper one for an even count; the order alternates
// across rounds and across cells.
func TestNengoMedianAndOrder(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want int
	}{
		{[]float64{5}, 0},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2}, // sorted 1 2 3 4: the upper median 3
		{[]float64{math.NaN(), 1, 2}, 2},
	} {
		if got := medianIndex(tc.xs); got != tc.want {
			t.Errorf("medianIndex(%v) = %d, want %d", tc.xs, got, tc.want)
		}
	}
	if !nengoFirst(1, 0) || nengoFirst(1, 1) || nengoFirst(2, 0) || !nengoFirst(2, 1) {
		t.Error("the order does not alternate across rounds and cells")
	}
}

// fakeBackendPython writes a shell script that answers like a Python
// running nengo_bench.py: versions, and one JSON object per side.
func fakeBackendPython(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "python")
	script := `#!/bin/sh
case "$*" in
*--versions*) echo '{"nengo":"4.1.0","numpy":"2.2.6","scipy":"1.17.1","nengo_neurogo":"0.1.0","library":"/x/libneurogo.so"}' ;;
*"--simulator neurogo"*) echo 'warning line' >&2
  echo '{"simulator":"neurogo","model":"integrator","dims":64,"build_s":1.1,"times":[0.01,0.01],"steps":1000,"n_neurons":9984,"peak_rss_mb":80,"nengo":"4.1.0","python_ops":0,"python_op_types":[]}' ;;
*) echo '{"simulator":"nengo","model":"integrator","dims":64,"build_s":1.0,"times":[0.2,0.2],"steps":1000,"n_neurons":9984,"peak_rss_mb":70,"nengo":"4.1.0"}' ;;
esac
`
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// The whole command with a fake Python: a run line, one row per cell with
// the ratios, the table on stderr; a Python without the backend says how
// to get one.
func TestBenchNengoFakePython(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("NEUROGO_ROOT", root)
	t.Setenv("NENGO_NEUROGO_LIB", "/x/libneurogo.so") // whether or not the tree's library is built
	var out, errb bytes.Buffer
	args := []string{"--quick", "--models", "integrator", "--dims", "64,128", "--rounds", "2", "--json", "--python", fakeBackendPython(t)}
	if code := cmdBenchNengo(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("stdout %q: want a run line and 2 rows", out.String())
	}
	var run struct {
		Run struct {
			Command  string         `json:"command"`
			Quick    bool           `json:"quick"`
			Protocol map[string]any `json:"protocol"`
			Machine  struct {
				Peers map[string]string `json:"peers"`
			} `json:"machine"`
		} `json:"run"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &run); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(run.Run.Command, "neurogo bench nengo --quick") || !run.Run.Quick ||
		run.Run.Protocol["rounds"] != 2.0 || run.Run.Machine.Peers["nengo_neurogo"] != "0.1.0" {
		t.Errorf("run line %s", lines[0])
	}
	var row nengoRow
	if err := json.Unmarshal([]byte(lines[2]), &row); err != nil {
		t.Fatal(err)
	}
	if row.Dims != 128 || math.Abs(row.Speedup-20) > 1e-9 || math.Abs(row.BuildRat-1.1) > 1e-9 || row.PyOps != 0 {
		t.Errorf("row %+v", row)
	}
	for _, want := range []string{"[2/2] integrator D=128", "round 2/2", "warning line", "20.0×", "build ÷"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}

	out.Reset()
	errb.Reset()
	noBackend := filepath.Join(t.TempDir(), "python")
	if err := os.WriteFile(noBackend, []byte("#!/bin/sh\necho \"ModuleNotFoundError: No module named 'nengo_neurogo'\" >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code := cmdBenchNengo([]string{"--python", noBackend}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "run scripts/nengo-bench-venv") {
		t.Errorf("no backend: exit %d, stderr %q", code, errb.String())
	}
}

// The backend of the source tree comes first on PYTHONPATH, and its
// library must be built; a tree without the backend leaves the
// environment alone.
func TestBackendEnv(t *testing.T) {
	t.Setenv("NENGO_NEUROGO_LIB", "")
	t.Setenv("PYTHONPATH", "/old")
	root := t.TempDir()
	env, err := backendEnv(root)
	if err != nil || envValue(env, "PYTHONPATH") != "/old" {
		t.Errorf("no backend: %v, PYTHONPATH %q", err, envValue(env, "PYTHONPATH"))
	}
	pkg := filepath.Join(root, "python", "nengo_neurogo", "nengo_neurogo")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "__init__.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := backendEnv(root); err == nil || !strings.Contains(err.Error(), "run scripts/nengo-bench-venv") {
		t.Errorf("no library: err %v", err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "libneurogo.so"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env, err = backendEnv(root)
	want := filepath.Join(root, "python", "nengo_neurogo") + string(os.PathListSeparator) + "/old"
	if err != nil || envValue(env, "PYTHONPATH") != want {
		t.Errorf("backend: %v, PYTHONPATH %q, want %q", err, envValue(env, "PYTHONPATH"), want)
	}
	if relTo(root, filepath.Join(pkg, "libneurogo.so")) != "python/nengo_neurogo/nengo_neurogo/libneurogo.so" ||
		relTo(root, "/elsewhere/lib.so") != "/elsewhere/lib.so" {
		t.Error("relTo")
	}
}

// envValue is the last value of name in env ("" when absent).
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}
