package stream

import (
	"fmt"
	"strings"
)

// String summarises the network in a few lines: name, agents, how many
// neuron-pools, synapse-pools, plasticities and interfaces it has, and
// every note of the loader (Warnings, keys ignored in compatibility mode),
// one a line, so that printing a loaded Net shows them.
func (n *Net) String() string {
	if n == nil {
		return "stream.Net(nil)"
	}
	var b strings.Builder
	b.WriteString(n.summary())
	if len(n.Warnings) > 0 {
		fmt.Fprintf(&b, "\n%s:", plural(len(n.Warnings), "warning"))
		for _, w := range n.Warnings {
			b.WriteString("\n  " + w.Error())
		}
	}
	return b.String()
}

// Markdown is the network's summary as a notebook shows a Net that is a
// cell's result: String's lines, the loader's warnings in a block of their
// own.
func (n *Net) Markdown() string {
	if n == nil {
		return "`stream.Net(nil)`"
	}
	var b strings.Builder
	b.WriteString(strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`").Replace(n.summary()))
	if len(n.Warnings) > 0 {
		fmt.Fprintf(&b, "\n\n%s (keys ignored, as statestream ignores them; LoadOptions{Strict: true} makes them errors):\n", plural(len(n.Warnings), "warning"))
		for _, w := range n.Warnings {
			b.WriteString("\n    " + w.Error())
		}
	}
	return b.String() + "\n"
}

func (n *Net) summary() string {
	name := n.Name
	if name == "" {
		name = "(unnamed)"
	}
	return fmt.Sprintf("layerwise-parallel network %s: %s, %s, %s, %s, %s", name,
		plural(max(n.Agents, 1), "agent"), plural(len(n.NeuronPools), "neuron-pool"),
		plural(len(n.SynapsePools), "synapse-pool"), plural(len(n.Plasticities), "plasticity"),
		plural(len(n.Interfaces), "interface"))
}

func plural(k int, word string) string {
	if k == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", k, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", k, word)
}
