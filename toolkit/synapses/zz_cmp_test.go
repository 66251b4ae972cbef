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
	for _, k := range [][3]bool{{true, true, true}} {
		f, err := os.Open("/tmp/lp.txt")
		if err != nil {
			t.Skip()
		}
		sc := bufio.NewScanner(f)
		bad, total, maxulp := 0, 0, 0.0
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
			got := append(append(append([]float64{}, s.A...), s.B...), s.C...)
			total++
			mis := false
			for i, w := range fs[2:] {
				wv, _ := strconv.ParseFloat(w, 64)
				if wv != got[i] {
					mis = true
					if u := (got[i] - wv) / (wv * 2.2e-16); u > maxulp || -u > maxulp {
						maxulp = max(u, -u)
					}
				}
			}
			if mis {
				bad++
				if k == [3]bool{true, true, true} {
					fmt.Println("  mismatch", fs[0], fs[1])
				}
			}
		}
		f.Close()
		fmt.Println(k, "mismatch", bad, "of", total, "max ulp", maxulp)
	}
}
