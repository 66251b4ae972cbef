package stimulus

import (
	"testing"
)

// TestHoldDurations: statestream's min_duration / max_duration hold every
// stimulus for a number of frames drawn uniformly from [min, max], both
// ends included (process_if_mnist draws randint(min, max + 1)), per agent.
func TestHoldDurations(t *testing.T) {
	it := mnistInterface()
	it.Params["min_duration"], it.Params["max_duration"] = 2, 4
	drv, err := FromInterface(it, Options{Data: synthetic(30, 28, 28, 10), Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	d := drv.(*MNIST)
	if lo, hi := d.Frames(); lo != 2 || hi != 4 {
		t.Fatalf("hold frames %d–%d, want 2–4", lo, hi)
	}
	const agents, frames = 4, 400
	out := map[string][3]int{"image": {1, 28, 28}, "label": {10, 1, 1}}
	in := map[string][3]int{"prediction": {10, 1, 1}}
	if err := d.Start(agents, out, in, 1); err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{} // hold length → count
	last := make([]int, agents)
	for f := range frames {
		bufs := map[string][]float64{"image": make([]float64, agents*784), "label": make([]float64, agents*10)}
		if err := d.Frame(f, map[string][]float64{"prediction": make([]float64, agents*10)}, bufs); err != nil {
			t.Fatal(err)
		}
		_, on := d.Stimulus(f + 1)
		for a, o := range on {
			if o != last[a] {
				if last[a] > 0 {
					seen[o-last[a]]++
				}
				last[a] = o
			}
		}
	}
	for h, n := range seen {
		if h < 2 || h > 4 {
			t.Errorf("a stimulus was held %d frames (%d times), outside [2, 4]", h, n)
		}
	}
	for h := 2; h <= 4; h++ {
		if seen[h] == 0 {
			t.Errorf("no stimulus was held %d frames in %d frames of %d agents: %v", h, frames, agents, seen)
		}
	}
}
