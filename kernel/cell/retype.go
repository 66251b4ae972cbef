package cell

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Redeclared types.
//
// yaegi v0.16.1 keeps the first definition of a type name: after
// "type T struct{ A int }", a later "type T struct{ A, B int }" is accepted
// but T stays the old struct. It does replace a type name by an alias,
// though, and functions compiled against the old type keep it. So a cell
// that redeclares T with a different definition declares the new type
// under a fresh internal name and makes T an alias of it:
//
//	type T__ng7 struct{ A, B int }; type T = T__ng7
//
// Later cells refer to T and get the new type; values, variables and
// functions of earlier cells keep the old one. The Front records, per type
// name, the definition it last handed out (typeRec), so that re-running an
// unchanged cell reuses the name and a changed one gets a fresh one even
// if the cell that introduced the old definition failed part way and was
// never committed.

// typeRec is the last definition Prepare handed out for a type name.
type typeRec struct {
	cur string // the name the definition was declared with (the user's name, or an internal one)
	def string // canonical text of the definition (see typeCanon)
}

// typeDecl is a type declaration of the cell being prepared.
type typeDecl struct {
	gd    *ast.GenDecl
	ts    *ast.TypeSpec
	refs  []*ast.Ident // identifiers of the definition that may name package-level types
	emb   map[*ast.Ident]bool
	canon string
	name  string // the name it is declared with in the interpreter
	reuse bool   // same definition as the last one handed out
	fresh bool   // a fresh internal name
}

// internalTypeName is the internal name of the n-th redeclaration of name.
func internalTypeName(name string, n int) string { return name + "__ng" + strconv.Itoa(n) }

// planTypes decides the names the cell's type declarations get in the
// interpreter and makes the edits for those that are renamed: the name, the
// alias after the declaration, and references inside type definitions of
// the cell. References in the cell's other declarations are renamed after
// the type-check (renameTypeUses).
func (r *rewriter) planTypes() {
	pc := r.pc
	var decls []*typeDecl
	count := map[string]int{}
	for _, d := range pc.decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE || !pc.inCell(gd.Pos()) {
			continue
		}
		for _, sp := range gd.Specs {
			ts := sp.(*ast.TypeSpec)
			if ts.Name.Name == "_" {
				continue
			}
			count[ts.Name.Name]++
			decls = append(decls, &typeDecl{gd: gd, ts: ts, name: ts.Name.Name})
		}
	}
	if len(decls) == 0 {
		return
	}
	byName := map[string]*typeDecl{}
	for _, td := range decls {
		if count[td.ts.Name.Name] == 1 {
			byName[td.ts.Name.Name] = td
		}
	}
	for _, td := range decls {
		td.refs, td.emb = typeRefs(td.ts)
		td.canon = r.typeCanon(td, byName)
	}
	for _, td := range decls {
		n := td.ts.Name.Name
		rec := r.f.typeRecs[n]
		switch {
		case byName[n] != td, rec == nil:
		case rec.def == td.canon:
			td.reuse, td.name = true, rec.cur
		case td.ts.Assign.IsValid(), td.ts.TypeParams != nil:
			// An alias replaces the old type in yaegi; a generic type
			// cannot be aliased (yaegi v0.16.1 has no generic aliases).
		default:
			td.fresh = true
		}
	}
	// A type whose definition refers to a type of the cell that gets a
	// fresh name changes too.
	for changed := true; changed; {
		changed = false
		for _, td := range decls {
			if !td.reuse || td.fresh || td.ts.Assign.IsValid() || td.ts.TypeParams != nil {
				continue
			}
			for _, id := range td.refs {
				if o := byName[id.Name]; o != nil && o.fresh {
					td.fresh, changed = true, true
					break
				}
			}
		}
	}
	for _, td := range decls {
		if td.fresh {
			td.name = internalTypeName(td.ts.Name.Name, r.next())
		}
	}
	// Edits.
	for _, td := range decls {
		n := td.ts.Name.Name
		for _, id := range td.refs {
			if o := byName[id.Name]; o != nil && o.name != id.Name && !td.emb[id] {
				r.renameIdent(id, o.name)
			}
		}
		if td.name == n {
			continue
		}
		r.renameIdent(td.ts.Name, td.name)
		alias := "; type " + n + " = " + td.name
		if td.gd.Lparen.IsValid() {
			alias = "; " + n + " = " + td.name
		}
		if e := pc.off(td.ts.End()); e >= 0 {
			r.ed.insert(e, alias)
		}
		r.count++
	}
	r.typeDecls = decls
	r.renamedTypes = map[string]string{}
	for _, td := range decls {
		if byName[td.ts.Name.Name] == td && td.name != td.ts.Name.Name {
			r.renamedTypes[td.ts.Name.Name] = td.name
		}
	}
}

