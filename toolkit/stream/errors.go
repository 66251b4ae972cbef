package stream

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a network description: where it was written
// (Pos; zero for a Net built in Go), the section (neuron_pools,
// synapse_pools, …), the item, the key, what is wrong and, for misspelled
// names, the nearest valid one.
//
// Its message reads like a compiler's:
//
//	net.st_graph:23:9: neuron_pools.conv1.act: unknown activation "rleu" (did you mean "relu"?)
type Error struct {
	Pos                              Pos
	Section, Item, Key, Msg, Suggest string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos.File != "" || e.Pos.Line > 0 {
		file := e.Pos.File
		if file == "" {
			file = "<input>"
		}
		fmt.Fprintf(&b, "%s:%d:%d: ", file, e.Pos.Line, e.Pos.Col)
	}
	var path []string
	for _, s := range []string{e.Section, e.Item, e.Key} {
		if s != "" {
			path = append(path, s)
		}
	}
	if len(path) > 0 {
		b.WriteString(strings.Join(path, "."))
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Suggest != "" {
		fmt.Fprintf(&b, " (did you mean %q?)", e.Suggest)
	}
	return b.String()
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
