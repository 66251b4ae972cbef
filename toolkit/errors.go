package toolkit

import "fmt"

// Error reports an invalid description: the object (its kind and label),
// the field, the offending value and the rule it breaks, e.g.
// `toolkit: Ensemble "a".N = -3: must be positive`.
type Error struct {
	Object string
	Field  string
	Value  any
	Rule   string
	Err    error // underlying error (from a neuron type, distribution, …), if any
}

func (e *Error) Error() string {
	s := fmt.Sprintf("toolkit: %s.%s = %v: %s", e.Object, e.Field, e.Value, e.Rule)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }
