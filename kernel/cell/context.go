package cell

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// entry is a committed package-level declaration, kept as source.
type entry struct {
	keys []string // names it declares; methods are "Type.Method"
	text string
	sig  string // for funcs: the text without the body, which type-checks faster
	// names[i] is the offset in text of the identifier declaring keys[i],
	// when the entry declares several names (var and const groups), so that
	// one of them can be blanked out when a later cell redeclares it.
	names   []int
	kind    token.Token // token.FUNC, TYPE, VAR or CONST
	generic bool        // a generic function
	results int         // for functions: number of results
	guess   guess       // for vars: their type; for funcs: their result
	// For types: the name it is declared with in the interpreter (see
	// retype.go), and whether it is a defined type that is not generic.
	internal string
	defined  bool
}

// delta is what a program adds to the context.
type delta struct {
	imports []importSpec
	entries []*entry
}

func (f *Front) addImport(im importSpec) {
	for i, old := range f.imports {
		if old.key() == im.key() {
			f.imports[i] = im
			return
		}
	}
	f.imports = append(f.imports, im)
}

func (f *Front) addEntry(e *entry) {
	// Copy: entries are changed when later cells redeclare their names, and
	// a Program may be committed more than once.
	c := *e
	c.keys = append([]string(nil), e.keys...)
	c.names = append([]int(nil), e.names...)
	e = &c
	for _, k := range e.keys {
		if old := f.byKey[k]; old != nil {
			f.dropKey(old, k)
		}
	}
	f.entries = append(f.entries, e)
	for _, k := range e.keys {
		if k != "_" {
			f.byKey[k] = e
		}
	}
}

// dropKey removes name k from entry e, deleting e when it declares nothing
// else.
func (f *Front) dropKey(e *entry, k string) {
	delete(f.byKey, k)
	live := 0
	for i, key := range e.keys {
		if key == k {
			e.keys[i] = "_"
		}
		if e.keys[i] != "_" {
			live++
		}
	}
	if live > 0 && len(e.names) == len(e.keys) {
		e.text = blankNames(e.text, e.names, e.keys)
		return
	}
	for i, x := range f.entries {
		if x == e {
			f.entries = append(f.entries[:i], f.entries[i+1:]...)
			break
		}
	}
}

// blankNames replaces the identifiers at names[i] by "_" where keys[i] is
// "_", adjusting the offsets.
func blankNames(text string, names []int, keys []string) string {
	var b strings.Builder
	cur := 0
	for i, off := range names {
		if off < cur || off > len(text) {
			continue
		}
		n := identLen(text[off:])
		b.WriteString(text[cur:off])
		names[i] = b.Len()
		if keys[i] == "_" && n > 0 {
			b.WriteString("_")
		} else {
			b.WriteString(text[off : off+n])
		}
		cur = off + n
	}
	b.WriteString(text[cur:])
	return b.String()
}

func identLen(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 {
			n++
			continue
		}
		break
	}
	return n
}

// contextSource renders the committed context as a Go file, leaving out the
// names in exclude (redeclared by the cell being prepared). With sigs,
// functions are rendered without their bodies: a type-check of a cell only
// needs their signatures (go/types then reports a missing body, which is
// ignored like every type error).
func (f *Front) contextSource(exclude map[string]bool, sigs bool) string {
	var b strings.Builder
	b.WriteString("package main\n")
	for _, im := range f.imports {
		b.WriteString("import ")
		b.WriteString(im.source())
		b.WriteString("\n")
	}
	if !exclude[GoPanicFunc] {
		b.WriteString("func " + GoPanicFunc + "(any) {}\n")
	}
	for _, e := range f.entries {
		text := e.text
		if sigs && e.sig != "" {
			text = e.sig
		}
		if exclude != nil {
			dropped := false
			var keys []string
			for _, k := range e.keys {
				if exclude[k] {
					dropped = true
					k = "_"
				}
				keys = append(keys, k)
			}
			if dropped {
				if len(e.names) != len(e.keys) {
					continue
				}
				live := false
				for _, k := range keys {
					live = live || k != "_"
				}
				if !live {
					continue
				}
				names := append([]int(nil), e.names...)
				text = blankNames(text, names, keys)
			}
		}
		b.WriteString(text)
		b.WriteString("\n")
	}
	return b.String()
}

