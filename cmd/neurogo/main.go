// Command neurogo is the neurogo Jupyter kernel and tool:
//
//	neurogo kernel --connection-file FILE   serve a Jupyter front end
//	neurogo install [--user | --sys-prefix | --prefix DIR]
//	neurogo run NB.ipynb [-p NAME VALUE]... [-o OUT.ipynb]   execute headless
//	neurogo bench kernel            kernel latency beside ipykernel, as ratios
//	neurogo bench sim               simulator speed on the NengoDL benchmark models, beside Nengo
//	neurogo bench nengo             the Nengo backend (nengo_neurogo) beside Nengo's reference simulator
//	neurogo bench train             training time per epoch of the spiking-MNIST network, beside PyTorch
//	neurogo bench stream            frames per second of the statestream two-path network, 1 core vs all
//	neurogo bench viz               rendering time of a raster and a confusion matrix, beside matplotlib
//	neurogo repro NAME              reproduce a paper figure (spiking-mnist, spa-memory)
//	neurogo sweep NB.ipynb --grid …  run a notebook or a reproduction over a parameter grid on Dask
//	neurogo version                 the version, the build, the inner loops and BLAS it runs
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/internal/machine"
	"github.com/neurogo/neurogo/kernel"
)

func main() {
	// NEUROGO_CPUPROFILE=FILE writes a CPU profile of the whole command
	// (go tool pprof bin/neurogo FILE), e.g. of a bench or repro run.
	if path := os.Getenv("NEUROGO_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			code := run(os.Args[1:], os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
		fmt.Fprintf(os.Stderr, "neurogo: NEUROGO_CPUPROFILE=%s: cannot profile: %v\n", path, err)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `neurogo — Go notebooks for neural modelling

usage:
  neurogo kernel --connection-file FILE [--memory-limit SIZE]
  neurogo install [--user | --sys-prefix | --prefix DIR] [--memory-limit SIZE]
  neurogo run NB.ipynb [-p NAME VALUE]... [-o OUT.ipynb] [--memory-limit SIZE]
  neurogo bench kernel [--starts N] [--runs N] [--json FILE]
  neurogo bench sim [--quick] [--models M,…] [--dims D,…] [--batch B,…] [--compare nengo] [--beside BIN] [--json]
  neurogo bench nengo [--quick] [--models M,…] [--dims D,…] [--rounds N] [--python PATH] [--json]
  neurogo bench train [--quick] [--json] [--train N] [--epochs E] [--no-torch] [--beside BIN]
  neurogo bench stream [--quick] [--json] [--agents 1,16,128] [--seconds S]
  neurogo bench viz [--quick] [--repeat N] [--python PATH] [--json FILE]
  neurogo repro spiking-mnist|spa-memory [--quick] [--json]
  neurogo sweep NB.ipynb [--grid NAME=V1,V2]... [--scheduler tcp://HOST:8786] [--workers N] [--resume] [--out DIR|URL]
  neurogo sweep --repro spa-memory|spiking-mnist [--neurons 5,10] [--seeds N] [--quick]   (neurogo sweep --help)
  neurogo warm                      compile the packages cells import, ahead of the first cell
  neurogo version                   the version, how the binary was built, its inner loops and BLAS
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "kernel":
		return cmdKernel(args[1:], stderr)
	case "executor":
		// Started by the kernel (never by hand): runs the cells.
		return kernel.ServeExecutor(args[1:])
	case "install":
		return cmdInstall(args[1:], stdout, stderr)
	case "bench":
		return cmdBench(args[1:], stdout, stderr)
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "repro":
		return cmdRepro(args[1:], stdout, stderr)
	case "sweep":
		return cmdSweep(args[1:], stdout, stderr)
	case "warm":
		if err := kernel.Warm(context.Background(), stdout); err != nil {
			fmt.Fprintf(stderr, "neurogo warm: %v\n", err)
			return 1
		}
		return 0
	case "version", "--version":
		fmt.Fprint(stdout, versionText(machine.Describe()))
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "neurogo: unknown command %q\n%s", args[0], usage)
	return 2
}

func cmdKernel(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("kernel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	connFile := fs.String("connection-file", "", "Jupyter connection file")
	fs.StringVar(connFile, "f", "", "Jupyter connection file (short form)")
	memLimit := fs.String("memory-limit", "", "restart the executor when a cell uses more memory than this (e.g. 4GiB, 512MiB; 0: no limit; default: 75% of the memory available)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *connFile == "" && fs.NArg() == 1 {
		*connFile = fs.Arg(0)
	}
	conn, err := kernel.ReadConnectionFile(*connFile)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo kernel: %v\n", err)
		return 2
	}
	limit := kernel.DefaultMemoryLimit()
	if *memLimit != "" {
		if limit, err = parseSize(*memLimit); err != nil {
			fmt.Fprintf(stderr, "neurogo kernel: --memory-limit: %v\n", err)
			return 2
		}
	}
	k, err := kernel.New(kernel.Options{Conn: conn, MemoryLimit: limit})
	if err != nil {
		fmt.Fprintf(stderr, "neurogo kernel: %v\n", err)
		return 1
	}
	if _, err := k.Run(); err != nil {
		fmt.Fprintf(stderr, "neurogo kernel: %v\n", err)
		return 1
	}
	return 0
}

// parseSize parses a size in bytes, or with a unit (KiB, MiB, GiB, KB, MB,
// GB, K, M, G); "0" is no limit.
func parseSize(s string) (int64, error) {
	if s == "" || s == "0" {
		return 0, nil
	}
	units := []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}}
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			n, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), 64)
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("%q is not a positive size", s)
			}
			return int64(n * float64(u.mult)), nil
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a positive size (bytes, or with KiB/MiB/GiB)", s)
	}
	return n, nil
}

func cmdInstall(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.Bool("user", false, "install for the current user (default)")
	sysPrefix := fs.Bool("sys-prefix", false, "install into the current Python's sys.prefix")
	prefix := fs.String("prefix", "", "install into PREFIX/share/jupyter/kernels")
	memLimit := fs.String("memory-limit", "", "memory limit of the kernel's executor (e.g. 4GiB; 0: none; default: 75% of the memory available when the kernel starts)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	where := "user"
	n := 0
	if *user {
		n++
	}
	if *sysPrefix {
		where = "sys-prefix"
		n++
	}
	if *prefix != "" {
		where = "prefix"
		n++
	}
	if n > 1 {
		fmt.Fprintln(stderr, "neurogo install: give at most one of --user, --sys-prefix, --prefix")
		return 2
	}
	dir, err := kernel.KernelspecDir(where, *prefix)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo install: %v\n", err)
		return 1
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "neurogo install: %v\n", err)
		return 1
	}
	var extra []string
	if *memLimit != "" {
		if _, err := parseSize(*memLimit); err != nil {
			fmt.Fprintf(stderr, "neurogo install: --memory-limit: %v\n", err)
			return 2
		}
		extra = append(extra, "--memory-limit", *memLimit)
	}
	spec, err := kernel.Install(dir, exe, extra)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo install: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "installed kernelspec neurogo in %s\n", spec)
	return 0
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	var in, out string
	params := map[string]any{}
	limit := kernel.DefaultMemoryLimit()
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-p", "--parameter":
			if i+2 >= len(args) {
				fmt.Fprintln(stderr, "neurogo run: -p needs NAME and VALUE")
				return 2
			}
			params[args[i+1]] = kernel.ParseParam(args[i+2])
			i += 2
		case "--memory-limit":
			if i+1 >= len(args) {
				fmt.Fprintln(stderr, "neurogo run: --memory-limit needs a size")
				return 2
			}
			var err error
			if limit, err = parseSize(args[i+1]); err != nil {
				fmt.Fprintf(stderr, "neurogo run: --memory-limit: %v\n", err)
				return 2
			}
			i++
		case "-o", "--output":
			if i+1 >= len(args) {
				fmt.Fprintln(stderr, "neurogo run: -o needs a file")
				return 2
			}
			out = args[i+1]
			i++
		default:
			if strings.HasPrefix(a, "-") || in != "" {
				fmt.Fprintf(stderr, "neurogo run: unexpected argument %q\n", a)
				return 2
			}
			in = a
		}
	}
	if in == "" {
		fmt.Fprintln(stderr, "usage: neurogo run NB.ipynb [-p NAME VALUE]... [-o OUT.ipynb] [--memory-limit SIZE]")
		return 2
	}
	if out == "" {
		out = strings.TrimSuffix(in, ".ipynb") + ".out.ipynb"
	}
	nb, err := kernel.ReadNotebook(in)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo run: %v\n", err)
		return 1
	}
	// Ctrl-C interrupts the running cell (twice: stops it for good); the
	// outputs so far are written.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	runErr := kernel.RunNotebookWith(ctx, nb, params, kernel.NotebookOptions{Progress: stderr, MemoryLimit: limit})
	if err := nb.Write(out); err != nil {
		fmt.Fprintf(stderr, "neurogo run: write %s: %v\n", out, err)
		return 1
	}
	if runErr != nil {
		fmt.Fprintf(stderr, "neurogo run: %s: %v (outputs so far in %s)\n", in, runErr, out)
		return 1
	}
	fmt.Fprintf(stdout, "executed %s → %s\n", in, out)
	return 0
}

// cmdBench runs a benchmark side by side with its peer. The kernel
// benchmark needs a real Jupyter client, so it is driven from Python
// (kernel/jupytertest/bench_kernel.py) against the installed kernelspecs.
func cmdBench(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "sim" {
		return cmdBenchSim(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "nengo" {
		return cmdBenchNengo(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "train" {
		return cmdBenchTrain(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "stream" {
		return cmdBenchStream(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "accel" {
		return cmdBenchAccel(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "blas" {
		return cmdBenchBLAS(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "viz" {
		return cmdBenchViz(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "kernel" {
		fmt.Fprintln(stderr, "usage: neurogo bench kernel|sim|nengo|train|stream|accel|viz …")
		return 2
	}
	root := kernel.SourceRoot()
	if root == "" {
		fmt.Fprintln(stderr, "neurogo bench: cannot find the neurogo source tree (set NEUROGO_ROOT)")
		return 1
	}
	cmd := exec.Command(venvPython(root), append([]string{filepath.Join(root, "kernel", "jupytertest", "bench_kernel.py")}, args[1:]...)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(stderr, "neurogo bench kernel: %v\n", err)
		return 1
	}
	return 0
}

// venvPython returns the Python of the venv .cache/venv under the source
// root, where scripts/start and scripts/test install neurogo's Python
// packages (jupyter_client for bench kernel), or python3 from PATH when
// there is no such venv.
func venvPython(root string) string {
	p := filepath.Join(root, ".cache", "venv", "bin", "python")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return "python3"
}

// versionText is `neurogo version`: the version, how the binary was built
// and the numeric code it runs (inner loops, BLAS), so that a build
// without the fast paths shows as such.
func versionText(d machine.Description) string {
	exp, tags := d.GOEXPERIMENT, d.BuildTags
	if exp == "" {
		exp = "(none)"
	}
	if tags == "" {
		tags = "(none)"
	}
	cgo := "cgo"
	if d.CGO == "0" {
		cgo = "no cgo (cells run interpreted)"
	}
	return fmt.Sprintf("neurogo %s\nbuilt with %s for %s; GOEXPERIMENT=%s; build tags: %s; %s\ninner loops: %s\nBLAS: %s\n",
		kernel.Version, d.Go, d.Arch, exp, tags, cgo, d.Kernels, d.BLAS)
}
