package cell

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Top-level definitions from generic calls.
//
// yaegi v0.16.1 fails on a global defined from a generic call: at a cell's
// top level, "b := slices.Clone(a)" and "var b = slices.Clone(a)" give
// "constant definition loop" (or a nil pointer panic, or a zero value),
// even with explicit type arguments. Declaring the variable first and
// assigning it works, so such definitions become
//
//	var b []int; b = slices.Clone[int](a)
//
// on the same line. A var declaration rewritten so is evaluated as a
// statement segment.

// hasGenericCall reports whether e calls a generic function (or min or
// max, which the prelude declares as generic functions) outside function
// literals.
func (r *rewriter) hasGenericCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if _, ok := r.info.Instances[n]; ok {
				if _, ok := r.info.Uses[n].(*types.Func); ok {
					found = true
				}
			}
		case *ast.CallExpr:
			if b := r.builtinCall(n); b == "min" || b == "max" {
				if tv, ok := r.info.Types[n]; ok && tv.Value == nil {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// hasIndex reports whether e indexes or slices a value outside function
// literals. yaegi v0.16.1 also fails on a global defined from an index
// expression whose operand is a global holding a value from compiled code
// (res := &pkg.Result{…} in one cell, then x := res.Field[0] or p :=
// res.Field; x := p[0]): "constant definition loop", or a nil pointer
// panic for x := res.Field[0] + 0. Declaring the variable first and
// assigning it works, as for generic calls.
func hasIndex(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr, *ast.SliceExpr:
			found = true
		}
		return !found
	})
	return found
}

// defineVars rewrites the definition "ids := values" (or "var ids =
// values") that starts at start into "var a A; var b B; a = x; b = y"
// (or "a, b = f()" for a single multi-value call), declaring the
// identifiers that def reports as new with their types written at pos.
// It reports false, changing nothing, when a type cannot be written.
//
// Separate assignments are used because yaegi v0.16.1 loses values in
// "a, b = f(), 3"; when a value refers to a name assigned before it, the
// values are first assigned to fresh variables (__ngD1_0...). yaegi declares the globals of one Eval before running it, so
// "var b []int; b = slices.Clone(b)" would clone a reset b: a value may
// refer to a name being defined only if that name already is a variable of
// the same type, which is then just assigned; otherwise the definition is
// left alone.
func (r *rewriter) defineVars(ids []*ast.Ident, values []ast.Expr, def func(*ast.Ident) types.Object, start, pos token.Pos, dry bool) bool {
	pc := r.pc
	// The variables the values refer to, by name.
	refs := map[string]types.Object{}
	for _, v := range values {
		ast.Inspect(v, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if obj := r.info.Uses[id]; obj != nil && refs[id.Name] == nil {
					refs[id.Name] = obj
				}
			}
			return true
		})
	}
	var b strings.Builder
	var names []string
	for _, id := range ids {
		names = append(names, id.Name)
		if id.Name == "_" {
			continue
		}
		obj := def(id)
		if obj == nil {
			continue // assigned, not declared
		}
		v, ok := obj.(*types.Var)
		if !ok {
			return false
		}
		if old := refs[id.Name]; old != nil {
			if ov, ok := old.(*types.Var); !ok || !types.Identical(ov.Type(), v.Type()) {
				return false
			}
			continue // the existing variable is assigned
		}
		ts, ok := r.typeString(v.Type(), pos)
		if !ok {
			return false
		}
		b.WriteString("var " + id.Name + " " + ts + "; ")
	}
	separate := len(values) == len(ids) && len(ids) > 1
	temps := false
	if separate {
		// A value that refers to a name assigned before it: yaegi's
		// tuple assignment is not simultaneous either, so all values
		// go through fresh variables first.
		for i, v := range values[1:] {
			before := map[string]bool{}
			for _, n := range names[:i+1] {
				before[n] = n != "_"
			}
			ast.Inspect(v, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && before[id.Name] {
					temps = true
				}
				return !temps
			})
		}
	}
	assigned := names
	var after strings.Builder
	if temps {
		id := r.next()
		assigned = make([]string, len(names))
		for i, n := range names {
			assigned[i] = "_"
			if n == "_" {
				continue
			}
			v, ok := r.info.Types[values[i]]
			if !ok || v.Type == nil {
				return false
			}
			t := v.Type
			if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
				t = types.Default(t)
			}
			ts, ok := r.typeString(t, pos)
			if !ok {
				return false
			}
			assigned[i] = fmt.Sprintf("__ngD%d_%d", id, i)
			b.WriteString("var " + assigned[i] + " " + ts + "; ")
			fmt.Fprintf(&after, "; %s = %s", n, assigned[i])
		}
	}
	s, e := pc.off(start), pc.off(values[0].Pos())
	end := pc.off(values[len(values)-1].End())
	if s < 0 || e < s || end < e {
		return false
	}
	if dry {
		return true
	}
	var gaps [][2]int
	if separate {
		for i := 1; i < len(values); i++ {
			g := [2]int{pc.off(values[i-1].End()), pc.off(values[i].Pos())}
			if g[0] < 0 || g[1] < g[0] {
				return false
			}
			gaps = append(gaps, g)
		}
		b.WriteString(assigned[0] + " = ")
	} else {
		b.WriteString(strings.Join(names, ", ") + " = ")
	}
	r.ed.take(s, e)
	r.ed.replace(s, e, b.String())
	for i, g := range gaps {
		r.ed.take(g[0], g[1])
		r.ed.replace(g[0], g[1], "; "+assigned[i+1]+" = ")
	}
	if after.Len() > 0 {
		r.ed.insert(end, after.String())
	}
	return true
}

// tupleCall reports whether n names are defined from values that are a
// single call (of a function with several results) or a comma-ok
// expression (map index, type assertion, channel receive).
func tupleCall(n int, values []ast.Expr) bool {
	if n < 2 || len(values) != 1 {
		return false
	}
	switch v := ast.Unparen(values[0]).(type) {
	case *ast.CallExpr, *ast.IndexExpr, *ast.TypeAssertExpr:
		return true
	case *ast.UnaryExpr:
		return v.Op == token.ARROW
	}
	return false
}

// rewriteDefines rewrites the cell's top-level definitions whose values
// call generic functions, and those of several variables from one call
// ("n, err := strconv.Atoi(s)"): yaegi v0.16.1 gives such globals a
// storage that functions called from other functions (or closures) do
// not see ("reflect: Call using zero Value argument", "call of
// reflect.Value.Method on zero Value"), while "var n int; var err error;
// n, err = strconv.Atoi(s)" works.
func (r *rewriter) rewriteDefines() {
	if r.info == nil {
		return
	}
	pc := r.pc
	defs := func(id *ast.Ident) types.Object { return r.info.Defs[id] }
	for _, st := range pc.body {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Rhs) == 0 {
			continue
		}
		generic := tupleCall(len(as.Lhs), as.Rhs)
		for _, e := range as.Rhs {
			generic = generic || r.hasGenericCall(e) || hasIndex(e)
		}
		if !generic {
			continue
		}
		var ids []*ast.Ident
		for _, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				ids = nil
				break
			}
			ids = append(ids, id)
		}
		if len(ids) == 0 {
			continue
		}
		if !r.defineVars(ids, as.Rhs, defs, as.Pos(), as.Pos(), false) {
			continue
		}
		if r.defined == nil {
			r.defined = map[*ast.AssignStmt]bool{}
		}
		r.defined[as] = true
		r.count++
	}
	for _, d := range pc.decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR || len(gd.Specs) == 0 || !pc.inCell(gd.Pos()) {
			continue
		}
		generic := false
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			generic = generic || tupleCall(len(vs.Names), vs.Values)
			for _, e := range vs.Values {
				generic = generic || r.hasGenericCall(e) || hasIndex(e)
			}
		}
		if !generic || !r.varDeclAsStmts(gd, true) {
			continue
		}
		r.varDeclAsStmts(gd, false)
		if r.asStmts == nil {
			r.asStmts = map[int]bool{}
		}
		r.asStmts[pc.off(gd.Pos())] = true
		r.count++
	}
}

