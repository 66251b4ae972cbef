package plastic_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/plastic"
)

// zeroDriver writes zeros into the pools of an interface: the census runs
// every network without stimuli.
type zeroDriver struct{}

func (zeroDriver) Start(int, map[string][3]int, map[string][3]int, int64) error { return nil }

func (zeroDriver) Frame(_ int, _, out map[string][]float64) error {
	for _, v := range out {
		clear(v)
	}
	return nil
}

// patternDriver writes a fixed non-zero pattern into its pools.
type patternDriver struct{}

func (patternDriver) Start(int, map[string][3]int, map[string][3]int, int64) error { return nil }

func (patternDriver) Frame(_ int, _, out map[string][]float64) error {
	for _, v := range out {
		for i := range v {
			v[i] = float64(i%7) / 7
		}
	}
	return nil
}

// censusAgents is the batch the census runs every network with (the
// files' own agent counts, up to 128, only change the cost).
const censusAgents = 2

// censusFile loads one network file in compatibility mode, then runs
// three frames of it with zero input and its plasticities attached. It
// returns the number of load warnings, whether it loaded and ran, and the
// first problem.
func censusFile(path string) (warnings int, loaded, ran bool, err error) {
	net, err := stream.Load(path, stream.LoadOptions{})
	if err != nil {
		return 0, false, false, err
	}
	net.Agents = censusAgents
	drivers := map[string]stream.Driver{}
	for _, it := range net.Interfaces {
		drivers[it.Name] = zeroDriver{}
	}
	s, err := frames.New(net, frames.Options{Seed: 1, Workers: 1, Drivers: drivers})
	if err != nil {
		return len(net.Warnings), true, false, err
	}
	defer s.Close()
	if _, err := plastic.Attach(s, plastic.Options{Chunks: 1}); err != nil {
		return len(net.Warnings), true, false, err
	}
	if err := s.Run(3); err != nil {
		return len(net.Warnings), true, false, err
	}
	return len(net.Warnings), true, true, nil
}

// firstLine is the first of the joined problems of err, on one line.
func firstLine(err error) string {
	var j interface{ Unwrap() []error }
	n := 1
	if errors.As(err, &j) {
		n = len(j.Unwrap())
		err = j.Unwrap()[0]
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if n > 1 {
		msg += fmt.Sprintf(" (and %d more)", n-1)
	}
	return msg
}

// TestStatestreamCensus loads every .st_graph file under the directory
// named by STATESTREAM_DIR (a checkout of statestream) and runs three
// frames of each with zero input, printing one line per file and the
// totals (scripts/statestream-census runs it). Without the variable it is
// skipped: the checkout is not part of this repository.
func TestStatestreamCensus(t *testing.T) {
	dir := os.Getenv("STATESTREAM_DIR")
	if dir == "" {
		t.Skip("STATESTREAM_DIR is not set (a statestream checkout)")
	}
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".st_graph") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var nLoad, nRun, nFail, nWarn int
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		w, loaded, ran, err := censusFile(f)
		nWarn += w
		switch {
		case ran:
			nLoad++
			nRun++
			fmt.Printf("ran     %s (%d warnings)\n", rel, w)
		case loaded:
			nLoad++
			nFail++
			fmt.Printf("loaded  %s: %s\n", rel, firstLine(err))
		default:
			nFail++
			fmt.Printf("error   %s: %s\n", rel, firstLine(err))
		}
	}
	fmt.Printf("total %d files: %d load, %d run 3 frames, %d fail; %d warnings\n",
		len(files), nLoad, nRun, nFail, nWarn)
}

// TestCompatFileRuns: the loader's compatibility test file (statestream's
// constructs: pact, share params, identity inits, factor biases, avgout /
// maxout, neglog, a pruned rollout) runs with its loss plasticity, and the
// shared parameter is one array, trained through either name.
func TestCompatFileRuns(t *testing.T) {
	const file = "../../toolkit/stream/testdata/compat.st_graph"
	if w, loaded, ran, err := censusFile(file); !loaded || !ran || err != nil || w != 5 {
		t.Fatalf("loaded %v, ran %v, %d warnings, err %v", loaded, ran, w, err)
	}
	net, err := stream.Load(file, stream.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := frames.New(net, frames.Options{Seed: 1, Workers: 1, Drivers: map[string]stream.Driver{"data": patternDriver{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	owner, _ := s.Param(stream.ParamRef{Kind: "sp", Item: "hid_pred", Name: "W_0_0"})
	sharer, _ := s.Param(stream.ParamRef{Kind: "sp", Item: "hid_pred2", Name: "W_0_0"})
	if len(owner) == 0 || &owner[0] != &sharer[0] {
		t.Fatal("hid_pred2's W_0_0 is not hid_pred's array")
	}
	before := append([]float64(nil), owner...)
	if _, err := plastic.Attach(s, plastic.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Run(6); err != nil {
		t.Fatal(err)
	}
	changed := false
	for i, v := range owner {
		changed = changed || v != before[i]
	}
	if !changed {
		t.Error("the shared parameter did not change in training")
	}
}
