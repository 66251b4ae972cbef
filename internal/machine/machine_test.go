package machine

import (
	"encoding/json"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestDescribeRoot(t *testing.T) {
	d := describeRoot("testdata")
	want := Description{
		CPU:         "Intel(R) Xeon(R) Processor @ 2.10GHz",
		CPUFeatures: []string{"avx2", "fma"},
		MemoryBytes: 8000000 * 1024,
		OS:          "Debian GNU/Linux 12 (bookworm)",
		Kernel:      "6.1.0-18-amd64",
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("describeRoot(testdata) = %+v\nwant %+v", d, want)
	}
}

// Missing files leave fields empty; nothing fails.
func TestDescribeRootMissing(t *testing.T) {
	d := describeRoot(t.TempDir())
	if d.CPU != "" || d.MemoryBytes != 0 || d.Kernel != "" || d.OS != runtime.GOOS {
		t.Errorf("describeRoot(empty) = %+v", d)
	}
}

func TestDescribe(t *testing.T) {
	d := Describe()
	if d.LogicalCores < 1 || d.GOMAXPROCS < 1 || d.Go != runtime.Version() || d.Arch != runtime.GOARCH || d.BLAS == "" {
		t.Errorf("Describe() = %+v", d)
	}
	if d.OpenBLAS != strings.HasPrefix(d.BLAS, "OpenBLAS") {
		t.Errorf("OpenBLAS %v with BLAS %q", d.OpenBLAS, d.BLAS)
	}
}

func TestBuildSettings(t *testing.T) {
	for _, tc := range []struct {
		settings       []debug.BuildSetting
		exp, tags, cgo string
	}{
		{nil, "", "", ""},
		{[]debug.BuildSetting{{Key: "-tags", Value: "openblas"}, {Key: "GOEXPERIMENT", Value: "simd"}, {Key: "CGO_ENABLED", Value: "1"}}, "simd", "openblas", "1"},
		{[]debug.BuildSetting{{Key: "-compiler", Value: "gc"}, {Key: "CGO_ENABLED", Value: "0"}}, "", "", "0"},
	} {
		exp, tags, cgo := buildSettings(&debug.BuildInfo{Settings: tc.settings})
		if exp != tc.exp || tags != tc.tags || cgo != tc.cgo {
			t.Errorf("buildSettings(%v) = %q, %q, %q; want %q, %q, %q", tc.settings, exp, tags, cgo, tc.exp, tc.tags, tc.cgo)
		}
	}
}

func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"neurogo", "bench", "sim", "--quick"}, "neurogo bench sim --quick"},
		{[]string{"neurogo", "bench", "sim", "--dims", "64,128", "--python", "/a b/python"}, "neurogo bench sim --dims 64,128 --python '/a b/python'"},
		{[]string{"x", "", "it's"}, `x '' 'it'\''s'`},
	} {
		if got := Command(tc.args...); got != tc.want {
			t.Errorf("Command(%q) = %s; want %s", tc.args, got, tc.want)
		}
	}
}

func TestRunJSON(t *testing.T) {
	r := NewRun("neurogo", "bench", "stream", "--quick")
	r.Quick = true
	r.Machine.SetPeer("torch", "2.15.0")
	r.Machine.SetPeer("numpy", "")
	if _, err := time.Parse(time.RFC3339, r.Date); err != nil || !strings.HasSuffix(r.Date, "Z") {
		t.Errorf("Date %q: want RFC 3339 UTC (%v)", r.Date, err)
	}
	b, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	m := back["machine"].(map[string]any)
	if back["command"] != "neurogo bench stream --quick" || back["quick"] != true || m["peers"].(map[string]any)["torch"] != "2.15.0" {
		t.Errorf("JSON %s", b)
	}
	if _, ok := m["peers"].(map[string]any)["numpy"]; ok {
		t.Errorf("empty peer version recorded: %s", b)
	}
}
