package native

import (
	"context"
	"fmt"
	"testing"
)

// TestSemicolonSeparatedItems runs cells whose items share a line.
func TestSemicolonSeparatedItems(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct{ code, want string }{
		{"a := 1; a", "1"},
		{"b := 2; c := 3\nb + c", "5"},
		{"type T int; func (t T) Twice() T { return 2 * t }; T(4).Twice()", "8"},
		{"func h() int { return 7 }; x := h(); x", "7"},
	} {
		r, err := s.Run(context.Background(), c.code)
		if err != nil {
			t.Errorf("%q: %v", c.code, err)
			continue
		}
		if got := fmt.Sprint(r.Value); !r.HasValue || got != c.want {
			t.Errorf("%q: %v (%v), want %s", c.code, got, r.HasValue, c.want)
		}
	}
}
