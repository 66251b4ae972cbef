package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/neurogo/neurogo/internal/machine"
)

// besideBinary is another neurogo binary that `bench sim --beside` and
// `bench train --beside` run on the same work in the same run (for
// example a plain `CGO_ENABLED=0 go build` beside a build with OpenBLAS):
// machines are noisy, so two builds are compared side by side, never
// across runs.
type besideBinary struct {
	path string
	desc machine.Description // the other binary's own description
}

// newBeside checks that path is a neurogo binary with benches and reads
// its machine description (`bench sim --machine`).
func newBeside(path string) (*besideBinary, error) {
	p, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("--beside %s: %w", path, err)
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	out, err := exec.Command(p, "bench", "sim", "--machine").Output()
	if err != nil {
		return nil, fmt.Errorf("--beside %s: `bench sim --machine` failed (not a neurogo binary?): %w", path, err)
	}
	var line struct {
		Run *machine.Run `json:"run"`
	}
	first, _, _ := bytes.Cut(bytes.TrimSpace(out), []byte("\n"))
	if err := json.Unmarshal(first, &line); err != nil || line.Run == nil {
		return nil, fmt.Errorf("--beside %s: cannot read its machine description %q", path, strings.TrimSpace(string(out)))
	}
	return &besideBinary{path: p, desc: line.Run.Machine}, nil
}

// describe is the other binary as the protocol records it.
func (b *besideBinary) describe() map[string]any {
	return map[string]any{
		"binary": b.path, "kernels": b.desc.Kernels, "blas": b.desc.BLAS,
		"build_tags": b.desc.BuildTags, "goexperiment": b.desc.GOEXPERIMENT, "cgo": b.desc.CGO,
	}
}

// run runs the other binary with args and returns its stdout; its stderr
// goes to stderr line by line, each prefixed with "beside: ".
func (b *besideBinary) run(args []string, stderr io.Writer) ([]byte, error) {
	cmd := exec.Command(b.path, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			fmt.Fprintf(stderr, "  beside: %s\n", sc.Text())
		}
		io.Copy(io.Discard, pr)
	}()
	err := cmd.Run()
	pw.Close()
	<-done
	if err != nil {
		return out.Bytes(), fmt.Errorf("--beside %s %s: %w", b.path, strings.Join(args, " "), err)
	}
	return out.Bytes(), nil
}
