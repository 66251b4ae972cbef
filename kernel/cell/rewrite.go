package cell

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// rewriter computes the edits that make a cell evaluable by yaegi.
type rewriter struct {
	f    *Front
	pc   *parsedCell
	info *types.Info    // nil when the cell was not type-checked
	pkg  *types.Package // the checked package, with info
	ed   *editor

	pkgNames map[string]string // import path -> name to qualify it with ("" for dot imports)
	declared map[string]bool   // package-level names of the context and the cell
	gotoLbls map[string]bool   // labels used by goto statements in the cell

	// For guessing types without a type-check (see guess.go).
	defs        map[string]guess  // top-level vars and := globals of the cell
	funcs       map[string]guess  // results of the cell's functions
	shadowed    map[string]bool   // names declared in nested top-level blocks
	importPaths map[string]string // local import name -> path
	err         *Error            // first unsupported construct
	count       int               // rewrites done

	typeDecls    []*typeDecl              // the cell's type declarations (see retype.go)
	renamedTypes map[string]string        // the cell's types declared under an internal name
	asStmts      map[int]bool             // starts of var declarations evaluated as statements
	defined      map[*ast.AssignStmt]bool // top-level definitions rewritten by rewriteDefines
	labelled     map[*ast.RangeStmt]bool
}

// next returns a number for fresh names. It is unique across the Front's
// cells: yaegi v0.16.1 confuses a variable declared in top-level code with
// a global of the same name but another type from an earlier Eval.
func (r *rewriter) next() int { r.f.seq++; return r.f.seq }

func (r *rewriter) fail(p token.Pos, format string, args ...any) {
	if r.err == nil {
		r.err = r.pc.errAt(p, fmt.Sprintf(format, args...))
	}
}

// fnCtx is the function being walked (nil signature: the cell's top level).
type fnCtx struct {
	top     bool // the cell's top level, outside any function
	sig     *types.Signature
	known   bool // sig is known (or this is the cell's top level)
	targets []*target
	rf      *rfLoop // innermost range-over-func loop being rewritten
}

// target is a statement that break or continue may refer to.
type target struct {
	stmt  ast.Stmt
	label string
	loop  bool
	rf    *rfLoop // innermost range-over-func loop whose body holds stmt
	self  *rfLoop // the loop itself when stmt is a rewritten range-over-func
}

// rfLoop is a range-over-func loop being rewritten into a call.
type rfLoop struct {
	id       int
	stmt     *ast.RangeStmt
	parent   *rfLoop
	fn       *fnCtx
	ret1     bool // a bare return was seen
	ret2     bool // a return with values was seen
	ctl      []string
	resTypes []string
}

const (
	rangeNone = iota
	rangeInt
	rangeFunc
)

// walk rewrites the nodes of the cell.
func (r *rewriter) walk() {
	top := &fnCtx{top: true, known: true}
	for _, d := range r.pc.decls {
		r.walkNode(d, top)
	}
	for _, s := range r.pc.body {
		r.walkNode(s, top)
	}
}

