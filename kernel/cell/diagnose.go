package cell

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"
)

// Diagnose type-checks the cell src with go/types in the context of the
// committed cells and returns its type errors, at the cell's line:col, in
// source order (a syntax error alone if the cell does not parse). It is
// meant for when the interpreter's own message is unhelpful (see
// Unhelpful): go/types says "undefined: x" where yaegi says "constant
// definition loop". It leaves out what yaegi accepts and go/types would
// not: unused variables, imports and labels; a top-level := that only
// redefines names (each top-level statement is its own segment); a
// top-level expression whose value is unused (the cell's result); names
// that the cell's top-level statements define, used in its declarations;
// packages the importer cannot load; and mismatches between two types
// printed alike (iter.Seq from the interpreted source and from export
// data). The generic packages are checked against the interpreter's
// signatures, and min, max and clear are the builtins. Diagnose does not
// change f. It returns nil when there is nothing to report.
func (f *Front) Diagnose(src string) (errs []*Error) {
	if recoverPanics {
		defer func() {
			if r := recover(); r != nil {
				errs = nil
			}
		}()
	}
	pc, perr := parseCell(src, f.imports, f.pkgName)
	if perr != nil {
		return []*Error{perr}
	}
	r := &rewriter{f: f, pc: pc, ed: &editor{src: src}}

	// What the cell's top level defines and does, to leave out errors
	// about them.
	topDefs := map[string]bool{}
	type rng struct{ s, e token.Pos }
	var defines, exprs []rng
	for _, st := range pc.body {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				defines = append(defines, rng{st.Pos(), st.End()})
				for _, l := range st.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						topDefs[id.Name] = true
					}
				}
			}
		case *ast.ExprStmt:
			exprs = append(exprs, rng{st.Pos(), st.End()})
		}
	}
	in := func(p token.Pos, rs []rng) bool {
		for _, x := range rs {
			if p >= x.s && p < x.e {
				return true
			}
		}
		return false
	}
	inDecls := func(p token.Pos) bool {
		for _, d := range pc.decls {
			if p >= d.Pos() && p < d.End() {
				return true
			}
		}
		return false
	}

	seen := map[string]bool{}
	r.check(func(te types.Error) {
		if te.Soft || !pc.inCell(te.Pos) {
			return
		}
		// Objects of the interpreted generic packages have no position.
		msg := strings.ReplaceAll(te.Msg, " (declared at -)", "")
		switch {
		case strings.HasPrefix(msg, "could not import "):
			return
		case strings.HasPrefix(msg, "no new variables on left side of :=") && in(te.Pos, defines):
			return
		case strings.HasSuffix(msg, " is not used") && in(te.Pos, exprs):
			return
		case strings.HasPrefix(msg, "undefined: ") && topDefs[strings.TrimPrefix(msg, "undefined: ")] && inDecls(te.Pos):
			return
		case sameTypeMismatch(msg):
			return
		}
		e := pc.errAt(te.Pos, msg)
		if k := fmt.Sprint(e.Line, e.Col, msg); !seen[k] {
			seen[k] = true
			errs = append(errs, e)
		}
	})
	sort.SliceStable(errs, func(i, j int) bool {
		if errs[i].Line != errs[j].Line {
			return errs[i].Line < errs[j].Line
		}
		return errs[i].Col < errs[j].Col
	})
	return errs
}

var mismatchRE = regexp.MustCompile(`of (?:[a-z]+ )?type (.+)\) as (.+) value`)

// sameTypeMismatch reports a "cannot use x (... of type T) as T value"
// error between two types printed alike.
func sameTypeMismatch(msg string) bool {
	m := mismatchRE.FindStringSubmatch(msg)
	return m != nil && m[1] == m[2]
}

// unhelpful are the parts of yaegi v0.16.1 compile-error messages that
// tell little about the actual mistake.
var unhelpful = []string{
	"definition loop",        // "constant definition loop" for an undefined name, a generic call at top level...
	"nil type",               // a construct yaegi could not type
	"CFG post-order panic",   // an internal error of yaegi's compiler
	"invalid memory address", // an internal nil pointer dereference while compiling
	"not a generic type",     // generic call results
	"undefined selector",     // a field or method missing, without the type
	"as type struct {",       // yaegi prints struct types without their name
	"as type *struct {",      // (and pointers to them)
	"cannot use type",        // mismatches in yaegi's terms
	"reflect",                // an internal reflect panic (reflect.Set, reflect: Call...)
}

// Unhelpful reports whether a yaegi error message (without its position)
// is one of those that tell little about the mistake, so that the kernel
// should call Diagnose and show go/types' errors with (or instead of) it.
// Any compile error may do so: Diagnose is cheap (about a millisecond) and
// reports nothing when go/types agrees with the cell.
func Unhelpful(msg string) bool {
	for _, s := range unhelpful {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
