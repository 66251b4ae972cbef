package main

import (
	"fmt"
	"io"
	"os"

	"github.com/neurogo/neurogo/internal/machine"
)

// benchRun starts the record of `neurogo bench <name> args…`: command
// line, date (UTC), machine description, quick mode and protocol.
func benchRun(name string, args []string, quick bool, protocol map[string]any) machine.Run {
	run := machine.NewRun(append([]string{"neurogo", "bench", name}, args...)...)
	run.Quick = quick
	run.Protocol = protocol
	return run
}

// writeRunLine writes {"run": run} as one JSON line: the first line of
// every `neurogo bench … --json` that prints one object per row.
func writeRunLine(w io.Writer, run machine.Run) error {
	b, err := machine.MarshalLine(struct {
		Run machine.Run `json:"run"`
	}{run})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// The kernel benchmark runs in Python (kernel/jupytertest/bench_kernel.py,
// started by cmdBench), which inherits this process's environment: the
// machine description of this binary reaches it as JSON in
// machine.EnvRun, set here before cmdBench starts it.
func init() {
	if len(os.Args) < 3 || os.Args[1] != "bench" || os.Args[2] != "kernel" {
		return
	}
	run := machine.NewRun(append([]string{"neurogo"}, os.Args[1:]...)...)
	if b, err := run.JSON(); err == nil {
		os.Setenv(machine.EnvRun, string(b))
	}
}
