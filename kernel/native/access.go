package native

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Cells are packages once compiled, so a later cell cannot name the
// unexported fields and methods of a type an earlier cell declared, nor
// set them in a composite literal, although Go allows all of it within
// one package — and a notebook is one package to its author. The
// declaring cell therefore exports accessors (accessors below), and later
// cells are rewritten to use them (accessSelector, accessCall,
// accessLiteral):
//
//	p.x            → (*c1.NgX{}.P_point_x(&p))       addressable operand
//	f().x          → c1.NgX{}.G_point_x(f())          a value
//	p.norm(2)      → c1.NgX{}.M_point_norm(p, 2)
//	point{1, 2}    → c1.NgX{}.B_point().S_x(1).S_y(2).V()
//	&point{x: 1}   → c1.NgX{}.B_point().S_x(1).P()
//
// Generic types are not covered: such a use gets an error that says so.

// accessors declares the accessors of the named struct types and the
// unexported methods the cell declares.
func (g *generator) accessors() string {
	cs := g.cs
	var b strings.Builder
	scope := cs.pkgT.Scope()
	for n := range cs.names {
		if strings.Contains(n, ".") {
			continue
		}
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		if st, ok := named.Underlying().(*types.Struct); ok {
			hasUnexported := false
			for i := 0; i < st.NumFields(); i++ {
				if !st.Field(i).Exported() {
					hasUnexported = true
				}
			}
			if hasUnexported {
				fmt.Fprintf(&b, "type NgB_%s struct{ v %s }\n", n, n)
				fmt.Fprintf(&b, "func (NgX) B_%s() *NgB_%s { return &NgB_%s{} }\n", n, n, n)
				fmt.Fprintf(&b, "func (b *NgB_%s) V() %s { return b.v }\n", n, n)
				fmt.Fprintf(&b, "func (b *NgB_%s) P() *%s { p := b.v; return &p }\n", n, n)
				for i := 0; i < st.NumFields(); i++ {
					f := st.Field(i)
					ft, ok := g.q.typeString(f.Type(), g.alias)
					if !ok || f.Name() == "_" {
						continue
					}
					fmt.Fprintf(&b, "func (b *NgB_%s) S_%s(v %s) *NgB_%s { b.v.%s = v; return b }\n", n, f.Name(), ft, n, f.Name())
					if !f.Exported() {
						fmt.Fprintf(&b, "func (NgX) P_%s_%s(p *%s) *%s { return &p.%s }\n", n, f.Name(), n, ft, f.Name())
						fmt.Fprintf(&b, "func (NgX) G_%s_%s(v %s) %s { return v.%s }\n", n, f.Name(), n, ft, f.Name())
					}
				}
			}
		}
		for i := 0; i < named.NumMethods(); i++ {
			m := named.Method(i)
			if m.Exported() {
				continue
			}
			sig := m.Type().(*types.Signature)
			recv := n
			if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
				recv = "*" + n
			}
			params, args, ok1 := g.params(sig)
			results, ok2 := g.q.typeString(sig.Results(), g.alias)
			if !ok1 || !ok2 {
				continue
			}
			ret := "return "
			if sig.Results().Len() == 0 {
				results, ret = "", ""
			}
			if params != "" {
				params = ", " + params
			}
			fmt.Fprintf(&b, "func (NgX) M_%s_%s(r %s%s) %s { %sr.%s(%s) }\n", n, m.Name(), recv, params, results, ret, m.Name(), args)
		}
	}
	return b.String()
}

// declaredIn returns the earlier cell that declared obj's position, nil
// for the current cell (ok=false for objects outside the notebook).
func (g *generator) declaredIn(obj types.Object) (*compiled, bool) {
	if obj == nil || obj.Pkg() != g.cs.pkgT {
		return nil, false
	}
	f := g.cs.s.fset.File(obj.Pos())
	if f == nil {
		return nil, false
	}
	seq := fileSeq(f.Name())
	if seq == g.cs.seq {
		return nil, true
	}
	c, ok := g.bySeq[seq]
	return c, ok
}

// foreign reports whether obj (a field or method) belongs to an earlier
// cell and is unexported: the current cell's package cannot name it.
func (g *generator) foreign(obj types.Object) (*compiled, bool) {
	if obj.Exported() {
		return nil, false
	}
	c, ok := g.declaredIn(obj)
	return c, ok && c != nil
}

