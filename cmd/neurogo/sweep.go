package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/kernel"
	"github.com/neurogo/neurogo/repro"
	"github.com/neurogo/neurogo/sim/bench"
	"github.com/neurogo/neurogo/viz"
)

// cmdSweep is `neurogo sweep …`: parameter sweeps of a notebook or a
// reproduction as Dask tasks. The sweep itself lives in the Python
// package python/neurogo_sweep (installed into the venv .cache/venv by
// scripts/start and scripts/test); this command runs it with the venv's
// Python (`python -m neurogo_sweep ARGS…`; $NEUROGO_PYTHON overrides),
// telling it where this binary is ($NEUROGO_BIN) so that local workers run
// the same neurogo. Two subcommands are the sweep's figures,
// drawn here with viz:
//
//	neurogo sweep plot --table results.csv --x PARAM --y METRIC --out BASE
//	neurogo sweep spa-figure --points points.json --out fig9.png
func cmdSweep(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "plot":
			return sweepPlot(args[1:], stdout, stderr)
		case "spa-figure":
			return sweepSPAFigure(args[1:], stdout, stderr)
		}
	}
	root := kernel.SourceRoot()
	py := os.Getenv("NEUROGO_PYTHON")
	if py == "" {
		py = "python3"
		if root != "" {
			py = venvPython(root)
		}
	}
	cmd := exec.Command(py, append([]string{"-m", "neurogo_sweep"}, args...)...)
	cmd.Env = sweepEnv(os.Environ(), root)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	// Ctrl-C reaches the Python process (same process group): it cancels
	// the sweep's tasks and closes its cluster; this process waits for it.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintf(stderr, "neurogo sweep: cannot run %s -m neurogo_sweep: %v (run scripts/start to make the venv .cache/venv, or set NEUROGO_PYTHON)\n", py, err)
		return 1
	}
	return 0
}

// sweepEnv adds NEUROGO_BIN (this binary), NEUROGO_ROOT (the source tree)
// and the package's folder on PYTHONPATH (so an uninstalled checkout works
// too) to env.
func sweepEnv(env []string, root string) []string {
	if exe, err := os.Executable(); err == nil && os.Getenv("NEUROGO_BIN") == "" {
		env = append(env, "NEUROGO_BIN="+exe)
	}
	if root == "" {
		return env
	}
	if os.Getenv("NEUROGO_ROOT") == "" {
		env = append(env, "NEUROGO_ROOT="+root)
	}
	pp := filepath.Join(root, "python", "neurogo_sweep")
	if old := os.Getenv("PYTHONPATH"); old != "" {
		pp += string(os.PathListSeparator) + old
	}
	return append(env, "PYTHONPATH="+pp)
}

// sweepGroup is one category of the summary figure: the values of the
// metric at one value of the parameter.
type sweepGroup struct {
	label  string
	num    float64
	values []float64
}

// sweepPlot draws one metric of a sweep's results table against one
// parameter: per value of the parameter, the mean over the other
// parameters with a 95 % interval (Student t), as BASE.png and BASE.svg.
func sweepPlot(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep plot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	table := fs.String("table", "", "results.csv of a sweep")
	x := fs.String("x", "", "parameter (column) along the axis")
	y := fs.String("y", "", "metric (numeric column)")
	out := fs.String("out", "summary", "output path without extension (.png and .svg are written)")
	title := fs.String("title", "", "figure title (default: METRIC against PARAM)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *table == "" || *x == "" || *y == "" {
		fmt.Fprintln(stderr, "usage: neurogo sweep plot --table results.csv --x PARAM --y METRIC [--out BASE] [--title T]")
		return 2
	}
	groups, n, err := readSweepTable(*table, *x, *y)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo sweep plot: %v\n", err)
		return 1
	}
	p, err := sweepFigure(groups, n, *x, *y, *title)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo sweep plot: %v\n", err)
		return 1
	}
	if err := os.WriteFile(*out+".png", p.PNG(), 0o644); err != nil {
		fmt.Fprintf(stderr, "neurogo sweep plot: %v\n", err)
		return 1
	}
	if err := os.WriteFile(*out+".svg", []byte(p.SVG()), 0o644); err != nil {
		fmt.Fprintf(stderr, "neurogo sweep plot: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s against %s (%d points): %s.png, %s.svg\n", *y, *x, n, *out, *out)
	return 0
}

// readSweepTable groups the y values of the done rows of a results table
// by their x value: numerically ordered when every x is a number, else in
// order of first appearance. It returns the groups and the rows used.
func readSweepTable(path, x, y string) ([]sweepGroup, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) < 2 {
		return nil, 0, fmt.Errorf("%s: no rows", path)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	xi, okx := col[x]
	yi, oky := col[y]
	if !okx || !oky {
		return nil, 0, fmt.Errorf("%s: columns %q and %q needed; it has %s", path, x, y, strings.Join(recs[0], ", "))
	}
	si, hasStatus := col["status"]
	index := map[string]int{}
	var groups []sweepGroup
	numeric, n := true, 0
	for line, r := range recs[1:] {
		if hasStatus && r[si] != "done" {
			continue
		}
		if r[yi] == "" {
			continue
		}
		v, err := strconv.ParseFloat(r[yi], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, fmt.Errorf("%s line %d: %s = %q is not a finite number", path, line+2, y, r[yi])
		}
		g, ok := index[r[xi]]
		if !ok {
			g = len(groups)
			index[r[xi]] = g
			xv, err := strconv.ParseFloat(r[xi], 64)
			if err != nil {
				numeric = false
			}
			groups = append(groups, sweepGroup{label: r[xi], num: xv})
		}
		groups[g].values = append(groups[g].values, v)
		n++
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("%s: no done row with a value of %s", path, y)
	}
	if numeric {
		sort.SliceStable(groups, func(i, j int) bool { return groups[i].num < groups[j].num })
	}
	return groups, n, nil
}