var errNoImporter = errors.New("no importer")

// importPkg imports path with the Front's importer, caching the result.
// The packages whose generic functions the interpreter runs as source come
// from that source instead (see srcPackages).
func (f *Front) importPkg(path string) (pkg *types.Package, err error) {
	if r, ok := f.impCache[path]; ok {
		return r.pkg, r.err
	}
	if f.imp == nil {
		err = errNoImporter
	} else if sp := srcPackages()[path]; sp != nil {
		pkg = sp
	} else {
		func() {
			defer func() {
				if r := recover(); r != nil {
					pkg, err = nil, fmt.Errorf("importer panicked: %v", r)
				}
			}()
			pkg, err = f.imp.Import(path)
		}()
		if err == nil && pkg == nil {
			err = fmt.Errorf("cannot import %q", path)
		}
	}
	f.impCache[path] = impResult{pkg, err}
	return pkg, err
}

// pkgName returns the name of the package at path: from the importer when
// it knows the package, else guessed from the path.
func (f *Front) pkgName(path string) string {
	if pkg, err := f.importPkg(path); err == nil && pkg.Name() != "" {
		return pkg.Name()
	}
	return lastPathElem(path)
}

type importerFunc func(path string) (*types.Package, error)

func (fn importerFunc) Import(path string) (*types.Package, error) { return fn(path) }

// cellEntries computes the context entries declared by the cell. info may
// be nil (no type-check); then vars are kept as source.
func (r *rewriter) cellEntries() []*entry {
	pc := r.pc
	var out []*entry
	for _, d := range pc.decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if name == "_" || name == "init" || !pc.inCell(d.Pos()) {
				continue
			}
			e := &entry{kind: token.FUNC, text: pc.text(d), results: fieldCount(d.Type.Results), guess: r.guessResult(d.Type)}
			if d.Body != nil {
				if s, b := pc.off(d.Pos()), pc.off(d.Body.Lbrace); s >= 0 && b >= s {
					e.sig = strings.TrimRight(pc.src[s:b], " \t\r\n")
				}
			}
			if d.Recv != nil {
				base := recvBase(d.Recv)
				if base == "" {
					continue
				}
				e.keys = []string{base + "." + name}
			} else {
				e.keys = []string{name}
				e.generic = d.Type.TypeParams != nil && len(d.Type.TypeParams.List) > 0
			}
			out = append(out, e)
		case *ast.GenDecl:
			out = append(out, r.genDeclEntries(d)...)
		}
	}
	// Globals created by top-level := statements.
	for _, s := range pc.body {
		as, ok := s.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			continue
		}
		out = append(out, r.defineEntries(as)...)
	}
	return out
}

func fieldCount(fl *ast.FieldList) int {
	if fl == nil {
		return 0
	}
	n := 0
	for _, f := range fl.List {
		if len(f.Names) == 0 {
			n++
		} else {
			n += len(f.Names)
		}
	}
	return n
}

// recvBase returns the base type name of a method receiver.
func recvBase(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	t := fl.List[0].Type
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
			return x.Name
		default:
			return ""
		}
	}
}

