package validate

import (
	"fmt"
	"strings"
)

// Error reports invalid input. Its message is
//
//	[File:Line:Col: ][Pkg: ][Object.Field][ = Value][: ]Rule[ (did you mean "Suggest"?)][: Err]
//
// where a part is left out when its fields are empty (Pos zero, Pkg "",
// Object and Field both "", Value NoValue, Suggest "", Err nil); the ": "
// before Rule stands when a path or value precedes it, and the "." only
// when both Object and Field are set. A nil Value is printed as <nil>.
type Error struct {
	// Pkg is the reporting package, the message's prefix ("toolkit",
	// "dists", "neurons", …); empty for none.
	Pkg string
	// Object is what was checked: an object's kind and label
	// (`Ensemble "a"`), a type (LIF), a function or method (Filt), or the
	// section and item of a spec (neuron_pools.conv1).
	Object string
	// Field is the field or argument (TauRC, len(J), max_rates[3], a spec
	// key).
	Field string
	// Value is the offending value, or NoValue{} when the rule names it.
	Value any
	// Rule is the rule the value breaks, or what is wrong.
	Rule string
	// Err is the underlying error (from a neuron type, a distribution, an
	// expression, …), if any.
	Err error
	// Pos is where the value was written, for a description read from a
	// file; zero otherwise.
	Pos Pos
	// Suggest is the nearest valid name, for a misspelled one.
	Suggest string
}

// Pos is a position in a source file; Line and Col count from 1. A Pos
// with File "" and Line 0 is no position.
type Pos struct {
	File      string
	Line, Col int
}

// IsZero reports whether p is no position.
func (p Pos) IsZero() bool { return p.File == "" && p.Line <= 0 }

// String returns "File:Line:Col", with <input> for an unnamed file.
func (p Pos) String() string {
	file := p.File
	if file == "" {
		file = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

// NoValue is the Value of an Error whose Rule names the offending value
// itself: the message has no " = Value" part.
type NoValue struct{}

func (e *Error) Error() string {
	var b strings.Builder
	if !e.Pos.IsZero() {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	if e.Pkg != "" {
		b.WriteString(e.Pkg)
		b.WriteString(": ")
	}
	head := false
	if e.Object != "" || e.Field != "" {
		b.WriteString(e.Object)
		if e.Object != "" && e.Field != "" {
			b.WriteByte('.')
		}
		b.WriteString(e.Field)
		head = true
	}
	if _, none := e.Value.(NoValue); !none {
		fmt.Fprintf(&b, " = %v", e.Value)
		head = true
	}
	if head {
		b.WriteString(": ")
	}
	b.WriteString(e.Rule)
	if e.Suggest != "" {
		fmt.Fprintf(&b, " (did you mean %q?)", e.Suggest)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }
