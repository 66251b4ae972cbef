package repro

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/data"
	"github.com/neurogo/neurogo/train/plastic"
	"github.com/neurogo/neurogo/train/stimulus"
)

// StreamBenchOptions configure BenchStream.
type StreamBenchOptions struct {
	// Agents to measure (default 1, 16, 128).
	Agents []int
	// MinSeconds is how long each measurement runs at least (default 2;
	// a quick bench uses less).
	MinSeconds float64
	// Images of the MNIST training set streamed in (default 2000).
	Images  int
	DataDir string
	Seed    int64
	Log     io.Writer
}

// StreamBenchRow is one line of `neurogo bench stream`: frames per second
// of the appendix 6.2 two-path network at Agents agents in one execution
// mode ("parallel" = layerwise-parallel inference, "parallel+plasticities"
// = with its two loss plasticities running, as in training,
// "sequential" = the layerwise-sequential execution), on one core and on
// all cores, and their ratio.
type StreamBenchRow struct {
	Agents          int     `json:"agents"`
	Mode            string  `json:"mode"`
	FPSOneCore      float64 `json:"fps_one_core"`
	FPSAllCores     float64 `json:"fps_all_cores"`
	ParallelSpeedup float64 `json:"parallel_speedup"`
	Cores           int     `json:"cores"`
}

// BenchStream measures the frame rate of the two-path network (the statestream paper,
// Fig. 3a) at each agent count and mode, with one worker on one core
// (GOMAXPROCS 1) and with all cores, in one run so that the ratios compare
// like with like.
func BenchStream(o StreamBenchOptions) ([]StreamBenchRow, error) {
	if len(o.Agents) == 0 {
		o.Agents = []int{1, 16, 128}
	}
	if o.MinSeconds <= 0 {
		o.MinSeconds = 2
	}
	if o.Images <= 0 {
		o.Images = 2000
	}
	trainSet, _, err := data.MNISTSubset(o.DataDir, min(o.Images, 60000), 1)
	if err != nil {
		return nil, err
	}
	cores := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(cores)
	var rows []StreamBenchRow
	for _, agents := range o.Agents {
		if agents < 1 {
			return nil, fmt.Errorf("repro: bench stream: agents must be ≥ 1, got %d", agents)
		}
		for _, mode := range []string{"parallel", "parallel+plasticities", "sequential"} {
			row := StreamBenchRow{Agents: agents, Mode: mode, Cores: cores}
			for _, one := range []bool{true, false} {
				if one {
					runtime.GOMAXPROCS(1)
				} else {
					runtime.GOMAXPROCS(cores)
				}
				fps, err := streamFPS(trainSet, agents, mode, one, o)
				if err != nil {
					return nil, err
				}
				if one {
					row.FPSOneCore = fps
				} else {
					row.FPSAllCores = fps
				}
			}
			row.ParallelSpeedup = row.FPSAllCores / row.FPSOneCore
			if o.Log != nil {
				fmt.Fprintf(o.Log, "bench stream: %3d agents %-22s %8.1f fps one core, %8.1f fps %d cores (×%.2f)\n",
					agents, mode, row.FPSOneCore, row.FPSAllCores, cores, row.ParallelSpeedup)
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

func streamFPS(set *data.Dataset, agents int, mode string, oneCore bool, o StreamBenchOptions) (float64, error) {
	net, err := stream.Demonstration(stream.LoadOptions{})
	if err != nil {
		return 0, err
	}
	net.Agents = agents
	drivers, err := stimulus.Drivers(net, stimulus.Options{Data: set, Seed: o.Seed})
	if err != nil {
		return 0, err
	}
	fo := frames.Options{Seed: o.Seed, Drivers: drivers}
	if oneCore {
		fo.Workers = 1
	}
	if mode == "sequential" {
		fo.Mode = frames.Sequential
	}
	s, err := frames.New(net, fo)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	if mode == "parallel+plasticities" {
		if _, err := plastic.Attach(s, plastic.Options{Seed: o.Seed}); err != nil {
			return 0, err
		}
	}
	if err := s.Run(3); err != nil { // warm up
		return 0, err
	}
	n, t0 := 0, time.Now()
	for time.Since(t0).Seconds() < o.MinSeconds || n < 3 {
		if interrupt.Requested() {
			return 0, fmt.Errorf("bench stream: interrupted after %d frames: %w", n, interrupt.ErrInterrupted)
		}
		if err := s.Step(); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(t0).Seconds(), nil
}