// varDeclAsStmts rewrites a var declaration whose values call generic
// functions into statements: "var (\n\tp = slices.Max(a)\n\tq = 2\n)"
// becomes "\n\tvar p int; p = slices.Max(a)\n\tvar q = 2\n". With dry, it
// only reports whether it can.
func (r *rewriter) varDeclAsStmts(gd *ast.GenDecl, dry bool) bool {
	pc := r.pc
	defs := func(id *ast.Ident) types.Object { return r.info.Defs[id] }
	grouped := gd.Lparen.IsValid()
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		generic := tupleCall(len(vs.Names), vs.Values)
		for _, e := range vs.Values {
			generic = generic || r.hasGenericCall(e) || hasIndex(e)
		}
		start := vs.Pos()
		if !grouped {
			start = gd.Pos()
		}
		if generic {
			if !r.defineVars(vs.Names, vs.Values, defs, start, token.NoPos, dry) {
				return false
			}
		} else if o := pc.off(vs.Pos()); o < 0 {
			return false
		} else if !dry && grouped {
			r.ed.insert(o, "var ")
		}
	}
	if grouped {
		a, b, c := pc.off(gd.Pos()), pc.off(gd.Lparen), pc.off(gd.Rparen)
		if a < 0 || b < a || c < b {
			return false
		}
		if !dry {
			r.ed.replace(a, b+1, "")
			r.ed.replace(c, c+1, "")
		}
	}
	return true
}

// rewriteBlanks renames the blank identifier on the left of a top-level
// ":=" to a fresh hidden name. yaegi v0.16.1 turns "_" in a top-level
// definition into a typed global, so that a later "_ = v" with a value of
// another type panics ("reflect.Set: value of type error is not assignable
// to type int"). Definitions already rewritten by rewriteDefines are left
// alone.
func (r *rewriter) rewriteBlanks() {
	pc := r.pc
	for _, st := range pc.body {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || !pc.inCell(as.Pos()) {
			continue
		}
		if r.defined[as] {
			continue
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
				r.ed.replace(pc.off(id.Pos()), pc.off(id.End()), fmt.Sprintf("__ngBlank%d", r.next()))
				r.count++
			}
		}
	}
}

// wrapTupleBlocks runs a top-level compound statement (for, if, switch,
// select, block) that defines several variables at once inside it, as in
// "for … { p, err := f() … }", in a closure: "func() { for … }()". yaegi
// v0.16.1 loses such definitions in the cell's top-level code ("undefined:
// err") but handles them inside a function. Statements with defer, goto, a
// labelled branch or a return are left alone (a closure would change their
// meaning).
func (r *rewriter) wrapTupleBlocks() {
	pc := r.pc
	for _, st := range pc.body {
		switch st.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
		default:
			continue
		}
		if !pc.inCell(st.Pos()) {
			continue
		}
		tuple, unsafe := false, false
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				if x.Tok == token.DEFINE && len(x.Lhs) > 1 {
					tuple = true
				}
			case *ast.ValueSpec:
				if len(x.Names) > 1 {
					tuple = true
				}
			case *ast.DeferStmt, *ast.ReturnStmt:
				unsafe = true
			case *ast.BranchStmt:
				if x.Tok == token.GOTO || x.Label != nil {
					unsafe = true
				}
			}
			return true
		})
		if !tuple || unsafe {
			continue
		}
		r.ed.insert(pc.off(st.Pos()), "func() { ")
		r.ed.insert(pc.off(st.End()), " }()")
		r.count++
	}
}

