package stream

import (
	"sort"
	"strings"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// specErr returns one problem in a network description as a
// *validate.Error: where it was written (pos; zero for a Net built in Go),
// the section (neuron_pools, synapse_pools, …) and item as its Object, the
// key as its Field, what is wrong as its Rule (which names the value, so
// Value is validate.NoValue) and, for a misspelled name, the nearest valid
// one. Its message reads like a compiler's:
//
//	net.st_graph:23:9: neuron_pools.conv1.act: unknown activation "rleu" (did you mean "relu"?)
func specErr(pos Pos, section, item, key, suggest, msg string) *validate.Error {
	obj := section
	if item != "" {
		if obj != "" {
			obj += "."
		}
		obj += item
	}
	return &validate.Error{Pos: validate.Pos(pos), Object: obj, Field: key, Value: validate.NoValue{},
		Rule: msg, Suggest: suggest}
}

// maxSuggestDistance is the largest edit distance at which a valid name is
// offered as a correction.
const maxSuggestDistance = 3

// suggest returns the candidate nearest to s by Levenshtein distance
// (case-insensitive), or "" when none is within maxSuggestDistance or s is
// itself a candidate. Ties go to the alphabetically first candidate.
func suggest(s string, candidates []string) string {
	c := append([]string(nil), candidates...)
	sort.Strings(c)
	best, bestD := "", maxSuggestDistance+1
	ls := strings.ToLower(s)
	for _, k := range c {
		d := levenshtein(ls, strings.ToLower(k))
		if d == 0 && k == s {
			return ""
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// levenshtein is the edit distance between a and b over runes, counting
// insertions, deletions, substitutions and transpositions of adjacent runes
// (the optimal-string-alignment variant of Damerau–Levenshtein), so that
// "rleu" is one edit from "relu".
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