func (r *rewriter) walkNode(root ast.Node, top *fnCtx) {
	var stack []ast.Node
	fns := []*fnCtx{top}
	var targets []*target // parallel bookkeeping for pops
	var rfs []*rfLoop
	kinds := map[*ast.RangeStmt]int{}
	intTypes := map[*ast.RangeStmt]string{}
	ast.Inspect(root, func(n ast.Node) bool {
		fn := fns[len(fns)-1]
		if n == nil {
			n = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch n := n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				fns = fns[:len(fns)-1]
			case *ast.ForStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				fn.targets = fn.targets[:len(fn.targets)-1]
				targets = targets[:len(targets)-1]
			case *ast.RangeStmt:
				fn.targets = fn.targets[:len(fn.targets)-1]
				targets = targets[:len(targets)-1]
				var parent ast.Node
				if len(stack) > 0 {
					parent = stack[len(stack)-1]
				}
				switch kinds[n] {
				case rangeInt:
					r.rewriteRangeInt(n, fn.top, intTypes[n])
				case rangeFunc:
					rf := rfs[len(rfs)-1]
					rfs = rfs[:len(rfs)-1]
					fn.rf = rf.parent
					r.rewriteRangeFunc(rf, parent)
				}
			case *ast.ReturnStmt:
				r.parenReturnBuiltins(n)
				if fn.rf != nil {
					r.rewriteReturn(fn, n)
				}
			case *ast.GoStmt:
				r.rewriteGo(n)
			case *ast.CallExpr:
				r.rewriteBuiltin(n)
			}
			return true
		}
		var parent, grand ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		if len(stack) > 1 {
			grand = stack[len(stack)-2]
		}
		stack = append(stack, n)
		label := ""
		if ls, ok := parent.(*ast.LabeledStmt); ok {
			label = ls.Label.Name
		}
		switch n := n.(type) {
		case *ast.FuncDecl:
			c := &fnCtx{}
			if r.info != nil {
				if obj, ok := r.info.Defs[n.Name].(*types.Func); ok {
					c.sig, c.known = obj.Type().(*types.Signature)
				}
			}
			fns = append(fns, c)
		case *ast.FuncLit:
			c := &fnCtx{}
			if r.info != nil {
				if tv, ok := r.info.Types[n]; ok {
					c.sig, c.known = tv.Type.(*types.Signature)
				}
			}
			fns = append(fns, c)
		case *ast.ForStmt:
			t := &target{stmt: n, label: label, loop: true, rf: fn.rf}
			fn.targets = append(fn.targets, t)
			targets = append(targets, t)
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			t := &target{stmt: n.(ast.Stmt), label: label, rf: fn.rf}
			fn.targets = append(fn.targets, t)
			targets = append(targets, t)
		case *ast.RangeStmt:
			if label != "" {
				if r.labelled == nil {
					r.labelled = map[*ast.RangeStmt]bool{}
				}
				r.labelled[n] = true
			}
			k, typ := r.rangeKind(n, fn.top)
			kinds[n] = k
			intTypes[n] = typ
			t := &target{stmt: n, label: label, loop: true, rf: fn.rf}
			if k == rangeFunc {
				rf := &rfLoop{id: r.next(), stmt: n, parent: fn.rf, fn: fn}
				t.self = rf
				rfs = append(rfs, rf)
				fn.rf = rf
			}
			fn.targets = append(fn.targets, t)
			targets = append(targets, t)
		case *ast.BranchStmt:
			if fn.rf != nil {
				r.rewriteBranch(fn, n)
			}
		case *ast.DeferStmt:
			if fn.rf != nil {
				r.fail(n.Pos(), "range over func with defer in the loop body is not supported by the neurogo interpreter")
			}
		case *ast.Ident:
			r.explicitTypeArgs(n, parent, grand)
		}
		return true
	})
}

// ---- range over int and func ----

// rangeKind tells what a range statement ranges over, and for an int
// known without type-check its type.
func (r *rewriter) rangeKind(s *ast.RangeStmt, top bool) (int, string) {
	if s.X == nil {
		return rangeNone, ""
	}
	if s.Tok == token.DEFINE {
		for _, v := range []ast.Expr{s.Key, s.Value} {
			if _, ok := v.(*ast.Ident); v != nil && !ok {
				return rangeNone, "" // invalid: left for the interpreter to report
			}
		}
	}
	if r.info != nil {
		if tv, ok := r.info.Types[s.X]; ok && tv.Type != nil {
			switch u := tv.Type.Underlying().(type) {
			case *types.Basic:
				if u.Info()&types.IsInteger != 0 {
					return rangeInt, ""
				}
			case *types.Signature:
				if yieldSig(u) != nil {
					return rangeFunc, ""
				}
			}
			return rangeNone, ""
		}
	}
	if g := r.guess(s.X, top); s.Tok != token.ASSIGN && g.kind == gInt && s.Value == nil {
		return rangeInt, g.typ
	}
	return rangeNone, ""
}

// yieldSig returns the yield function type of an iterator function type
// func(yield func(...) bool), or nil.
func yieldSig(sig *types.Signature) *types.Signature {
	if sig.Params().Len() != 1 || sig.Results().Len() != 0 || sig.Variadic() {
		return nil
	}
	y, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok || y.Results().Len() != 1 || y.Params().Len() > 2 {
		return nil
	}
	if b, ok := y.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil
	}
	return y
}

// syntacticInt reports whether e is certainly an int: an integer literal,
// len or cap of something, or arithmetic on those.
func (r *rewriter) syntacticInt(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.INT
	case *ast.ParenExpr:
		return r.syntacticInt(e.X)
	case *ast.UnaryExpr:
		return (e.Op == token.ADD || e.Op == token.SUB || e.Op == token.XOR) && r.syntacticInt(e.X)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return r.syntacticInt(e.X) && r.syntacticInt(e.Y)
		case token.SHL, token.SHR:
			return r.syntacticInt(e.X)
		}
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") && len(e.Args) == 1 && !r.declared[id.Name] {
			return true
		}
	}
	return false
}