func (r *rewriter) renameIdent(id *ast.Ident, name string) {
	s, e := r.pc.off(id.Pos()), r.pc.off(id.End())
	if s >= 0 && e >= s {
		r.ed.replace(s, e, name)
	}
}

// recordTypes records the type definitions handed out by a prepared cell.
func (r *rewriter) recordTypes() {
	seen := map[string]int{}
	for _, td := range r.typeDecls {
		seen[td.ts.Name.Name]++
	}
	for _, td := range r.typeDecls {
		n := td.ts.Name.Name
		if seen[n] != 1 {
			continue
		}
		r.f.typeRecs[n] = &typeRec{cur: td.name, def: td.canon}
	}
}

// typeRefs returns the identifiers of a type declaration that may refer to
// package-level types: not field, parameter or method names, not selectors
// and not the declaration's own type parameters. emb marks the type names
// of embedded struct fields (their name is the field's name).
func typeRefs(ts *ast.TypeSpec) (refs []*ast.Ident, emb map[*ast.Ident]bool) {
	skip := map[*ast.Ident]bool{ts.Name: true}
	tparams := map[string]bool{}
	emb = map[*ast.Ident]bool{}
	if ts.TypeParams != nil {
		for _, f := range ts.TypeParams.List {
			for _, n := range f.Names {
				tparams[n.Name] = true
				skip[n] = true
			}
		}
	}
	ast.Inspect(ts, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, nm := range n.Names {
				skip[nm] = true
			}
		case *ast.StructType:
			if n.Fields != nil {
				for _, f := range n.Fields.List {
					if len(f.Names) == 0 {
						if id := embeddedName(f.Type); id != nil {
							emb[id] = true
						}
					}
				}
			}
		case *ast.SelectorExpr:
			return false
		case *ast.Ident:
			if !skip[n] && !tparams[n.Name] {
				refs = append(refs, n)
			}
		}
		return true
	})
	return refs, emb
}

// embeddedName returns the type name of an embedded field's type.
func embeddedName(t ast.Expr) *ast.Ident {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// typeCanon returns the canonical text of a type declaration's definition:
// its tokens after the name, with the names of other types replaced by
// what they stand for in the interpreter (a type of the same cell by "@"
// and its name, an earlier type by the name it was last declared with).
func (r *rewriter) typeCanon(td *typeDecl, cell map[string]*typeDecl) string {
	pc := r.pc
	start, end := pc.off(td.ts.Name.End()), pc.off(td.ts.End())
	if start < 0 || end < start {
		return ""
	}
	var b strings.Builder
	cur := start
	for _, id := range td.refs {
		s, e := pc.off(id.Pos()), pc.off(id.End())
		if s < cur || e > end {
			continue
		}
		rep := ""
		if cell[id.Name] != nil {
			rep = "@" + id.Name
		} else if rec := r.f.typeRecs[id.Name]; rec != nil && rec.cur != id.Name {
			rep = rec.cur
		} else {
			continue
		}
		b.WriteString(pc.src[cur:s])
		b.WriteString(rep)
		cur = e
	}
	b.WriteString(pc.src[cur:end])
	return normTokens(b.String())
}

// normTokens returns the tokens of s separated by single spaces, without
// comments.
func normTokens(s string) string {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(s))
	var sc scanner.Scanner
	sc.Init(file, []byte(s), func(token.Position, string) {}, 0)
	var b strings.Builder
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if lit != "" {
			b.WriteString(lit)
		} else {
			b.WriteString(tok.String())
		}
	}
	return b.String()
}