func (r *rewriter) genDeclEntries(d *ast.GenDecl) []*entry {
	pc := r.pc
	var out []*entry
	switch d.Tok {
	case token.TYPE:
		for _, sp := range d.Specs {
			ts := sp.(*ast.TypeSpec)
			if ts.Name.Name == "_" {
				continue
			}
			e := &entry{kind: token.TYPE, keys: []string{ts.Name.Name}, text: "type " + pc.text(ts), internal: ts.Name.Name}
			e.defined = !ts.Assign.IsValid() && ts.TypeParams == nil
			for _, td := range r.typeDecls {
				if td.ts == ts {
					e.internal = td.name
				}
			}
			out = append(out, e)
		}
	case token.CONST:
		whole := false
		if d.Lparen.IsValid() {
			for _, sp := range d.Specs {
				vs := sp.(*ast.ValueSpec)
				if len(vs.Values) == 0 || strings.Contains(pc.text(vs), "iota") {
					whole = true
				}
			}
		}
		if whole {
			e := &entry{kind: token.CONST, text: pc.text(d)}
			base := pc.off(d.Pos())
			for _, sp := range d.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					e.keys = append(e.keys, n.Name)
					e.names = append(e.names, pc.off(n.Pos())-base)
				}
			}
			out = append(out, e)
			break
		}
		for _, sp := range d.Specs {
			out = append(out, specEntry(pc, token.CONST, sp.(*ast.ValueSpec), guess{}))
		}
	case token.VAR:
		for _, sp := range d.Specs {
			vs := sp.(*ast.ValueSpec)
			if typed := r.typedVars(vs.Names); typed != nil {
				out = append(out, typed...)
				continue
			}
			g := guess{}
			if len(vs.Names) == 1 {
				g = r.defs[vs.Names[0].Name]
			}
			out = append(out, specEntry(pc, token.VAR, vs, g))
		}
	}
	return out
}

// specEntry keeps a var or const spec as source.
func specEntry(pc *parsedCell, tok token.Token, vs *ast.ValueSpec, g guess) *entry {
	kw := tok.String() + " "
	e := &entry{kind: tok, text: kw + pc.text(vs), guess: g}
	base := pc.off(vs.Pos())
	for _, n := range vs.Names {
		e.keys = append(e.keys, n.Name)
		e.names = append(e.names, len(kw)+pc.off(n.Pos())-base)
	}
	return e
}

// typedVars returns "var x T" entries for the names when all their types
// are known and can be written at package level; else nil.
func (r *rewriter) typedVars(names []*ast.Ident) []*entry {
	if r.info == nil {
		return nil
	}
	var out []*entry
	for _, n := range names {
		if n.Name == "_" {
			continue
		}
		obj, ok := r.info.Defs[n].(*types.Var)
		if !ok || obj == nil {
			return nil
		}
		ts, ok := r.typeString(obj.Type(), token.NoPos)
		if !ok {
			return nil
		}
		out = append(out, &entry{kind: token.VAR, keys: []string{n.Name}, text: "var " + n.Name + " " + ts, guess: guessFromType(obj.Type())})
	}
	return out
}

// defineEntries returns the entries for the globals of a top-level :=.
func (r *rewriter) defineEntries(as *ast.AssignStmt) []*entry {
	pc := r.pc
	var ids []*ast.Ident
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return nil
		}
		ids = append(ids, id)
	}
	if r.info != nil {
		var newIDs []*ast.Ident
		for _, id := range ids {
			if r.info.Defs[id] != nil {
				newIDs = append(newIDs, id)
			}
		}
		if typed := r.typedVars(newIDs); typed != nil {
			return typed
		}
	}
	if len(as.Rhs) == len(ids) {
		var out []*entry
		for i, id := range ids {
			if id.Name == "_" {
				continue
			}
			out = append(out, &entry{kind: token.VAR, keys: []string{id.Name}, text: "var " + id.Name + " = " + pc.text(as.Rhs[i]), guess: r.defs[id.Name]})
		}
		return out
	}
	if len(as.Rhs) != 1 {
		return nil
	}
	e := &entry{kind: token.VAR}
	var b strings.Builder
	b.WriteString("var ")
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		e.keys = append(e.keys, id.Name)
		e.names = append(e.names, b.Len())
		b.WriteString(id.Name)
	}
	b.WriteString(" = ")
	b.WriteString(pc.text(as.Rhs[0]))
	e.text = b.String()
	return []*entry{e}
}