// sweepFigure draws the groups as points with 95 % intervals, joined when
// the parameter is numeric (ordered categories).
func sweepFigure(groups []sweepGroup, n int, x, y, title string) (*viz.Plot, error) {
	cats := make([]string, len(groups))
	g := viz.BarGroup{Label: y}
	numeric := true
	for i, gr := range groups {
		cats[i] = gr.label
		if _, err := strconv.ParseFloat(gr.label, 64); err != nil {
			numeric = false
		}
		m, lo, hi := bench.MeanCI(gr.values)
		g.Values, g.Lower, g.Upper = append(g.Values, m), append(g.Lower, lo), append(g.Upper, hi)
	}
	if title == "" {
		title = fmt.Sprintf("%s against %s (%d points; mean, 95 %% interval)", y, x, n)
	}
	return viz.Points(cats, []viz.BarGroup{g}, viz.PointsOptions{Connect: numeric && len(cats) > 1,
		Frame: viz.Frame{Title: title, XLabel: x, YLabel: y}})
}

// sweepSPAFigure draws Fig. 9 of the NengoDL paper from the records of a
// spa-memory sweep (the points `neurogo repro spa-memory --point` prints),
// as `neurogo repro spa-memory` draws it from its cells.
func sweepSPAFigure(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep spa-figure", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("points", "", "JSON list of spa-memory point records")
	out := fs.String("out", "fig9.png", "figure (PNG)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *in == "" {
		fmt.Fprintln(stderr, "usage: neurogo sweep spa-figure --points points.json [--out fig9.png]")
		return 2
	}
	b, err := os.ReadFile(*in)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo sweep spa-figure: %v\n", err)
		return 1
	}
	var pts []repro.SPAPoint
	if err := json.Unmarshal(b, &pts); err != nil {
		fmt.Fprintf(stderr, "neurogo sweep spa-figure: %s: %v\n", *in, err)
		return 1
	}
	for i, p := range pts {
		if p.NeuronsPerDim < 1 {
			fmt.Fprintf(stderr, "neurogo sweep spa-figure: %s: point %d has no NeuronsPerDim (not a spa-memory record)\n", *in, i)
			return 1
		}
	}
	if len(pts) == 0 {
		fmt.Fprintf(stderr, "neurogo sweep spa-figure: %s: no points\n", *in)
		return 1
	}
	sort.SliceStable(pts, func(i, j int) bool {
		if pts[i].NeuronsPerDim != pts[j].NeuronsPerDim {
			return pts[i].NeuronsPerDim < pts[j].NeuronsPerDim
		}
		return pts[i].Seed < pts[j].Seed
	})
	res := repro.Summarize(pts)
	fig, err := res.Figure()
	if err != nil {
		fmt.Fprintf(stderr, "neurogo sweep spa-figure: %v\n", err)
		return 1
	}
	if err := os.WriteFile(*out, fig.PNG(), 0o644); err != nil {
		fmt.Fprintf(stderr, "neurogo sweep spa-figure: %v\n", err)
		return 1
	}
	for i, n := range res.NeuronsPerDim {
		fmt.Fprintf(stdout, "spa-memory: %2d neurons/dim: retrieval %.3f [%.3f, %.3f] before, %.3f [%.3f, %.3f] after training\n",
			n, res.BeforeMean[i], res.BeforeLo[i], res.BeforeHi[i], res.AfterMean[i], res.AfterLo[i], res.AfterHi[i])
	}
	fmt.Fprintf(stdout, "figure: %s\n", *out)
	return 0
}

// parsePoint reads a reproduction's --point: comma-separated NAME=INT
// pairs, each name one of allowed and given once, every allowed name
// required.
func parsePoint(s string, allowed ...string) (map[string]int, error) {
	out := map[string]int{}
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--point %q: %q is not NAME=VALUE", s, kv)
		}
		k = strings.TrimSpace(k)
		known := false
		for _, a := range allowed {
			known = known || a == k
		}
		if !known {
			return nil, fmt.Errorf("--point %q: unknown name %q (the point is %s)", s, k, strings.Join(allowed, ", "))
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("--point %q: %s given twice", s, k)
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("--point %q: %s=%q is not an integer", s, k, v)
		}
		out[k] = n
	}
	for _, a := range allowed {
		if _, ok := out[a]; !ok {
			return nil, fmt.Errorf("--point %q: %s is missing (the point is %s)", s, a, strings.Join(allowed, ", "))
		}
	}
	return out, nil
}
