package sim_test

import (
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/simtest"
)

func TestConformanceCPU(t *testing.T) { simtest.Run(t, sim.CPU, simtest.Exact()) }

func TestConformanceCPU32(t *testing.T) { simtest.Run(t, sim.CPU32, simtest.Single()) }