// rewriteVarLoops rewrites a top-level var declaration whose values refer
// to a global variable of an earlier cell (or of the cell's statements)
// into statements: yaegi v0.16.1 fails on such a declaration with
// "variable definition loop", but not on a definition. "var x = f(g)"
// becomes "x := f(g)", "var x T = f(g)" becomes "var x T; x = f(g)", and
// in a group the other specs get their own "var". Declarations with
// several names in a spec, a blank name, values referring to names that
// the cell declares after them, or names that the cell's earlier
// declarations refer to are left alone.
func (r *rewriter) rewriteVarLoops() {
	pc := r.pc
	var gds []*ast.GenDecl
	for _, d := range pc.decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR && len(gd.Specs) > 0 && pc.inCell(gd.Pos()) && !r.asStmts[pc.off(gd.Pos())] {
			gds = append(gds, gd)
		}
	}
	if len(gds) == 0 {
		return
	}
	// The cell's global variables defined outside var declarations.
	cellVars := map[string]bool{}
	for _, st := range pc.body {
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					cellVars[id.Name] = true
				}
			}
		}
	}
	// and var declarations evaluated as statements (by rewriteDefines,
	// or below): later declarations referring to them fail in yaegi too.
	for _, d := range pc.decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR && r.asStmts[pc.off(gd.Pos())] {
			for _, k := range declKeys(gd) {
				cellVars[k] = true
			}
		}
	}
	mentions := func(n ast.Node, names map[string]bool) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && names[id.Name] {
				found = true
			}
			return !found
		})
		return found
	}
	for _, gd := range gds {
		// Names of the declaration, and what its values refer to.
		own := map[string]bool{}
		global := false
		ok := true
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Values) == 0 {
				continue
			}
			if len(vs.Names) != 1 || len(vs.Values) != 1 || vs.Names[0].Name == "_" {
				ok = false
				break
			}
			own[vs.Names[0].Name] = true
			ast.Inspect(vs.Values[0], func(n ast.Node) bool {
				if id, isID := n.(*ast.Ident); isID {
					if e := r.f.byKey[id.Name]; e != nil && e.kind == token.VAR || cellVars[id.Name] {
						global = true
					}
				}
				return !global
			})
		}
		if !ok || !global {
			continue
		}
		later := map[string]bool{}
		for _, d := range pc.decls {
			switch {
			case d.Pos() < gd.Pos():
				ok = ok && !mentions(d, own)
			case d.Pos() > gd.Pos():
				for _, k := range declKeys(d) {
					later[k] = true
				}
			}
		}
		for _, sp := range gd.Specs {
			for _, v := range sp.(*ast.ValueSpec).Values {
				ok = ok && !mentions(v, later)
			}
		}
		if !ok {
			continue
		}
		grouped := gd.Lparen.IsValid()
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			start := pc.off(vs.Pos())
			if !grouped {
				start = pc.off(gd.Pos())
			}
			switch {
			case len(vs.Values) == 0:
				r.ed.insert(start, "var ")
			case vs.Type == nil:
				r.ed.replace(start, pc.off(vs.Values[0].Pos()), vs.Names[0].Name+" := ")
			default:
				if grouped {
					r.ed.insert(start, "var ")
				}
				r.ed.replace(pc.off(vs.Type.End()), pc.off(vs.Values[0].Pos()), "; "+vs.Names[0].Name+" = ")
			}
		}
		if grouped {
			a, b, c := pc.off(gd.Pos()), pc.off(gd.Lparen), pc.off(gd.Rparen)
			r.ed.replace(a, b+1, "")
			r.ed.replace(c, c+1, "")
		}
		if r.asStmts == nil {
			r.asStmts = map[int]bool{}
		}
		r.asStmts[pc.off(gd.Pos())] = true
		for k := range own {
			cellVars[k] = true
		}
		r.count++
	}
}

// declKeys returns the names a top-level declaration declares.
func declKeys(d ast.Decl) []string {
	var keys []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			keys = append(keys, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				keys = append(keys, sp.Name.Name)
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					keys = append(keys, n.Name)
				}
			}
		}
	}
	return keys
}
