package cell

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Prelude declares, in the interpreter, what yaegi v0.16.1 lacks of the
// builtins: min and max as generic functions, and the two functions that
// calls of clear are rewritten to (clear cannot be one generic function for
// slices and maps). The kernel must evaluate it once, before any cell, with
// GoPanicFunc.
//
// Calls of min and max keep their name; Prepare writes the type argument in
// (go/types knows the builtin's result type): min(x, 2.5) becomes
// min[float64](x, 2.5), because yaegi infers T from the first argument
// only. A call whose arguments are all constant is a constant: it is
// replaced by the chosen argument, with the builtin's constant kind or type
// (max(1, 2) becomes ((2)), max(3, 2.5) becomes ((3) + 0.0), and in
// "var f float32 = max(1, 2.5)" it becomes float32((2.5))), so that it
// still works in constant declarations. clear(s) becomes
// __ngClearSlice[E](s) for a slice of E and clear(m) becomes
// __ngClearMap[K, V](m) for a map. Its type parameters have reserved names:
// yaegi v0.16.1 confuses a type parameter with a global type of the same
// name (a cell's "type K int" would break a method declared on K). Unlike
// the builtins, the prelude's min
// and max do not order -0.0 before 0.0, and __ngClearMap cannot delete NaN
// keys.
const Prelude = `func min[__ngMinMaxT interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}](x __ngMinMaxT, y ...__ngMinMaxT) __ngMinMaxT {
	m := x
	if m != m {
		return m
	}
	for _, v := range y {
		if v != v {
			return v
		}
		if v < m {
			m = v
		}
	}
	return m
}

func max[__ngMinMaxT interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}](x __ngMinMaxT, y ...__ngMinMaxT) __ngMinMaxT {
	m := x
	if m != m {
		return m
	}
	for _, v := range y {
		if v != v {
			return v
		}
		if v > m {
			m = v
		}
	}
	return m
}

func __ngClearSlice[__ngClearE any](s []__ngClearE) {
	var zero __ngClearE
	for i := range s {
		s[i] = zero
	}
}

func __ngClearMap[__ngClearK comparable, __ngClearV any](m map[__ngClearK]__ngClearV) {
	for k := range m {
		delete(m, k)
	}
}
`

// preludeBuiltins are the builtins that calls are rewritten for.
var preludeBuiltins = map[string]bool{"min": true, "max": true, "clear": true}

// builtinCall returns the name of the builtin (min, max or clear) that call
// calls, or "".
func (r *rewriter) builtinCall(call *ast.CallExpr) string {
	if r.info == nil {
		return ""
	}
	id, ok := call.Fun.(*ast.Ident)
	if !ok || !preludeBuiltins[id.Name] {
		return ""
	}
	if _, ok := r.info.Uses[id].(*types.Builtin); !ok {
		return ""
	}
	return id.Name
}

// rewriteBuiltin rewrites a call of min, max or clear for the prelude's
// functions (see Prelude). It runs after the call's arguments are walked.
func (r *rewriter) rewriteBuiltin(call *ast.CallExpr) {
	name := r.builtinCall(call)
	if name == "" || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return
	}
	id := call.Fun.(*ast.Ident)
	pc := r.pc
	switch name {
	case "min", "max":
		tv, ok := r.info.Types[call]
		if !ok || tv.Type == nil {
			return
		}
		if tv.Value != nil {
			r.foldMinMax(call, tv)
			return
		}
		ts, ok := r.typeString(tv.Type, call.Pos())
		if !ok {
			return
		}
		if e := pc.off(id.End()); e >= 0 {
			r.ed.insert(e, "["+ts+"]")
			r.count++
		}
	case "clear":
		if len(call.Args) != 1 {
			return
		}
		tv, ok := r.info.Types[call.Args[0]]
		if !ok || tv.Type == nil {
			return
		}
		var fn string
		switch u := tv.Type.Underlying().(type) {
		case *types.Slice:
			ts, ok := r.typeString(u.Elem(), call.Pos())
			if !ok {
				return
			}
			fn = "__ngClearSlice[" + ts + "]"
		case *types.Map:
			ks, ok1 := r.typeString(u.Key(), call.Pos())
			vs, ok2 := r.typeString(u.Elem(), call.Pos())
			if !ok1 || !ok2 {
				return
			}
			fn = "__ngClearMap[" + ks + ", " + vs + "]"
		default:
			return
		}
		s, e := pc.off(id.Pos()), pc.off(id.End())
		if s >= 0 && e >= s {
			r.ed.replace(s, e, fn)
			r.count++
		}
	}
}

// foldMinMax replaces a constant call of min or max by the argument it
// chooses, keeping the constant's kind (untyped) or type.
func (r *rewriter) foldMinMax(call *ast.CallExpr, tv types.TypeAndValue) {
	pc := r.pc
	var chosen ast.Expr
	for _, a := range call.Args {
		if atv, ok := r.info.Types[a]; ok && atv.Value != nil && constant.Compare(atv.Value, token.EQL, tv.Value) {
			chosen = a
			break
		}
	}
	cs, ce := pc.off(call.Pos()), pc.off(call.End())
	if chosen == nil || cs < 0 || ce < cs {
		return
	}
	as, ae := pc.off(chosen.Pos()), pc.off(chosen.End())
	if as < 0 || ae < as {
		return
	}
	conv := ""
	suffix := ""
	if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		// Adding a zero of the result's kind gives the chosen argument
		// that kind (go/types records the arguments with the result's).
		switch b.Kind() {
		case types.UntypedFloat:
			suffix = " + 0.0"
		case types.UntypedComplex:
			suffix = " + 0i"
		case types.UntypedRune:
			suffix = " + '\\x00'"
		}
	} else {
		ts, ok := r.typeString(tv.Type, call.Pos())
		if !ok {
			return
		}
		conv = ts
	}
	text := r.ed.take(as, ae)
	r.ed.take(cs, ce) // drops the edits inside the call
	r.ed.replace(cs, ce, conv+"(("+text+")"+suffix+")")
	r.count++
}