// ownerType returns the named non-generic type of an earlier cell that
// holds a struct field or declares a method, given the operand's type.
func ownerNamed(t types.Type) (*types.Named, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	t = types.Unalias(t)
	n, ok := t.(*types.Named)
	if !ok || n.TypeArgs().Len() > 0 || n.TypeParams().Len() > 0 {
		return nil, false
	}
	return n, true
}

// path builds the wrappers that reach the field at the end of a selection
// path from an operand of type t: prefix and suffix go around the
// operand's text. It returns the type reached and whether the result is
// addressable.
func (g *generator) path(t types.Type, addressable bool, index []int) (prefix, suffix string, out types.Type, addr bool, err string) {
	cur := t
	addr = addressable
	for _, i := range index {
		isPtr := false
		base := cur
		if p, ok := cur.Underlying().(*types.Pointer); ok {
			isPtr = true
			base = p.Elem()
		}
		st, ok := base.Underlying().(*types.Struct)
		if !ok {
			return "", "", nil, false, "selection through a non-struct"
		}
		f := st.Field(i)
		if c, bad := g.foreign(f); bad {
			named, ok := ownerNamed(base)
			if !ok {
				return "", "", nil, false, fmt.Sprintf("%s is an unexported field of a generic or unnamed type declared in an earlier cell; use it in the cell that declares the type, or export it", f.Name())
			}
			g.cells[c.index] = c
			tn := named.Obj().Name()
			switch {
			case isPtr:
				prefix = fmt.Sprintf("(*%s.NgX{}.P_%s_%s(", c.alias, tn, f.Name()) + prefix
				suffix += "))"
				addr = true
			case addr:
				prefix = fmt.Sprintf("(*%s.NgX{}.P_%s_%s(&", c.alias, tn, f.Name()) + prefix
				suffix += "))"
			default:
				prefix = fmt.Sprintf("%s.NgX{}.G_%s_%s(", c.alias, tn, f.Name()) + prefix
				suffix += ")"
			}
		} else {
			suffix += "." + f.Name()
			if isPtr {
				addr = true
			}
		}
		cur = f.Type()
	}
	return prefix, suffix, cur, addr, ""
}

// accessSelector rewrites x.f where f (or a field on the way to it) is an
// unexported field of an earlier cell's type. Method selections are
// handled with their call (accessCall).
func (g *generator) accessSelector(se *ast.SelectorExpr, sel *types.Selection) {
	if sel.Kind() != types.FieldVal {
		if _, bad := g.foreign(sel.Obj()); bad && !g.calls[se] {
			l, c := g.cs.cellPos(se.Sel.Pos())
			g.errs = append(g.errs, &Error{Line: l, Col: c, Msg: fmt.Sprintf("%s is an unexported method of a type declared in an earlier cell: call it (a method value or expression of it cannot be taken outside that cell), or export it", se.Sel.Name)})
		}
		return
	}
	need := false
	cur := sel.Recv()
	for _, i := range sel.Index() {
		base := cur
		if p, ok := cur.Underlying().(*types.Pointer); ok {
			base = p.Elem()
		}
		st, ok := base.Underlying().(*types.Struct)
		if !ok {
			return
		}
		if _, bad := g.foreign(st.Field(i)); bad {
			need = true
		}
		cur = st.Field(i).Type()
	}
	if !need {
		return
	}
	tv := g.cs.info.Types[se.X]
	prefix, suffix, _, _, msg := g.path(sel.Recv(), tv.Addressable(), sel.Index())
	if msg != "" {
		l, c := g.cs.cellPos(se.Sel.Pos())
		g.errs = append(g.errs, &Error{Line: l, Col: c, Msg: msg})
		return
	}
	g.replace(se.X.Pos(), se.X.Pos(), prefix)
	g.replace(se.X.End(), se.End(), suffix)
}

