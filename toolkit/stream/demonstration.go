package stream

import _ "embed"

// DemonstrationSpec is the network file of appendix 6.2 of the statestream
// paper — the
// two-path MNIST network of Fig. 3a (conv1 → conv2 → pred2 deep path,
// conv1 → pred1 short path, both summed into prediction; two loss
// plasticities) — exactly as the paper prints it, with statestream's MNIST
// path (/opt/dl/data/mnist.pkl.gz), which train/stimulus maps to neurogo's
// MNIST files.
//
//go:embed testdata/demonstration.st_graph
var DemonstrationSpec []byte

// Demonstration parses DemonstrationSpec with the given options (e.g.
// Globals overrides).
func Demonstration(o LoadOptions) (*Net, error) {
	return Parse(DemonstrationSpec, "demonstration.st_graph", o)
}
