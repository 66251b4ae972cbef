package machine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/toolkit/solvers"
)

// EnvRun is the environment variable through which `neurogo bench kernel`
// passes its Run (JSON) to kernel/jupytertest/bench_kernel.py.
const EnvRun = "NEUROGO_BENCH_RUN"

// Description is the machine and the binary a measurement ran on.
type Description struct {
	CPU          string   `json:"cpu"`                    // model name from /proc/cpuinfo
	CPUFeatures  []string `json:"cpu_features,omitempty"` // those of avx2, fma, avx512f the CPU has
	LogicalCores int      `json:"logical_cores"`          // runtime.NumCPU: cores this process may use
	GOMAXPROCS   int      `json:"gomaxprocs"`
	MemoryBytes  int64    `json:"memory_bytes"`      // MemTotal from /proc/meminfo
	OS           string   `json:"os"`                // PRETTY_NAME from /etc/os-release, or GOOS
	Kernel       string   `json:"kernel"`            // kernel release, e.g. 6.1.0-18-amd64
	Arch         string   `json:"arch"`              // GOARCH
	Go           string   `json:"go"`                // runtime.Version of the binary
	GOEXPERIMENT string   `json:"goexperiment"`      // as built, "" for none
	BuildTags    string   `json:"build_tags"`        // -tags as built, "" for none
	CGO          string   `json:"cgo,omitempty"`     // CGO_ENABLED as built ("1" or "0")
	BLAS         string   `json:"blas"`              // toolkit/solvers.BLAS
	Kernels      string   `json:"kernels,omitempty"` // internal/vec.Kernels: the inner loops
	OpenBLAS     bool     `json:"openblas"`
	// Peers maps a peer's name (nengo, numpy, scipy, torch, ipykernel,
	// python) to its version.
	Peers map[string]string `json:"peers,omitempty"`
}

// features are the CPU flags a Description reports when present.
var features = []string{"avx2", "fma", "avx512f"}

// Describe describes the machine the process runs on and its binary.
func Describe() Description {
	d := describeRoot("/")
	d.LogicalCores = runtime.NumCPU()
	d.GOMAXPROCS = runtime.GOMAXPROCS(0)
	d.Arch = runtime.GOARCH
	d.Go = runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		d.GOEXPERIMENT, d.BuildTags, d.CGO = buildSettings(bi)
	}
	d.BLAS = solvers.BLAS()
	d.Kernels = vec.Kernels()
	d.OpenBLAS = strings.HasPrefix(d.BLAS, "OpenBLAS")
	return d
}

// describeRoot reads the files under root (/ or a test directory): CPU,
// features, memory, OS and kernel release.
func describeRoot(root string) Description {
	d := Description{OS: runtime.GOOS}
	if f, err := os.Open(filepath.Join(root, "proc", "cpuinfo")); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			key, val, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			key, val = strings.TrimSpace(key), strings.TrimSpace(val)
			switch {
			case key == "model name" && d.CPU == "":
				d.CPU = strings.Join(strings.Fields(val), " ")
			case key == "flags" && d.CPUFeatures == nil:
				have := strings.Fields(val)
				d.CPUFeatures = []string{}
				for _, f := range features {
					if slices.Contains(have, f) {
						d.CPUFeatures = append(d.CPUFeatures, f)
					}
				}
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile(filepath.Join(root, "proc", "meminfo")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				fs := strings.Fields(rest)
				if len(fs) > 0 {
					if kb, err := strconv.ParseInt(fs[0], 10, 64); err == nil {
						d.MemoryBytes = kb * 1024
					}
				}
				break
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "etc", "os-release")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				if u, err := strconv.Unquote(v); err == nil {
					v = u
				}
				d.OS = strings.Trim(v, `"'`)
				break
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "proc", "sys", "kernel", "osrelease")); err == nil {
		d.Kernel = strings.TrimSpace(string(b))
	}
	return d
}

// buildSettings returns the GOEXPERIMENT, -tags and CGO_ENABLED the
// binary was built with ("" when absent).
func buildSettings(bi *debug.BuildInfo) (goexperiment, tags, cgo string) {
	for _, s := range bi.Settings {
		switch s.Key {
		case "GOEXPERIMENT":
			goexperiment = s.Value
		case "-tags":
			tags = s.Value
		case "CGO_ENABLED":
			cgo = s.Value
		}
	}
	return goexperiment, tags, cgo
}

// SetPeer records the version of a peer the bench ran beside; an empty
// version is left out.
func (d *Description) SetPeer(name, version string) {
	if version == "" {
		return
	}
	if d.Peers == nil {
		d.Peers = map[string]string{}
	}
	d.Peers[name] = version
}

// Run is one invocation of a bench: what was run, when and where.
type Run struct {
	Command string      `json:"command"` // the command line, shell-quoted
	Date    string      `json:"date"`    // start, UTC, RFC 3339 to the second
	Machine Description `json:"machine"`
	// Quick is true for the small versions (--quick).
	Quick bool `json:"quick"`
	// Protocol holds the bench's protocol parameters (warm-up, repeats,
	// durations, sizes), for the page that renders the run.
	Protocol map[string]any `json:"protocol,omitempty"`
}

// NewRun starts the record of the command args (e.g. "neurogo", "bench",
// "sim", "--quick") now, on the machine the process runs on.
func NewRun(args ...string) Run {
	return Run{Command: Command(args...), Date: Date(time.Now()), Machine: Describe()}
}

// Date formats t in UTC as RFC 3339 to the second.
func Date(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Command joins args into a command line a POSIX shell reads back as the
// same words: words of letters, digits and -_./:=,+@% stay as they are,
// others are single-quoted.
func Command(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = quote(a)
	}
	return strings.Join(q, " ")
}

func quote(s string) string {
	if s == "" {
		return "''"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// JSON returns r as one line of JSON (no HTML escaping, no trailing
// newline).
func (r Run) JSON() ([]byte, error) { return MarshalLine(r) }

// MarshalLine encodes v as one line of JSON without HTML escaping.
func MarshalLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