// rewriteRangeInt turns "for i := range n {" into
//
//	for __ngI1, __ngN1 := T(0), n; __ngI1 < __ngN1; __ngI1++ { i := __ngI1; _ = i;
//
// which keeps Go's semantics: n is evaluated once, i has the type of n (T)
// and each iteration has its own i. At the cell's top level it becomes
//
//	for i, __ngN1 := T(0), n; i < __ngN1; i++ {
//
// instead, because yaegi v0.16.1 mishandles a variable declared in a
// top-level block that shadows a global of another type (reflect.Set
// panics); there, as for yaegi's own three-clause loops, closures share i.
func (r *rewriter) rewriteRangeInt(s *ast.RangeStmt, top bool, typ string) {
	pc := r.pc
	if typ == "" {
		typ = "int"
	}
	if r.info != nil {
		if s.Tok == token.ASSIGN && s.Key != nil && !isBlank(s.Key) {
			tv, ok := r.info.Types[s.Key]
			if !ok || tv.Type == nil {
				return
			}
			ts, ok := r.typeString(tv.Type, s.For)
			if !ok {
				return
			}
			typ = ts
		} else if tv, ok := r.info.Types[s.X]; ok && tv.Type != nil {
			t := tv.Type
			if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
				t = types.Default(t)
			}
			ts, ok := r.typeString(t, s.For)
			if !ok {
				r.fail(s.For, "range over int of type %s: the type cannot be written in this cell, so the neurogo interpreter cannot run this loop", tv.Type)
				return
			}
			typ = ts
		}
	} else if s.Tok == token.ASSIGN {
		return
	}
	// A constant bound is converted: its own type may differ from T (the
	// type of an assigned iteration variable, or its default type).
	conv := false
	if r.info != nil {
		if tv, ok := r.info.Types[s.X]; ok && tv.Value != nil {
			conv = true
		}
	}
	lo, lx, xe, lb := pc.off(s.For), pc.off(s.X.Pos()), pc.off(s.X.End()), pc.off(s.Body.Lbrace)
	if lo < 0 || lx < 0 || xe < 0 || lb < 0 {
		return
	}
	id := r.next()
	iv, nv := fmt.Sprintf("__ngI%d", id), fmt.Sprintf("__ngN%d", id)
	prefix, inner := "", false
	if s.Key != nil && !isBlank(s.Key) {
		k, ke := pc.off(s.Key.Pos()), pc.off(s.Key.End())
		key := r.ed.take(k, ke)
		switch {
		case s.Tok == token.DEFINE && top:
			iv = key
		case s.Tok == token.DEFINE:
			// The body gets its own block, where it may redeclare i.
			prefix = fmt.Sprintf(" %s := %s; _ = %s; {", key, iv, key)
			inner = true
		default:
			prefix = fmt.Sprintf(" %s = %s;", key, iv)
		}
	}
	open, closeP := "", ""
	if conv {
		open, closeP = typ+"(", ")"
	}
	if top && r.info != nil && !r.labelled[s] && r.hasGenericCall(s.X) {
		// yaegi v0.16.1 fails on a generic call in a top-level := (see
		// defines.go), so the bound is assigned to a variable first.
		if tv, ok := r.info.Types[s.X]; ok && tv.Type != nil {
			if xts, ok := r.typeString(tv.Type, s.For); ok {
				r.ed.replace(lo, lx, fmt.Sprintf("var %s %s; %s = %s", nv, xts, nv, open))
				r.ed.replace(xe, lb+1, fmt.Sprintf("%s; for %s := %s(0); %s < %s; %s++ {%s", closeP, iv, typ, iv, nv, iv, prefix))
				r.count++
				return
			}
		}
	}
	r.ed.replace(lo, lx, fmt.Sprintf("for %s, %s := %s(0), %s", iv, nv, typ, open))
	r.ed.replace(xe, lb+1, fmt.Sprintf("%s; %s < %s; %s++ {%s", closeP, iv, nv, iv, prefix))
	if inner {
		rb := pc.off(s.Body.Rbrace)
		if rb < 0 {
			return
		}
		r.ed.replace(rb, rb+1, "} }")
	}
	r.count++
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// rewriteRangeFunc turns
//
//	L: for k, v := range seq { body }
//
// into
//
//	{ decls (seq)(func(k K, v V) bool { body; return true }); after }
//
// where break, continue and return in body were rewritten by
// rewriteBranch and rewriteReturn, decls declares the flags they set and
// after acts on them.
func (r *rewriter) rewriteRangeFunc(rf *rfLoop, parent ast.Node) {
	pc, s := r.pc, rf.stmt
	if r.err != nil {
		return
	}
	tv := r.info.Types[s.X]
	y := yieldSig(tv.Type.Underlying().(*types.Signature))
	lo, lx, xe, lb, rb := pc.off(s.For), pc.off(s.X.Pos()), pc.off(s.X.End()), pc.off(s.Body.Lbrace), pc.off(s.Body.Rbrace)
	if lo < 0 || lx < 0 || xe < 0 || lb < 0 || rb < 0 {
		return
	}
	if ls, ok := parent.(*ast.LabeledStmt); ok && ls.Stmt == s {
		if r.gotoLbls[ls.Label.Name] {
			r.fail(ls.Pos(), "range over func with goto is not supported by the neurogo interpreter")
			return
		}
		a, b := pc.off(ls.Label.Pos()), pc.off(ls.Colon)
		if a >= 0 && b >= 0 {
			r.ed.replace(a, b+1, "")
		}
	}
	vars := []ast.Expr{s.Key, s.Value}
	var params []string
	prefix := ""
	for i := 0; i < y.Params().Len(); i++ {
		ts, ok := r.typeString(y.Params().At(i).Type(), s.For)
		if !ok {
			r.fail(s.For, "range over func: the type %s cannot be written in this cell, so the neurogo interpreter cannot run this loop", y.Params().At(i).Type())
			return
		}
		name := "_"
		if v := vars[i]; v != nil && !isBlank(v) {
			if s.Tok == token.DEFINE {
				name = r.ed.take(pc.off(v.Pos()), pc.off(v.End()))
			} else {
				name = fmt.Sprintf("__ngP%d_%d", rf.id, i)
				prefix += fmt.Sprintf(" %s = %s;", r.ed.take(pc.off(v.Pos()), pc.off(v.End())), name)
			}
		}
		params = append(params, name+" "+ts)
	}
	var decls, after strings.Builder
	if rf.ret1 || rf.ret2 {
		fmt.Fprintf(&decls, "__ngRet%d := 0; ", rf.id)
	}
	if rf.ret2 {
		for i, t := range rf.resTypes {
			fmt.Fprintf(&decls, "var __ngR%d_%d %s; ", rf.id, i, t)
		}
	}
	if len(rf.ctl) > 0 {
		fmt.Fprintf(&decls, "__ngCtl%d := 0; ", rf.id)
	}
	if rf.ret1 {
		fmt.Fprintf(&after, " if __ngRet%d == 1 { %s };", rf.id, r.bareReturnAt(rf.parent))
	}
	if rf.ret2 {
		fmt.Fprintf(&after, " if __ngRet%d == 2 { %s };", rf.id, r.valueReturnAt(rf.parent, rf))
	}
	for i, c := range rf.ctl {
		fmt.Fprintf(&after, " if __ngCtl%d == %d { %s };", rf.id, i+1, c)
	}
	// yaegi v0.16.1 cannot call a parenthesized func name, so parenthesize
	// only what is not a primary expression.
	open, closeP := "(", ")"
	switch s.X.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.FuncLit, *ast.TypeAssertExpr:
		open, closeP = "", ""
	}
	r.ed.replace(lo, lx, "{ "+decls.String()+open)
	// The body gets its own block: the parameters are in the function's
	// outermost block, where the body may redeclare them.
	r.ed.replace(xe, lb+1, fmt.Sprintf("%s(func(%s) bool {%s {", closeP, strings.Join(params, ", "), prefix))
	r.ed.replace(rb, rb+1, "}; return true });"+after.String()+" }")
	r.count++
}

