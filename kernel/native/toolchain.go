package native

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
)

// toolchain builds cell packages into plugins with the Go toolchain that
// built the running binary: plugins load only into a process whose shared
// packages were compiled by the same toolchain with the same settings
// (build tags, GOEXPERIMENT, trimpath), so those are read from the
// binary's own build information.
type toolchain struct {
	goBin   string // the go command
	toolDir string // GOTOOLDIR: compile, link
	root    string // module root where "go list" resolves neurogo's packages
	env     []string
	tags    string
	trim    bool
	version string

	mu      sync.Mutex
	exports map[string]string // import path → export/archive file (plugin build mode)
	names   map[string]string // import path → package name
	listed  map[string]bool   // roots already listed
}

// errUnavailable explains why compiled cells are not available.
type errUnavailable struct{ why string }

func (e errUnavailable) Error() string { return "compiled cells unavailable: " + e.why }

// newToolchain finds the Go toolchain and checks it matches the binary.
func newToolchain(root string) (*toolchain, error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil, errUnavailable{"the binary has no build information"}
	}
	set := map[string]string{}
	for _, s := range bi.Settings {
		set[s.Key] = s.Value
	}
	if set["CGO_ENABLED"] != "1" {
		return nil, errUnavailable{"the kernel was built without cgo (CGO_ENABLED=0); Go plugins need cgo"}
	}
	if set["-buildmode"] != "" && set["-buildmode"] != "exe" {
		return nil, errUnavailable{"the kernel was built with -buildmode=" + set["-buildmode"]}
	}
	goBin := ""
	if r := runtime.GOROOT(); r != "" {
		if p := filepath.Join(r, "bin", "go"); fileExists(p) {
			goBin = p
		}
	}
	if goBin == "" {
		p, err := exec.LookPath("go")
		if err != nil {
			return nil, errUnavailable{"no go command found (install Go " + runtime.Version() + ")"}
		}
		goBin = p
	}
	t := &toolchain{
		goBin:   goBin,
		root:    root,
		tags:    set["-tags"],
		trim:    set["-trimpath"] == "true",
		exports: map[string]string{},
		names:   map[string]string{},
		listed:  map[string]bool{},
	}
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED", "GOOS", "GOARCH", "GOAMD64", "GOARM64", "GO111MODULE", "GOWORK":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GOFLAGS=", "CGO_ENABLED=1", "GOWORK=off", "GOEXPERIMENT="+set["GOEXPERIMENT"])
	for _, k := range []string{"GOAMD64", "GOARM64"} {
		if v := set[k]; v != "" {
			env = append(env, k+"="+v)
		}
	}
	t.env = env
	out, err := t.goCmd(context.Background(), "", "env", "GOVERSION", "GOTOOLDIR")
	if err != nil {
		return nil, errUnavailable{fmt.Sprintf("go env: %v", err)}
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return nil, errUnavailable{"go env: unexpected output " + string(out)}
	}
	t.version, t.toolDir = lines[0], lines[1]
	// runtime.Version carries the experiments ("go1.26.8-X:simd"); the
	// go command gets them from GOEXPERIMENT, set above.
	rv, _, _ := strings.Cut(runtime.Version(), "-X:")
	if t.version != rv {
		return nil, errUnavailable{fmt.Sprintf("the go command at %s is %s but the kernel was built with %s; plugins must be built by the same toolchain: rebuild the kernel", goBin, t.version, rv)}
	}
	return t, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func (t *toolchain) goCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, t.goBin, args...)
	cmd.Env = t.env
	cmd.Dir = dir
	if dir == "" {
		cmd.Dir = t.root
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%w\n%s", err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// ensure makes the export data of paths and their dependencies available
// (compiling them for plugins on first use; the build cache keeps them).
func (t *toolchain) ensure(ctx context.Context, paths ...string) error {
	t.mu.Lock()
	var todo []string
	for _, p := range paths {
		if _, ok := t.exports[p]; !ok && !t.listed[p] {
			todo = append(todo, p)
		}
	}
	t.mu.Unlock()
	if len(todo) == 0 {
		return nil
	}
	args := []string{"list", "-buildmode=plugin", "-export", "-deps", "-e"}
	if t.tags != "" {
		args = append(args, "-tags", t.tags)
	}
	if t.trim {
		args = append(args, "-trimpath")
	}
	args = append(args, "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Name}}\t{{if .Error}}{{.Error.Err}}{{end}}{{range .DepsErrors}} {{.Err}}{{end}}")
	args = append(args, todo...)
	out, err := t.goCmd(ctx, "", args...)
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var errs []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 4)
		if len(f) < 4 {
			continue
		}
		if f[3] != "" {
			for _, p := range todo {
				if p == f[0] {
					errs = append(errs, strings.TrimSpace(f[3]))
				}
			}
			continue
		}
		if f[1] != "" {
			t.exports[f[0]] = f[1]
			t.names[f[0]] = f[2]
		}
	}
	for _, p := range todo {
		t.listed[p] = true
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

// exportFile returns the export data file of an import path ("" if unknown).
func (t *toolchain) exportFile(path string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exports[path]
}

// packageName returns the name of the package at an import path ("" if
// not listed yet).
func (t *toolchain) packageName(path string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.names[path]
}

// importcfg writes the import configuration for compile and link: every
// package known so far plus the extra (cell) packages.
func (t *toolchain) importcfg(file string, extra map[string]string) error {
	t.mu.Lock()
	lines := make([]string, 0, len(t.exports)+len(extra))
	for p, f := range t.exports {
		lines = append(lines, "packagefile "+p+"="+f)
	}
	t.mu.Unlock()
	for p, f := range extra {
		lines = append(lines, "packagefile "+p+"="+f)
	}
	sort.Strings(lines)
	return os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

// compile compiles one cell file into an archive with the flags the go
// command uses for a package of a plugin.
func (t *toolchain) compile(ctx context.Context, pkgPath, src, out, cfg string) ([]byte, error) {
	args := []string{"-o", out, "-p", pkgPath, "-lang=go1.26", "-complete", "-installsuffix", "dynlink", "-dynlink",
		"-nolocalimports", "-importcfg", cfg, "-pack", "-goversion", t.version, "-c=2", src}
	cmd := exec.CommandContext(ctx, filepath.Join(t.toolDir, "compile"), args...)
	cmd.Env = t.env
	cmd.Dir = filepath.Dir(src)
	return cmd.CombinedOutput()
}

// link links a cell archive into a plugin.
func (t *toolchain) link(ctx context.Context, pkgPath, archive, out, cfg string) ([]byte, error) {
	args := []string{"-o", out, "-importcfg", cfg, "-installsuffix", "dynlink", "-pluginpath", pkgPath,
		"-buildmode=plugin", "-extld=gcc", "-w", archive}
	cmd := exec.CommandContext(ctx, filepath.Join(t.toolDir, "link"), args...)
	cmd.Env = t.env
	cmd.Dir = filepath.Dir(archive)
	return cmd.CombinedOutput()
}
