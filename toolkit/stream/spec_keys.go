package stream

import (
	"slices"
	"strings"
)

// Section names of a statestream network file (docs/network_specification.md).
const (
	secNP   = "neuron_pools"
	secSP   = "synapse_pools"
	secPL   = "plasticities"
	secIF   = "interfaces"
	secCC   = "core_clients"
	secTags = "tag_specs"
)

// itemSections are the sections holding basic items, in statestream's order.
var itemSections = []string{secNP, secSP, secPL, secIF}

// topKeys are the top-level keys of a network file; any other top-level
// key must name a module (its instances).
// "backend" (statestream's choice of theano or tensorflow, found in its
// examples) is accepted and ignored.
var topKeys = []string{"name", "agents", "globals", secNP, secSP, secPL, secIF,
	secCC, secTags, "modules", "import", "backend"}

var commonKeys = []string{"tags", "period", "period offset", "device"}

// Keys of each item kind (statestream docs/neuron_pools.md,
// synapse_pools.md, plasticities.md, plasticity_loss.md, noise_terms.md;
// the statestream paper, appendix 6.2). "init …" keys are matched by prefix.
var (
	npKeys = append([]string{"shape", "act", "noise", "noise mean", "noise std",
		"noise min", "noise max", "dropout", "zoneout", "bias_shape", "gain_shape",
		"batchnorm_mean", "batchnorm_std", "layernorm_mean", "layernorm_std",
		"init b", "init g", "unshare"}, commonKeys...)
	spKeys = append([]string{"source", "target", "rf", "dilation", "ppp", "act",
		"pact", "ACT", "weight_fnc", "share params", "bias_shapes", "noise", "noise mean", "noise std", "noise min",
		"noise max", "avgout", "maxout", "unshare", "factor_shapes", "target_shapes"}, commonKeys...)
	plKeys = append([]string{"type", "modus", "loss_function", "source",
		"source_t", "target", "target_t", "mask", "parameter", "L1", "L2",
		"optimizer", "lr", "momentum", "decay", "rho", "start_frame"}, commonKeys...)
	// ifKeys are the interface keys with a meaning of their own; every
	// other key of an interface goes to Interface.Params.
	ifKeys = append([]string{"type", "in", "out", "remap"}, commonKeys...)
)

// unsupportedKeys are keys statestream documents that neurogo does not
// implement; they are rejected with a message saying so rather than
// silently ignored.
var unsupportedKeys = map[string][]string{
	secNP: {"noise prob"},
	secSP: {"weight_shapes"},
	secPL: {"ignore_split"},
}

// ignoredKeys are keys statestream reads without any effect on what a
// network computes: they are accepted silently (an error in strict mode,
// with the reason).
var ignoredKeys = map[string]map[string]string{
	secPL: {
		"bottleneck": "it tunes statestream's process scheduling (the period of " +
			"items that are not the slowest), not what a frame computes",
		"label_smoothing":    "statestream's loss plasticity does not apply it (the code is commented out)",
		"confidence_penalty": "statestream's loss plasticity does not apply it (the code is commented out)",
	},
	secSP: {
		"bottleneck": "it tunes statestream's process scheduling, not what a frame computes",
	},
	secNP: {
		"bottleneck": "it tunes statestream's process scheduling, not what a frame computes",
	},
}

// ignoredKey returns why key has no effect, if statestream ignores it.
func ignoredKey(section, key string) (string, bool) {
	why, ok := ignoredKeys[section][key]
	return why, ok
}

// unsupportedKey reports whether key is one statestream knows and neurogo
// does not implement.
func unsupportedKey(section, key string) bool {
	return slices.Contains(unsupportedKeys[section], key)
}

// keyAliases map alternative spellings statestream accepts onto the
// canonical key: the docs use "sources" / "parameters", the paper's example
// (the statestream paper, appendix 6.2) and statestream's code "source" / "parameter";
// noise keys appear with a space in the docs and with an underscore in the
// code.
var keyAliases = map[string]string{
	"sources":       "source",
	"parameters":    "parameter",
	"noise_mean":    "noise mean",
	"noise_std":     "noise std",
	"noise_min":     "noise min",
	"noise_max":     "noise max",
	"period_offset": "period offset",
}

// canonicalKey returns the canonical spelling of an item key of a section.
func canonicalKey(section, key string) string {
	c, ok := keyAliases[key]
	if !ok {
		return key
	}
	if c == "parameter" && section != secPL {
		return key
	}
	if c == "source" && section != secSP && section != secPL {
		return key
	}
	return c
}

// sectionKeys returns the valid keys of a section's items.
func sectionKeys(section string) []string {
	switch section {
	case secNP:
		return npKeys
	case secSP:
		return spKeys
	case secPL:
		return plKeys
	case secIF:
		return ifKeys
	}
	return nil
}

// keyValid reports whether key (canonical) is an item key of section.
// Interfaces accept every key (the rest are type-specific parameters);
// synapse-pools accept "init W_f_a" / "init P_f_a" and the clipping
// bounds "min W_f_a" / "max W_f_a" for any parameter name (Validate
// checks the parameter exists).
func keyValid(section, key string) bool {
	switch section {
	case secIF, secCC:
		return true
	case secSP:
		if strings.HasPrefix(key, "init ") || strings.HasPrefix(key, "min ") || strings.HasPrefix(key, "max ") {
			return true
		}
	}
	return slices.Contains(sectionKeys(section), key)
}

// tagKeyApplies reports whether a tag_specs key is applied to an item of
// section: its own keys for neuron-pools, synapse-pools and plasticities;
// for interfaces only the keys every item has (period, period offset,
// device), so that a tag serving pools does not put pool keys into an
// interface's parameters.
func tagKeyApplies(section, key string) bool {
	if section == secIF {
		return key == "period" || key == "period offset" || key == "device"
	}
	return key != "tags" && keyValid(section, key)
}