// rewriteBranch rewrites break and continue inside a range-over-func body.
func (r *rewriter) rewriteBranch(fn *fnCtx, b *ast.BranchStmt) {
	switch b.Tok {
	case token.GOTO:
		r.fail(b.Pos(), "range over func with goto is not supported by the neurogo interpreter")
		return
	case token.BREAK, token.CONTINUE:
	default:
		return
	}
	var t *target
	for i := len(fn.targets) - 1; i >= 0; i-- {
		c := fn.targets[i]
		if b.Label != nil {
			if c.label == b.Label.Name {
				t = c
				break
			}
			continue
		}
		if b.Tok == token.BREAK || c.loop {
			t = c
			break
		}
	}
	if t == nil {
		return
	}
	if t.rf == fn.rf && t.self == nil {
		return // the target is inside the loop body: nothing changes
	}
	code := r.branchAt(fn.rf, t, b.Tok)
	s, e := r.pc.off(b.Pos()), r.pc.off(b.End())
	if s < 0 || e < 0 {
		return
	}
	r.ed.replace(s, e, "{ "+code+" }")
	r.count++
}

// branchAt returns code that, placed in the body of the rewritten loop rf
// (nil: in plain code), branches (tok) to target t.
func (r *rewriter) branchAt(rf *rfLoop, t *target, tok token.Token) string {
	if rf == nil || t.rf == rf && t.self == nil {
		if t.label != "" {
			return tok.String() + " " + t.label
		}
		return tok.String()
	}
	if t.self == rf {
		if tok == token.CONTINUE {
			return "return true"
		}
		return "return false"
	}
	// The target is outside rf: leave the yield function and branch after
	// the call.
	rf.ctl = append(rf.ctl, r.branchAt(rf.parent, t, tok))
	return fmt.Sprintf("__ngCtl%d = %d; return false", rf.id, len(rf.ctl))
}

