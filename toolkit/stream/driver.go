package stream

// State layout: every neuron-pool state handed between neurogo's stream
// packages and user code is one float64 slice of agents·W·H·C values,
// row-major [agent][x][y][feature] (channels last, as toolkit/layers), for
// a pool of Shape [C, W, H].

// Index returns the position of (agent, feature c, x, y) in a state of
// shape [C, W, H] laid out as above.
func Index(shape [3]int, agent, c, x, y int) int {
	return ((agent*shape[1]+x)*shape[2]+y)*shape[0] + c
}

// Size is the number of values of one agent's state: C·W·H.
func Size(shape [3]int) int { return shape[0] * shape[1] * shape[2] }

// Driver is the Go side of an interface (a stimulus or a read-out). The
// executor calls Start once, then Frame in the write phase of every frame
// t → t+1.
type Driver interface {
	// Start gives the number of agents, the shapes of the pools the driver
	// writes (out) and reads (in), keyed by neuron-pool name (after remap),
	// and a seed.
	Start(agents int, out, in map[string][3]int, seed int64) error
	// Frame fills out[pool] (agents·Size values each) with the states of
	// frame t+1 and may read in[pool], the states of frame t. Buffers are
	// owned by the executor and reused; a driver must not keep them.
	Frame(t int, in, out map[string][]float64) error
}

// Labeler is a Driver that presents labelled stimuli: the label of the
// stimulus each agent sees at frame t and the frame of its onset (the
// first frame it was shown), for time-resolved evaluation (the statestream paper, §3.2).
type Labeler interface {
	Driver
	// Stimulus returns each agent's label and onset frame for the
	// stimulus held in frame t (written by Frame(t-1)); label -1 means no
	// labelled stimulus. A driver answers at least for the latest frame
	// written and the one before it.
	Stimulus(t int) (labels, onsets []int)
}