// accessCall rewrites x.m(args) for an unexported method m of an earlier
// cell's type (reached directly or through embedded fields).
func (g *generator) accessCall(call *ast.CallExpr) {
	se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	sel, ok := g.cs.info.Selections[se]
	if !ok || sel.Kind() != types.MethodVal {
		return
	}
	c, bad := g.foreign(sel.Obj())
	if !bad {
		return
	}
	g.calls[se] = true
	idx := sel.Index()
	tv := g.cs.info.Types[se.X]
	prefix, suffix, recvT, addr, msg := g.path(sel.Recv(), tv.Addressable(), idx[:len(idx)-1])
	m := sel.Obj().(*types.Func)
	named, ok := ownerNamed(m.Type().(*types.Signature).Recv().Type())
	if msg != "" || !ok {
		if msg == "" {
			msg = fmt.Sprintf("%s is an unexported method of a generic type declared in an earlier cell; call it in that cell, or export it", se.Sel.Name)
		}
		l, col := g.cs.cellPos(se.Sel.Pos())
		g.errs = append(g.errs, &Error{Line: l, Col: col, Msg: msg})
		return
	}
	g.cells[c.index] = c
	_, wantPtr := m.Type().(*types.Signature).Recv().Type().(*types.Pointer)
	_, havePtr := recvT.Underlying().(*types.Pointer)
	conv := ""
	switch {
	case wantPtr && !havePtr:
		if !addr {
			l, col := g.cs.cellPos(se.Sel.Pos())
			g.errs = append(g.errs, &Error{Line: l, Col: col, Msg: "cannot call pointer method " + se.Sel.Name + " on a value that is not addressable"})
			return
		}
		conv = "&"
	case !wantPtr && havePtr:
		conv = "*"
	}
	open := fmt.Sprintf("%s.NgX{}.M_%s_%s(%s", c.alias, named.Obj().Name(), m.Name(), conv)
	if conv == "*" || conv == "&" {
		open += "("
		suffix += ")"
	}
	sep := ""
	if len(call.Args) > 0 {
		sep = ", "
	}
	g.replace(se.X.Pos(), se.X.Pos(), open+prefix)
	g.replace(se.X.End(), call.Lparen+1, suffix+sep)
}

// accessLiteral rewrites a composite literal of an earlier cell's struct
// type that sets unexported fields into a call of the type's builder.
func (g *generator) accessLiteral(lit *ast.CompositeLit, amp *ast.UnaryExpr) {
	t := g.cs.info.Types[lit].Type
	if t == nil || len(lit.Elts) == 0 {
		return
	}
	ptr := amp != nil
	if p, ok := t.(*types.Pointer); ok { // an elided &T in a literal of *T elements
		t, ptr = p.Elem(), true
	}
	named, ok := ownerNamed(t)
	if !ok {
		return
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return
	}
	c, inEarlier := g.declaredIn(named.Obj())
	if !inEarlier || c == nil {
		return
	}
	// Only literals that set unexported fields need the builder.
	need := false
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && !token.IsExported(k.Name) {
				need = true
			}
		} else if i < st.NumFields() && !st.Field(i).Exported() {
			need = true
		}
	}
	if !need {
		return
	}
	g.cells[c.index] = c
	tn := named.Obj().Name()
	start := lit.Lbrace
	if lit.Type != nil {
		start = lit.Type.Pos()
	}
	if amp != nil {
		g.replace(amp.OpPos, amp.OpPos+1, "")
	}
	g.replace(start, lit.Elts[0].Pos(), fmt.Sprintf("%s.NgX{}.B_%s()", c.alias, tn))
	for i, el := range lit.Elts {
		var name string
		val := el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			name = kv.Key.(*ast.Ident).Name
			val = kv.Value
			g.replace(kv.Key.Pos(), kv.Value.Pos(), "")
		} else {
			name = st.Field(i).Name()
		}
		g.insert(val.Pos(), ".S_"+name+"(", -1)
		g.insert(val.End(), ")", -1)
		if i+1 < len(lit.Elts) {
			g.replace(el.End(), lit.Elts[i+1].Pos(), "")
		}
	}
	end := ".V()"
	if ptr {
		end = ".P()"
	}
	g.replace(lit.Elts[len(lit.Elts)-1].End(), lit.Rbrace+1, end)
}

func (g *generator) insert(at token.Pos, text string, pri int) {
	off := g.cs.cellOff(at)
	if off < 0 {
		return
	}
	g.repl = append(g.repl, replacement{off, off, text, pri})
}