// resultTypes fills rf.resTypes, the result types of the enclosing function.
func (r *rewriter) resultTypes(rf *rfLoop) bool {
	if rf.resTypes != nil {
		return true
	}
	sig := rf.fn.sig
	if sig == nil {
		return false
	}
	rf.resTypes = []string{}
	for i := 0; i < sig.Results().Len(); i++ {
		ts, ok := r.typeString(sig.Results().At(i).Type(), rf.stmt.For)
		if !ok {
			r.fail(rf.stmt.For, "range over func: the result type %s cannot be written in this cell, so the neurogo interpreter cannot run this loop", sig.Results().At(i).Type())
			return false
		}
		rf.resTypes = append(rf.resTypes, ts)
	}
	return true
}

// parenReturnBuiltins parenthesizes the calls of builtin functions (len,
// cap, append, make, copy...) that are results of a return statement
// after its first: "return xs, len(xs)" becomes "return xs, (len(xs))".
// yaegi v0.16.1 stores such a call's value directly in the frame slot of
// the first result ("reflect: call of reflect.Value.SetInt on slice
// Value", or a wrong first result when the types agree); a parenthesized
// call gets a slot of its own.
func (r *rewriter) parenReturnBuiltins(ret *ast.ReturnStmt) {
	if len(ret.Results) < 2 {
		return
	}
	pc := r.pc
	for _, e := range ret.Results[1:] {
		call, ok := e.(*ast.CallExpr)
		if !ok || !r.isBuiltin(call.Fun) {
			continue
		}
		s, end := pc.off(call.Pos()), pc.off(call.End())
		if s < 0 || end < s {
			continue
		}
		r.ed.insert(s, "(")
		r.ed.insert(end, ")")
		r.count++
	}
}

// rewriteReturn rewrites a return statement inside a range-over-func body.
func (r *rewriter) rewriteReturn(fn *fnCtx, ret *ast.ReturnStmt) {
	rf := fn.rf
	pc := r.pc
	if !fn.known {
		r.fail(ret.Pos(), "range over func: return in a function of unknown type is not supported by the neurogo interpreter")
		return
	}
	s, e := pc.off(ret.Pos()), pc.off(ret.End())
	if s < 0 || e < 0 {
		return
	}
	if len(ret.Results) == 0 {
		rf.ret1 = true
		r.ed.replace(s, e, fmt.Sprintf("{ __ngRet%d = 1; return false }", rf.id))
		r.count++
		return
	}
	if !r.resultTypes(rf) {
		return
	}
	n := len(rf.resTypes)
	tuple := len(ret.Results) == 1 && n > 1
	if !tuple && len(ret.Results) != n {
		return // invalid return: leave it to the interpreter to report
	}
	rf.ret2 = true
	r.count++
	last := ret.Results[len(ret.Results)-1]
	le := pc.off(last.End())
	if tuple {
		var names []string
		for i := 0; i < n; i++ {
			names = append(names, fmt.Sprintf("__ngR%d_%d", rf.id, i))
		}
		r.ed.replace(s, pc.off(ret.Results[0].Pos()), "{ "+strings.Join(names, ", ")+" = ")
	} else {
		// Separate assignments: yaegi v0.16.1 fails on "a, b = x, nil".
		r.ed.replace(s, pc.off(ret.Results[0].Pos()), fmt.Sprintf("{ __ngR%d_0 = ", rf.id))
		for i := 1; i < n; i++ {
			r.ed.replace(pc.off(ret.Results[i-1].End()), pc.off(ret.Results[i].Pos()), fmt.Sprintf("; __ngR%d_%d = ", rf.id, i))
		}
	}
	r.ed.insert(le, fmt.Sprintf("; __ngRet%d = 2; return false }", rf.id))
}

