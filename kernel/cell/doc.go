// Package cell is neurogo's notebook-cell front-end: it turns the source of
// a Jupyter cell into pieces that the yaegi interpreter (v0.16.1) can
// evaluate, rewriting the constructs yaegi cannot run, and maps yaegi's
// positions back to the cell.
//
// # Why
//
// yaegi's Eval takes either a file of declarations or a list of statements
// (which it wraps in "func main() {...}"), so a cell mixing them, such as
//
//	var z []int; z = append(z, 1)
//	func f() int { return len(z) }
//	f()
//
// does not parse. Prepare splits a cell at top level into Segments of
// imports, declarations (func, method, type, var, const; a top-level
// func literal call is a statement) and statements. All imports are hoisted
// into one first segment; the other segments keep source order. Each
// top-level statement gets its own segment (unless the group has a
// top-level defer or goto), because yaegi positions a run-time panic at the
// first statement of the running function: the failing segment then tells
// the statement.
//
// # Use
//
//	front := cell.New(importer.Default()) // or nil: no imported packages' types
//	// ... declare cell.GoPanicFunc in the interpreter once:
//	//     func __neurogoGoPanic(r any) { /* report r */ }
//	prog, err := front.Prepare(src)
//	if err != nil {
//		return err // a *cell.Error: syntax error or unsupported construct, at the cell's line:col
//	}
//	var v reflect.Value
//	for _, seg := range prog.Segments {
//		if v, err = i.Eval(seg.Src); err != nil {
//			// "5:12: msg" from yaegi: cell.MapPos(seg, 5, 12) is the cell's line:col;
//			// for a run-time panic, seg.Line is the failing statement's line.
//			break
//		}
//	}
//	front.Commit(prog) // after success (also fine after a partial run)
//	if err == nil && prog.Result && v.IsValid() {
//		// display v: the value of the cell's last expression
//	}
//
// # Positions
//
// Every Segment.Src starts with LineOffset (1) newline, then is padded with
// newlines and spaces so that its text sits at the cell's own line and
// column. yaegi's line minus LineOffset is therefore the cell line, and the
// column is the cell column, whatever wrapper yaegi prepends on its line 1.
// Rewrites splice text in place and keep every line on its line; MapPos
// also maps columns on rewritten lines exactly (text a rewrite inserted maps
// to the start of the rewritten construct). Prepare's own errors (*Error)
// are already in cell coordinates.
//
// # Rewrites
//
//   - Range over an int (yaegi panics "nil type"):
//     "for i := range n {" becomes
//     "for __ngI1, __ngN1 := T(0), n; __ngI1 < __ngN1; __ngI1++ { i := __ngI1; _ = i; {"
//     (and the closing "}" becomes "} }")
//     where T is the type of n (int for an untyped constant; the variable's
//     type for "for i = range 10"). n is evaluated once and each iteration
//     has its own i. In a cell's top-level code the loop variable is the
//     counter itself ("for i, __ngN1 := T(0), n; i < __ngN1; i++ {"),
//     because yaegi mishandles a block variable that shadows a global there.
//   - Range over a function (iter.Seq, iter.Seq2, func(yield func(T) bool)):
//     the loop becomes a call of the function with a yield closure,
//     "{ seq(func(x T) bool { { body }; return true }); }"; in the body continue
//     becomes "return true", break "return false", and return, labelled
//     break and continue of outer loops set a flag, leave the closure and
//     act after the call. goto or defer in the body give an *Error naming
//     the construct.
//   - Calls of generic functions whose type arguments go/types inferred get
//     them written in ("Map(xs, f)" becomes "Map[int, string](xs, f)"), as
//     yaegi's inference fails on many calls Go accepts. Calls whose type
//     arguments cannot be written in the cell (unexported or unimported
//     types) are left alone.
//   - Every go statement becomes a block that evaluates the function value
//     (for a method call, the receiver) and the arguments at the go
//     statement, in order, and starts a goroutine that recovers its panic
//     and calls GoPanicFunc (__neurogoGoPanic) with it: a goroutine's panic
//     would otherwise kill the kernel process.
//   - Imports the Front already committed are left out (yaegi fails on a
//     second import of a package), and a "package" clause is dropped.
//
// Names starting with __ng are reserved for the rewrites.
//
// # Types
//
// The range and generic rewrites need types. The Front keeps the imports
// and declarations of committed cells (Commit), as source: a later
// declaration of a name replaces the earlier one, as re-running cells does
// in yaegi. Prepare first guesses cheaply from the syntax, the committed
// declarations and the importer's package data whether a range is over an
// int, a func or neither (literals, len/cap, constant expressions, composite
// literals, variables and functions whose declared type says it, package
// functions); only when some construct stays ambiguous (a range over an
// unknown expression, a use of a generic function, a go statement with
// non-literal arguments or a method call) does it run go/types on the cell
// in the context of the committed declarations (functions without their
// bodies). Type errors and import failures are tolerated: code whose type is
// unknown is left unchanged. Program.TypeChecked tells which path was taken.
//
// Cost, measured on a 2-core Xeon with a 30-line cell: about 0.15-0.2 ms
// without type-check; about 0.6 ms with a type-check in a small context and
// about 2 ms with 600 lines of committed declarations. The first use of a
// package costs what the importer costs (tens of milliseconds for
// go/importer's "gc" importer, which runs "go list"); results are cached.
//
// # Result
//
// Program.Result reports that the cell ends with an expression statement
// whose value is the cell's result: the value yaegi returns for the last
// segment. It is false for assignments, declarations and calls known to
// have no result.
//
// # Completeness
//
// IsComplete answers Jupyter's is_complete_request: "complete",
// "incomplete" (open brackets, raw string or comment, or code stopping in
// the middle of a statement; with a suggested indentation) or "invalid".
//
// # Limitations
//
//   - yaegi v0.16.1 has no iter package and its maps/slices are Go 1.22's:
//     ranges over iter.Seq values and maps.All are rewritten, but yaegi
//     cannot import iter or find maps.All. User-defined iterator types work.
//   - yaegi confuses a variable declared in a nested block of a cell's
//     top-level code with a global of the same name and another type from an
//     earlier cell (reflect.Set panics); plain Go loops hit this too. Inside
//     functions all is well. Hidden names are unique per Front to avoid it.
//   - yaegi prints run-time panic positions as the first statement of each
//     running function; inside functions, the line of the panicking
//     statement is not known.
//   - Redeclaring a struct type with different fields fails in yaegi.
//   - Range-over-func rewrites need the loop's types to be writable in the
//     cell (else an *Error); defer and goto in the loop body are rejected.
//   - A cell's declarations that use globals defined by the same cell's
//     statements are type-checked without them (those rewrites may be
//     skipped), and the context is kept as source, so a global whose type
//     cannot be written is re-typed from its initializer.
//   - Per-statement segments mean a top-level label is only visible in its
//     statement (a group with goto is kept whole).
package cell
