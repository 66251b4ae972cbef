package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/internal/machine"
)

func TestKernelBadConnectionFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(bad, []byte("{not json"), 0o644)
	noPorts := filepath.Join(dir, "noports.json")
	_ = os.WriteFile(noPorts, []byte(`{"ip":"127.0.0.1","transport":"tcp","key":"k"}`), 0o644)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing flag", []string{"kernel"}, "no connection file"},
		{"missing file", []string{"kernel", "--connection-file", filepath.Join(dir, "nope.json")}, "no such file"},
		{"invalid JSON", []string{"kernel", "--connection-file", bad}, "invalid JSON"},
		{"no ports", []string{"kernel", "--connection-file", noPorts}, "shell_port = 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(c.args, &out, &errb); code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			msg := errb.String()
			if !strings.Contains(msg, c.want) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
				t.Errorf("want one line containing %q, got %q", c.want, msg)
			}
		})
	}
}

func TestInstallPrefix(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"install", "--prefix", dir}, &out, &errb); code != 0 {
		t.Fatalf("install: %d %s", code, errb.String())
	}
	spec := filepath.Join(dir, "share", "jupyter", "kernels", "neurogo")
	b, err := os.ReadFile(filepath.Join(spec, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ks struct {
		Argv          []string `json:"argv"`
		Language      string   `json:"language"`
		InterruptMode string   `json:"interrupt_mode"`
	}
	if err := json.Unmarshal(b, &ks); err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(ks.Argv[0]) || ks.Argv[len(ks.Argv)-1] != "{connection_file}" || ks.Language != "go" || ks.InterruptMode != "message" {
		t.Errorf("kernelspec %+v", ks)
	}
	for _, f := range []string{"logo-32x32.png", "logo-64x64.png", "logo-svg.svg"} {
		if _, err := os.Stat(filepath.Join(spec, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if code := run([]string{"install", "--user", "--prefix", dir}, &out, &errb); code != 2 {
		t.Errorf("two locations: exit %d, want 2", code)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "4GiB": 4 << 30, "1000": 1000, "1.5G": 3 << 29} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"-1", "x", "0MiB"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) accepted", bad)
		}
	}
}

// TestVersionText: `neurogo version` says how the binary was built and
// which inner loops and BLAS it runs.
func TestVersionText(t *testing.T) {
	got := versionText(machine.Description{Go: "go1.26.8", Arch: "amd64", CGO: "0",
		Kernels: "portable Go loops", BLAS: "gonum (pure Go)"})
	for _, want := range []string{"neurogo ", "built with go1.26.8 for amd64; GOEXPERIMENT=(none); build tags: (none); no cgo",
		"inner loops: portable Go loops", "BLAS: gonum (pure Go)"} {
		if !strings.Contains(got, want) {
			t.Errorf("version text lacks %q:\n%s", want, got)
		}
	}
	var out, errb strings.Builder
	if code := run([]string{"version"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "inner loops: ") {
		t.Errorf("neurogo version: exit %d, output %q", code, out.String())
	}
}