// bareReturnAt returns code for a bare return placed after the call of a
// rewritten loop whose enclosing rewritten loop is p (nil: none).
func (r *rewriter) bareReturnAt(p *rfLoop) string {
	if p == nil {
		return "return"
	}
	p.ret1 = true
	return fmt.Sprintf("__ngRet%d = 1; return false", p.id)
}

// valueReturnAt returns code returning the values saved by loop from,
// placed after its call, in the body of p (nil: plain code).
func (r *rewriter) valueReturnAt(p *rfLoop, from *rfLoop) string {
	var vals []string
	for i := range from.resTypes {
		vals = append(vals, fmt.Sprintf("__ngR%d_%d", from.id, i))
	}
	if p == nil {
		return "return " + strings.Join(vals, ", ")
	}
	p.ret2 = true
	p.resTypes = from.resTypes
	var b strings.Builder
	for i, v := range vals {
		fmt.Fprintf(&b, "__ngR%d_%d = %s; ", p.id, i, v)
	}
	fmt.Fprintf(&b, "__ngRet%d = 2; return false", p.id)
	return b.String()
}

// ---- generic calls ----

// explicitTypeArgs inserts the type arguments that go/types inferred for a
// use of a generic function.
func (r *rewriter) explicitTypeArgs(id *ast.Ident, parent, grand ast.Node) {
	if r.info == nil {
		return
	}
	inst, ok := r.info.Instances[id]
	if !ok || inst.TypeArgs == nil || inst.TypeArgs.Len() == 0 {
		return
	}
	if _, ok := r.info.Uses[id].(*types.Func); !ok {
		return
	}
	var fun ast.Node = id
	if sel, ok := parent.(*ast.SelectorExpr); ok && sel.Sel == id {
		fun, parent = sel, grand
	}
	explicit := 0
	var lbrack, rbrack token.Pos
	switch p := parent.(type) {
	case *ast.IndexExpr:
		if p.X == fun {
			explicit, lbrack, rbrack = 1, p.Lbrack, p.Rbrack
		}
	case *ast.IndexListExpr:
		if p.X == fun {
			explicit, lbrack, rbrack = len(p.Indices), p.Lbrack, p.Rbrack
		}
	}
	if explicit >= inst.TypeArgs.Len() {
		return
	}
	var args []string
	for i := 0; i < inst.TypeArgs.Len(); i++ {
		ts, ok := r.typeString(inst.TypeArgs.At(i), id.Pos())
		if !ok {
			return
		}
		args = append(args, ts)
	}
	list := "[" + strings.Join(args, ", ") + "]"
	if explicit == 0 {
		if e := r.pc.off(id.End()); e >= 0 {
			r.ed.insert(e, list)
			r.count++
		}
		return
	}
	a, b := r.pc.off(lbrack), r.pc.off(rbrack)
	if a >= 0 && b >= 0 {
		r.ed.take(a, b+1)
		r.ed.replace(a, b+1, list)
		r.count++
	}
}

// ---- go statements ----

var builtinNames = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
}

// isBuiltin reports whether fun names a builtin function.
func (r *rewriter) isBuiltin(fun ast.Expr) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	if r.info != nil {
		if obj, ok := r.info.Uses[id]; ok {
			_, b := obj.(*types.Builtin)
			return b
		}
	}
	return builtinNames[id.Name] && !r.declared[id.Name]
}

