package cell

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A guess is what Prepare can tell about the type of an expression without
// type-checking the cell: enough to decide whether a range statement ranges
// over an int, a func or something else, so that most cells skip go/types.
type guess struct {
	kind int    // gUnknown, gInt, gFunc or gOther
	typ  string // for gInt: the integer type
}

const (
	gUnknown = iota
	gInt
	gFunc
	gOther // neither an integer nor a function
)

var intTypes = map[string]bool{
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true, "rune": true, "byte": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
}

// guessType guesses from a type expression.
func (r *rewriter) guessType(t ast.Expr) guess {
	switch t := t.(type) {
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.StructType:
		return guess{kind: gOther}
	case *ast.FuncType:
		return guess{kind: gFunc}
	case *ast.StarExpr:
		if _, ok := t.X.(*ast.ArrayType); ok {
			return guess{kind: gOther}
		}
	case *ast.Ident:
		if r.declared[t.Name] {
			return guess{}
		}
		if intTypes[t.Name] {
			return guess{kind: gInt, typ: t.Name}
		}
		if t.Name == "string" {
			return guess{kind: gOther}
		}
	}
	return guess{}
}

// guessFromType guesses from a go/types type (from an importer, or from a
// type-check at commit time).
func guessFromType(t types.Type) guess {
	if t == nil {
		return guess{}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsInteger != 0 {
			if b, ok := t.(*types.Basic); ok && u.Info()&types.IsUntyped == 0 {
				return guess{kind: gInt, typ: b.Name()}
			}
			return guess{} // a named integer type: its name needs qualifying
		}
		return guess{kind: gOther}
	case *types.Signature:
		return guess{kind: gFunc}
	case *types.Interface, *types.TypeParam:
		return guess{}
	}
	return guess{kind: gOther}
}

// guessResult guesses from the single result of a function declaration.
func (r *rewriter) guessResult(ft *ast.FuncType) guess {
	if ft.TypeParams != nil && len(ft.TypeParams.List) > 0 {
		return guess{}
	}
	if fieldCount(ft.Results) != 1 {
		return guess{kind: gOther}
	}
	return r.guessType(ft.Results.List[0].Type)
}

// guess guesses the type of the value of e. top says e is in the cell's
// top-level code, where identifiers refer to globals unless a block of that
// code declares them (r.shadowed).
func (r *rewriter) guess(e ast.Expr, top bool) guess {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT {
			return guess{kind: gInt, typ: "int"}
		}
		return guess{kind: gOther}
	case *ast.CompositeLit, *ast.SliceExpr:
		return guess{kind: gOther}
	case *ast.ParenExpr:
		return r.guess(e.X, top)
	case *ast.UnaryExpr:
		if e.Op == token.ADD || e.Op == token.SUB || e.Op == token.XOR {
			if g := r.guess(e.X, top); g.kind == gInt && g.typ == "int" && r.syntacticInt(e.X) {
				return g
			}
		}
	case *ast.BinaryExpr:
		if r.syntacticInt(e) {
			return guess{kind: gInt, typ: "int"}
		}
	case *ast.Ident:
		if !top || r.shadowed[e.Name] {
			return guess{}
		}
		if g, ok := r.defs[e.Name]; ok {
			return g
		}
		if en := r.f.byKey[e.Name]; en != nil && en.kind == token.VAR {
			return en.guess
		}
	case *ast.CallExpr:
		if r.syntacticInt(e) {
			return guess{kind: gInt, typ: "int"}
		}
		switch fun := e.Fun.(type) {
		case *ast.ArrayType, *ast.MapType:
			return guess{kind: gOther}
		case *ast.Ident:
			if fun.Name == "make" && !r.declared["make"] {
				return guess{kind: gOther}
			}
			if r.shadowed[fun.Name] {
				return guess{}
			}
			if g, ok := r.funcs[fun.Name]; ok {
				return g
			}
			if en := r.f.byKey[fun.Name]; en != nil && en.kind == token.FUNC {
				return en.guess
			}
			if fun.Name == "string" && !r.declared["string"] {
				return guess{kind: gOther}
			}
		case *ast.SelectorExpr:
			x, ok := fun.X.(*ast.Ident)
			if !ok || r.shadowed[x.Name] || r.declared[x.Name] {
				return guess{}
			}
			path, ok := r.importPaths[x.Name]
			if !ok {
				return guess{}
			}
			pkg, err := r.f.importPkg(path)
			if err != nil {
				return guess{}
			}
			fn, ok := pkg.Scope().Lookup(fun.Sel.Name).(*types.Func)
			if !ok {
				return guess{}
			}
			sig, ok := fn.Type().(*types.Signature)
			if !ok || sig.TypeParams().Len() > 0 {
				return guess{}
			}
			if sig.Results().Len() != 1 {
				return guess{kind: gOther}
			}
			return guessFromType(sig.Results().At(0).Type())
		}
	}
	return guess{}
}

// collectGuesses records what the cell's top level declares: r.defs (vars
// and := globals), r.funcs (functions' results) and r.shadowed (names
// declared in nested blocks of top-level code, or anywhere in functions'
// parameters, where a name may not mean the global).
func (r *rewriter) collectGuesses() {
	pc := r.pc
	r.defs, r.funcs, r.shadowed = map[string]guess{}, map[string]guess{}, map[string]bool{}
	for _, d := range pc.decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				r.funcs[d.Name.Name] = r.guessResult(d.Type)
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, sp := range d.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					g := guess{}
					switch {
					case vs.Type != nil:
						g = r.guessType(vs.Type)
					case len(vs.Values) == len(vs.Names):
						g = r.guess(vs.Values[i], true)
					}
					r.defs[n.Name] = g
				}
			}
		}
	}
	for _, st := range pc.body {
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				g := guess{}
				if len(as.Rhs) == len(as.Lhs) {
					g = r.guess(as.Rhs[i], true)
				}
				r.defs[id.Name] = g
			}
			continue
		}
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							r.shadowed[id.Name] = true
						}
					}
				}
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					for _, v := range []ast.Expr{n.Key, n.Value} {
						if id, ok := v.(*ast.Ident); ok {
							r.shadowed[id.Name] = true
						}
					}
				}
			case *ast.ValueSpec:
				for _, id := range n.Names {
					r.shadowed[id.Name] = true
				}
			case *ast.TypeSpec:
				r.shadowed[n.Name.Name] = true
			case *ast.FuncLit:
				return false // its body is not top-level code
			}
			return true
		})
	}
}