// renameTypeUses renames, in the cell's declarations other than types,
// the references to the cell's types that get an internal name: yaegi
// resolves the names of one Eval's declarations before the alias that
// follows the new type takes effect.
func (r *rewriter) renameTypeUses() {
	if r.info == nil || len(r.renamedTypes) == 0 {
		return
	}
	objs := map[types.Object]string{}
	for n, internal := range r.renamedTypes {
		if obj, ok := r.pkg.Scope().Lookup(n).(*types.TypeName); ok {
			objs[obj] = internal
		}
	}
	for _, d := range r.pc.decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			continue
		}
		emb := map[*ast.Ident]bool{}
		ast.Inspect(d, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.StructType:
				if n.Fields != nil {
					for _, f := range n.Fields.List {
						if len(f.Names) == 0 {
							if id := embeddedName(f.Type); id != nil {
								emb[id] = true
							}
						}
					}
				}
			case *ast.Ident:
				if internal, ok := objs[r.info.Uses[n]]; ok && !emb[n] {
					r.renameIdent(n, internal)
				}
			}
			return true
		})
	}
}

// retireType is called when e, a committed type declaration, is about to
// replace the context's declaration of the same name. If that one is a
// defined type that the interpreter keeps (its values, and the functions,
// variables and types of earlier cells, still have it), the context keeps
// it too, under the name the interpreter knows it by (T__ng3) or, for the
// first definition whose name is now the new type's, under a context-only
// name that type arguments never use (f.hidden). Its methods and the
// references of other entries move with it; embedded fields keep their
// name, and so refer to the new type.
func (f *Front) retireType(e *entry) {
	n := e.keys[0]
	old := f.byKey[n]
	if old == nil || old == e || old.kind != token.TYPE || !old.defined {
		return
	}
	if e.defined && e.internal == old.internal {
		return // the same definition
	}
	name := old.internal
	if name == n {
		f.seq++
		name = n + "__ngctx" + strconv.Itoa(f.seq)
		f.hidden[name] = true
	}
	delete(f.byKey, n)
	f.byKey[name] = old
	old.keys[0] = name
	for _, x := range f.entries {
		x.text, x.names = renameTypeRefs(x.text, n, name, x.names)
		if x.sig != "" {
			x.sig, _ = renameTypeRefs(x.sig, n, name, nil)
		}
		if x.kind == token.FUNC && strings.HasPrefix(x.keys[0], n+".") {
			k := name + x.keys[0][len(n):]
			delete(f.byKey, x.keys[0])
			x.keys[0] = k
			f.byKey[k] = x
		}
	}
}

// renameTypeRefs renames, in the declaration text, the identifiers from
// that may refer to a type (not field, method or selector names, not
// composite literal keys, not embedded field types) to to, and moves the
// offsets names accordingly. Text that does not parse is left alone.
func renameTypeRefs(text, from, to string, names []int) (string, []int) {
	if !strings.Contains(text, from) {
		return text, names
	}
	const hdr = "package p\n"
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", hdr+text, parser.SkipObjectResolution)
	if err != nil {
		return text, names
	}
	tf := fset.File(file.FileStart)
	skip := map[*ast.Ident]bool{}
	var offs []int
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, nm := range n.Names {
				skip[nm] = true
			}
		case *ast.StructType:
			if n.Fields != nil {
				for _, fl := range n.Fields.List {
					if len(fl.Names) == 0 {
						if id := embeddedName(fl.Type); id != nil {
							skip[id] = true
						}
					}
				}
			}
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.CompositeLit:
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						skip[id] = true
					}
				}
			}
		case *ast.File:
			skip[n.Name] = true
		case *ast.FuncDecl:
			skip[n.Name] = true
		case *ast.Ident:
			if n.Name == from && !skip[n] {
				offs = append(offs, tf.Offset(n.Pos())-len(hdr))
			}
		}
		return true
	})
	if len(offs) == 0 {
		return text, names
	}
	var b strings.Builder
	cur := 0
	names = append([]int(nil), names...)
	moved := make([]int, len(names))
	copy(moved, names)
	for _, o := range offs {
		if o < cur || o+len(from) > len(text) {
			continue
		}
		b.WriteString(text[cur:o])
		b.WriteString(to)
		cur = o + len(from)
		for i, nm := range names {
			if nm > o {
				moved[i] += len(to) - len(from)
			}
		}
	}
	b.WriteString(text[cur:])
	return b.String(), moved
}
