package stream

import (
	"os"
	"strings"
	"testing"
)

// TestDocExample: the file-format example of the package doc loads.
func TestDocExample(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "//\tname: small")
	j := strings.Index(s, "// The loader applies")
	if i < 0 || j < i {
		t.Fatal("example not found in doc.go")
	}
	var src []string
	for _, l := range strings.Split(s[i:j], "\n") {
		if strings.HasPrefix(l, "//\t") {
			src = append(src, strings.TrimPrefix(l, "//\t"))
		}
	}
	n, err := Parse([]byte(strings.Join(src, "\n")), "doc.go", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c := n.Pool("conv"); c.Shape != [3]int{8, 14, 14} || c.Act != "relu" || c.Dropout != 0.2 {
		t.Errorf("conv = %+v", c)
	}
	if r, err := n.Rollout(n.Plasticity("class")); err != nil || r.Depth != 2 {
		t.Errorf("rollout %v %v", r, err)
	}
}