// isConst reports whether e is a constant (or nil) expression.
func (r *rewriter) isConst(e ast.Expr) bool {
	if r.info != nil {
		if tv, ok := r.info.Types[e]; ok {
			return tv.Value != nil || tv.IsNil()
		}
	}
	return syntacticConst(e)
}

// syntacticConst reports whether e is made only of literals and operators.
func syntacticConst(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return e.Name == "nil" || e.Name == "true" || e.Name == "false"
	case *ast.ParenExpr:
		return syntacticConst(e.X)
	case *ast.UnaryExpr:
		return e.Op != token.AND && e.Op != token.ARROW && syntacticConst(e.X)
	case *ast.BinaryExpr:
		return syntacticConst(e.X) && syntacticConst(e.Y)
	}
	return false
}

// rewriteGo turns "go f(a, b)" into
//
//	{ __ngF1 := f; __ngA1_0 := a; __ngA1_1 := b; go func() { defer func() {
//	if __ngE := recover(); __ngE != nil { __neurogoGoPanic(__ngE) } }();
//	__ngF1(__ngA1_0, __ngA1_1) }() }
//
// so that the goroutine's panic is reported instead of killing the kernel,
// while the function value and the arguments are still evaluated by the go
// statement, in order. Constant arguments are not bound (their type may
// depend on the parameter) but moved into the call. For a method call
// x.M(...) the receiver is bound (copied, or its address taken, as the
// method value would) instead of the method value, which yaegi v0.16.1
// evaluates late. Each binding is its own := because yaegi v0.16.1 loses
// func values bound by a multi-value := once the function returns.
func (r *rewriter) rewriteGo(g *ast.GoStmt) {
	pc := r.pc
	call := g.Call
	if call == nil || call.Fun == nil {
		return
	}
	gs, ge := pc.off(g.Pos()), pc.off(g.End())
	if gs < 0 || ge < 0 {
		return
	}
	id := r.next()
	type part struct {
		e         ast.Expr
		bound     bool
		pre, post string // around e in its binding
		name      string // the bound variable
		ref       string // how the call refers to it
	}
	var parts []*part
	fp := &part{e: call.Fun, bound: !r.isBuiltin(call.Fun), name: fmt.Sprintf("__ngF%d", id)}
	fp.ref = fp.name
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && r.info != nil {
		if recv, pre, post, ok := r.methodRecv(sel); ok {
			fp.e, fp.pre, fp.post = recv, pre, post
			fp.name = fmt.Sprintf("__ngR%d", id)
			fp.ref = fp.name + "." + sel.Sel.Name
		}
	}
	parts = append(parts, fp)
	for i, a := range call.Args {
		p := &part{e: a, bound: true, name: fmt.Sprintf("__ngA%d_%d", id, i)}
		p.ref = p.name
		if !(call.Ellipsis.IsValid() && i == len(call.Args)-1) && r.isConst(a) && !strings.Contains(pc.text(a), "\n") {
			p.bound = false
		}
		parts = append(parts, p)
	}
	var bound []*part
	for _, p := range parts {
		if p.bound {
			bound = append(bound, p)
			continue
		}
		s, e := pc.off(p.e.Pos()), pc.off(p.e.End())
		if s < 0 || e < 0 {
			return
		}
		p.ref = r.ed.take(s, e)
	}
	var args []string
	for _, p := range parts[1:] {
		args = append(args, p.ref)
	}
	callText := fp.ref + "(" + strings.Join(args, ", ")
	if call.Ellipsis.IsValid() {
		callText += "..."
	}
	callText += ")"
	goText := fmt.Sprintf("go func() { defer func() { if __ngE := recover(); __ngE != nil { %s(__ngE) } }(); %s }()", GoPanicFunc, callText)
	r.count++
	if len(bound) == 0 {
		r.ed.replace(gs, ge, "{ "+goText+" }")
		return
	}
	r.ed.replace(gs, pc.off(bound[0].e.Pos()), "{ "+bound[0].name+" := "+bound[0].pre)
	for i := 1; i < len(bound); i++ {
		r.ed.replace(pc.off(bound[i-1].e.End()), pc.off(bound[i].e.Pos()), bound[i-1].post+"; "+bound[i].name+" := "+bound[i].pre)
	}
	last := bound[len(bound)-1]
	r.ed.replace(pc.off(last.e.End()), ge, last.post+"; "+goText+" }")
}

