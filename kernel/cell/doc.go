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
//	// ... once per interpreter, after bindings.Use: declare cell.GoPanicFunc,
//	//     func __neurogoGoPanic(r any) { /* report r */ }
//	// and evaluate cell.Prelude (min, max and what clear is rewritten to).
//	prog, err := front.Prepare(src)
//	if err != nil {
//		return err // a *cell.Error: syntax error or unsupported construct, at the cell's line:col
//	}
//	var v reflect.Value
//	for _, seg := range prog.Segments {
//		if v, err = i.Eval(seg.Src); err != nil {
//			// "5:12: msg" from yaegi: cell.MapPos(seg, 5, 12) is the cell's line:col;
//			// for a run-time panic, seg.Line is the failing statement's line.
//			// For a compile error, front.Diagnose(src) gives go/types' errors
//			// (cell.Unhelpful(msg) tells yaegi's messages that need them).
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
//     types) are left alone. The packages whose generic functions the
//     interpreter runs as source (cmp, iter, maps, slices: see
//     bindings.GenericSources) are type-checked from that source, so the
//     arguments fit the interpreter's signatures: "slices.Sort(s)" becomes
//     "slices.Sort[int](s)" (the interpreter's Sort[E cmp.Ordered](x []E)),
//     not "slices.Sort[[]int, int](s)".
//   - A top-level definition whose value calls a generic function (or min
//     or max), "b := slices.Clone(a)" or "var b = slices.Clone(a)", fails in
//     yaegi ("constant definition loop"); it becomes
//     "var b []int; b = slices.Clone[int](a)" (a var declaration so
//     rewritten is evaluated as a statement segment). Several values are
//     assigned one by one, through fresh __ngD variables when a value uses
//     an earlier name; a value may use a name being defined only if that
//     name already is a variable of the same type (else the definition is
//     left alone). A top-level range over an int whose bound calls a
//     generic function assigns the bound first:
//     "var __ngN1 int; __ngN1 = slices.Max[int](a); for i := int(0); i < __ngN1; i++ {".
//   - A top-level definition of several variables from one call,
//     "n, err := strconv.Atoi(s)" or "var n, err = strconv.Atoi(s)", gets
//     yaegi a global that functions called from other functions or
//     closures see as a zero Value ("reflect: Call using zero Value
//     argument"); it becomes "var n int; var err error; n, err =
//     strconv.Atoi(s)" when the types can be written in the cell (such a
//     cell is type-checked). A blank name is assigned, not declared. So do
//     comma-ok definitions ("v, ok := m[k]", x.(T), <-ch), on which yaegi
//     panics ("nil type") in that case.
//   - A top-level var declaration whose value uses a global variable of
//     an earlier cell or of the cell's statements fails in yaegi
//     ("variable definition loop"); "var x = f(g)" becomes "x := f(g)" and
//     "var x T = f(g)" becomes "var x T; x = f(g)", evaluated as
//     statements (in a group, the other specs get their own "var"). Not
//     when a spec has several names or a blank name, when the value uses a
//     name the cell declares after it, or when an earlier declaration of
//     the cell uses the variable.
//   - A builtin call (len, cap, append, make, copy...) that is a result of
//     a return statement after the first, "return xs, len(xs)", is
//     parenthesized, "return xs, (len(xs))": yaegi stores its value in the
//     first result's slot ("reflect: call of reflect.Value.SetInt on slice
//     Value", or a wrong first result when the types agree).
//   - min, max and clear, which yaegi lacks, are declared by Prelude;
//     calls of the builtins are rewritten for it: the type argument is
//     written in ("min(x, 2.5)" becomes "min[float64](x, 2.5)", since yaegi
//     infers it from the first argument only), a constant call becomes its
//     chosen argument with the builtin's kind or type ("max(1, 2.5)"
//     becomes "((2.5) + 0.0)"), and "clear(s)" becomes
//     "__ngClearSlice[E](s)" or "__ngClearMap[K, V](m)". A cell's own min,
//     max or clear is left alone.
//   - A type declaration that changes the definition of a type of an
//     earlier cell ("type T struct{ A, B int }" after
//     "type T struct{ A int }") declares the new type under an internal
//     name and makes T an alias of it:
//     "type T__ng3 struct{ A, B int }; type T = T__ng3" (yaegi would keep
//     the first definition, but does replace a type by an alias). Later
//     cells say T and get the new type; functions, variables and values of
//     earlier cells keep the old one, and so do its methods. References to
//     the new type in the cell's own declarations are renamed (yaegi
//     resolves them before the alias), as are types of the cell that refer
//     to it, which are redeclared too. The Front remembers the definition
//     it last gave each type name, so re-running an unchanged cell keeps the
//     type, and a cell that failed after declaring a type does not confuse
//     the next one. Error messages of yaegi may show the internal name
//     (T__ng3); %T shows yaegi's usual unnamed struct type. Generic types
//     and aliases are redeclared as they are (yaegi replaces those).
//   - Every go statement becomes a block that evaluates the function value
//     (for a method call, the receiver) and the arguments at the go
//     statement, in order, and starts a goroutine that recovers its panic
//     and calls GoPanicFunc (__neurogoGoPanic) with it: a goroutine's panic
//     would otherwise kill the kernel process.
//   - Imports the Front already committed are left out (yaegi fails on a
//     second import of a package), and a "package" clause is dropped.
//
// Names starting with __ng, and type names containing __ng, are reserved
// for the rewrites and the prelude.
//
// # Types
//
// The range and generic rewrites need types. The Front keeps the imports
// and declarations of committed cells (Commit), as source: a later
// declaration of a name replaces the earlier one, as re-running cells does
// in yaegi. A type that a new definition replaces stays in the context, for
// the values of earlier cells, under its internal name, or, for a first
// definition, under a name only the context knows (T__ngctx5), which the
// rewrites never write. Prepare first guesses cheaply from the syntax, the committed
// declarations and the importer's package data whether a range is over an
// int, a func or neither (literals, len/cap, constant expressions, composite
// literals, variables and functions whose declared type says it, package
// functions); only when some construct stays ambiguous (a range over an
// unknown expression, a use of a generic function, a go statement with
// non-literal arguments or a method call) does it run go/types on the cell
// in the context of the committed declarations (functions without their
// bodies), a second time if the cell's declarations use globals that its
// statements define. Type errors and import failures are tolerated: code
// whose type is unknown is left unchanged. Program.TypeChecked tells which
// path was taken. Calls of min, max and clear, top-level definitions of
// several variables from one call, and cells that redeclare a type with
// references to it in other declarations are type-checked too.
//
// Diagnose type-checks a cell the same way and returns go/types' errors at
// the cell's line:col, leaving out what yaegi accepts and go/types does not
// (unused variables and imports, a top-level := that redefines, the cell's
// result expression...), for the kernel to show when yaegi's message is
// unhelpful ("constant definition loop" for an undefined name).
//
// Cost, measured on a 2-core Xeon with a 30-line cell: about 0.15-0.2 ms
// without type-check; about 0.5 ms with a type-check in a small context and
// about 1.5-2 ms with 600 lines of committed declarations. The first use of
// a package costs what the importer costs (tens of milliseconds for
// go/importer's "gc" importer, which runs "go list"); results are cached.
// The interpreted generic packages are type-checked once per process
// (about 2 ms).
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
//   - The interpreted generic packages differ from the standard library
//     (see bindings): their functions take []E and map[K]V, iter.Pull is
//     missing, cmp.Or needs an argument. Cells are checked against them, so
//     a call the interpreter cannot make is left for it to report. An
//     iter.Seq of compiled code (strings.SplitSeq) and one of the
//     interpreted iter package are distinct types to go/types (Diagnose
//     leaves such mismatches out).
//   - yaegi confuses a variable declared in a nested block of a cell's
//     top-level code with a global of the same name and another type from an
//     earlier cell (reflect.Set panics); plain Go loops hit this too. Inside
//     functions all is well. Hidden names are unique per Front to avoid it.
//   - yaegi prints run-time panic positions as the first statement of each
//     running function; inside functions, the line of the panicking
//     statement is not known.
//   - Redeclared types: an embedded field of a replaced type refers to the
//     new type in the context (its name must stay); the first definition
//     of a replaced type cannot be named in the interpreter any more, so a
//     generic call on its values gets no type arguments (and a top-level
//     := of it is not rewritten); a local type named like a global type is
//     mishandled by yaegi itself. "if x := f(); ..." and "switch" with a
//     generic call in the init statement at top level, a labelled
//     top-level range over a generic call's result, and a definition whose
//     value uses the name it redefines with another type still fail in
//     yaegi.
//   - Range-over-func rewrites need the loop's types to be writable in the
//     cell (else an *Error); defer and goto in the loop body are rejected.
//   - The context is kept as source, so a global whose type cannot be
//     written is re-typed from its initializer.
//   - A top-level var declaration using a global of an earlier cell is
//     still a "variable definition loop" when it cannot be rewritten (see
//     Rewrites), e.g. when a function declared before it in the cell uses
//     it. A top-level tuple definition whose types cannot be written is
//     left alone (and its globals still misbehave in nested calls).
//   - Per-statement segments mean a top-level label is only visible in its
//     statement (a group with goto is kept whole).
package cell
