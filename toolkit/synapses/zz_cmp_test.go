package synapses

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestZZCompareNengo(t *testing.T) {
	f, err := os.Open("/tmp/lp.txt")
	if err != nil {
		t.Skip()
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	bad, total := 0, 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		tau, _ := strconv.ParseFloat(fs[1], 64)
		var s *System
		switch fs[0] {
		case "lp":
			s, _ = Lowpass{Tau: tau}.Discretize(0.001)
		case "al":
			s, _ = Alpha{Tau: tau}.Discretize(0.001)
		case "lf":
			s, _ = (&LinearFilter{Num: []float64{1}, Den: []float64{0.0001, 0.03, 1}}).Discretize(0.001)
		}
		var got []string
		for _, v := range append(append(append([]float64{}, s.A...), s.B...), s.C...) {
			got = append(got, strconv.FormatFloat(v, 'x', 13, 64))
		}
		total++
		g := strings.Join(got, " ")
		w := strings.Join(fs[2:], " ")
		if g != w {
			bad++
			fmt.Printf("%s %s\n  got  %s\n  want %s\n", fs[0], fs[1], g, w)
		}
	}
	fmt.Println("mismatch", bad, "of", total)
}