// methodRecv returns, for a method call x.M, the receiver expression to
// bind and what to wrap it in so that the binding has the value the method
// value x.M would capture.
func (r *rewriter) methodRecv(sel *ast.SelectorExpr) (recv ast.Expr, pre, post string, ok bool) {
	s, found := r.info.Selections[sel]
	if !found || s.Kind() != types.MethodVal {
		return nil, "", "", false
	}
	fn, isFn := s.Obj().(*types.Func)
	if !isFn {
		return nil, "", "", false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return nil, "", "", false
	}
	if _, isIface := s.Recv().Underlying().(*types.Interface); isIface {
		return sel.X, "", "", true
	}
	_, recvPtr := sig.Recv().Type().(*types.Pointer)
	_, xPtr := s.Recv().Underlying().(*types.Pointer)
	direct := len(s.Index()) == 1
	switch {
	case recvPtr == xPtr || !direct:
		return sel.X, "", "", true
	case recvPtr:
		return sel.X, "&(", ")", true
	default:
		return sel.X, "*(", ")", true
	}
}

// ---- types as source ----

// typeString returns t as source valid at position pos of the cell (NoPos:
// at package level), or false when t cannot be written there.
func (r *rewriter) typeString(t types.Type, pos token.Pos) (string, bool) {
	if r.pkg == nil || t == nil {
		return "", false
	}
	scope := r.pkg.Scope()
	if pos.IsValid() {
		if s := scope.Innermost(pos); s != nil {
			scope = s
		}
	}
	if !r.writable(t, scope, pos, 0) {
		return "", false
	}
	return types.TypeString(t, func(p *types.Package) string {
		if p == r.pkg {
			return ""
		}
		return r.pkgNames[p.Path()]
	}), true
}

func (r *rewriter) visible(obj types.Object, scope *types.Scope, pos token.Pos) bool {
	if obj == nil {
		return false
	}
	if obj.Pkg() != nil && obj.Pkg() != r.pkg {
		if !obj.Exported() {
			return false
		}
		_, ok := r.pkgNames[obj.Pkg().Path()]
		return ok
	}
	lookupPos := pos
	if !lookupPos.IsValid() {
		lookupPos = token.NoPos
	}
	_, found := scope.LookupParent(obj.Name(), lookupPos)
	return found == obj
}

func (r *rewriter) writable(t types.Type, scope *types.Scope, pos token.Pos, depth int) bool {
	if depth > 20 {
		return false
	}
	w := func(t types.Type) bool { return r.writable(t, scope, pos, depth+1) }
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			_, ok := r.pkgNames["unsafe"]
			return ok
		}
		return t.Kind() != types.Invalid && t.Info()&types.IsUntyped == 0
	case *types.Alias:
		if !r.visible(t.Obj(), scope, pos) {
			return false
		}
		if ta := t.TypeArgs(); ta != nil {
			for i := 0; i < ta.Len(); i++ {
				if !w(ta.At(i)) {
					return false
				}
			}
		}
		return true
	case *types.Named:
		if !r.visible(t.Obj(), scope, pos) {
			return false
		}
		if t.Obj().Pkg() == r.pkg && r.f.hidden[t.Obj().Name()] {
			return false // a replaced type the interpreter cannot name
		}
		if t.TypeParams().Len() > 0 && t.TypeArgs().Len() == 0 {
			return false
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if !w(t.TypeArgs().At(i)) {
				return false
			}
		}
		return true
	case *types.TypeParam:
		return r.visible(t.Obj(), scope, pos)
	case *types.Pointer:
		return w(t.Elem())
	case *types.Slice:
		return w(t.Elem())
	case *types.Array:
		return w(t.Elem())
	case *types.Map:
		return w(t.Key()) && w(t.Elem())
	case *types.Chan:
		return w(t.Elem())
	case *types.Signature:
		if t.TypeParams().Len() > 0 {
			return false
		}
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if !w(tup.At(i).Type()) {
					return false
				}
			}
		}
		return true
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			fl := t.Field(i)
			if !fl.Exported() && fl.Pkg() != r.pkg {
				return false
			}
			if !w(fl.Type()) {
				return false
			}
		}
		return true
	case *types.Interface:
		if t.IsImplicit() {
			return false
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			m := t.ExplicitMethod(i)
			if !m.Exported() && m.Pkg() != r.pkg {
				return false
			}
			if !w(m.Type()) {
				return false
			}
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			if !w(t.EmbeddedType(i)) {
				return false
			}
		}
		return true
	}
	return false
}
