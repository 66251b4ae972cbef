package native

import (
	"context"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/neurogo/neurogo/display"
)

// Completion and inspection work on the code being edited as if it were
// the next cell: it is type-checked with the live declarations of all
// earlier cells (Analyze), so every name a cell can use is known with its
// type — imported packages and their members, the notebook's functions,
// types, methods, fields, constants and variables (those that top-level
// := statements defined too), and the locals in scope at the cursor.
//
// Code being typed is rarely complete. The code is tried as it is with the
// word at the cursor replaced by a placeholder identifier (so that "x."
// parses as the selector x.placeholder), then cut after the placeholder
// with its open brackets closed, then as the cursor's line alone; the
// first version that parses is used. Type errors never matter.

// Candidate is one completion: a name, its kind ("function", "type",
// "variable", "constant", "field", "method", "package", "keyword") and
// its declaration as go/types prints it (types of the notebook
// unqualified).
type Candidate struct{ Name, Kind, Signature string }

// Docs renders the documentation of a member of an imported package
// (name "" for the package itself, "T.M" for a method or field of type T;
// path "builtin" for predeclared names). It returns "" when it has none.
type Docs func(path, name string) string

// SetDocs gives inspection the documentation of imported packages.
func (s *Session) SetDocs(d Docs) { s.docs = d }

// analyzeTimeout bounds the wait of completion and inspection for the
// packages the code imports: the first import of a package lists (and
// compiles) it with the go command, which goes on in the background when
// it takes longer.
const analyzeTimeout = 2 * time.Second

// placeholder replaces the word at the cursor during completion.
const placeholder = "__ngCursor"

// Complete proposes completions at cursor (a byte offset in code): after
// "pkg." the exported members of the package, after "x." the fields and
// methods of x's type (the method set of *T when x is addressable), else
// the names in scope at the cursor and the keywords. [start, end) is the
// byte range the chosen candidate replaces. Candidates are sorted by
// name. It never fails: code that cannot be analysed gives fewer or no
// candidates.
func (s *Session) Complete(code string, cursor int) (cands []Candidate, start, end int) {
	cursor = clampOffset(code, cursor)
	start, end = identStart(code, cursor), cursor
	defer func() {
		if r := recover(); r != nil {
			cands = nil
		}
	}()
	if inLiteral(code, cursor) {
		return nil, start, end
	}
	prefix := code[start:cursor]
	if !s.warmImports(code) {
		return keywordCands(prefix), start, end
	}
	ctx, cancel := context.WithTimeout(context.Background(), analyzeTimeout)
	defer cancel()
	a, off := s.analyzeVariants(ctx, code, start, identEnd(code, cursor), placeholder)
	if a == nil {
		// Not even the cursor's line parses: the session's names only.
		if a, off = s.analyzeVariant(ctx, placeholder, 0); a == nil {
			return keywordCands(prefix), start, end
		}
	}
	id := identAt(a, a.Pos(off))
	if id == nil {
		return nil, start, end
	}
	q := a.qualifier()
	seen := map[string]bool{}
	add := func(obj types.Object) {
		name := obj.Name()
		if !strings.HasPrefix(name, prefix) || seen[name] || generatedName(name) || name == "_" {
			return
		}
		kind := objectKind(obj)
		if kind == "" {
			return
		}
		seen[name] = true
		cands = append(cands, Candidate{Name: name, Kind: kind, Signature: objectString(obj, q)})
	}
	if sel := selectorOf(a, id); sel != nil {
		for _, obj := range a.members(sel) {
			add(obj)
		}
	} else {
		for _, obj := range a.inScope(id.Pos()) {
			add(obj)
		}
		for _, k := range keywordCands(prefix) {
			if !seen[k.Name] {
				cands = append(cands, k)
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].Name < cands[j].Name })
	return cands, start, end
}

// Inspect documents the name at cursor (a byte offset in code), or the
// function whose call's parentheses hold the cursor: its declaration (as
// go/types prints it for the notebook's names, as its package's source
// declares it for imported ones), its doc comment, the current value of a
// variable an earlier cell set, and with detail > 0 the declaration's
// source in its cell.
func (s *Session) Inspect(code string, cursor int, detail int) (text string, found bool) {
	defer func() {
		if r := recover(); r != nil {
			text, found = "", false
		}
	}()
	cursor = clampOffset(code, cursor)
	from, to := identStart(code, cursor), identEnd(code, cursor)
	if from == to || !isIdentStart(code[from:]) || token.Lookup(code[from:to]).IsKeyword() {
		// Shift-tab in "f(a, |": the called function.
		p, ok := callee(code, cursor)
		if !ok {
			return "", false
		}
		from, to = identStart(code, p), p
		if from == to {
			return "", false
		}
	}
	if !s.warmImports(code) {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.Background(), analyzeTimeout)
	defer cancel()
	a, off := s.analyzeVariants(ctx, code, from, to, code[from:to])
	if a == nil {
		return "", false
	}
	id := identAt(a, a.Pos(off))
	if id == nil {
		return "", false
	}
	obj := a.Info.Uses[id]
	if obj == nil {
		obj = a.Info.Defs[id]
	}
	if obj == nil {
		return "", false
	}
	owner := ""
	if se := selectorOf(a, id); se != nil {
		if sel := a.Info.Selections[se]; sel != nil && sel.Kind() == types.FieldVal {
			owner = fieldOwner(sel)
		}
	}
	text = s.describe(a, obj, owner, detail)
	return text, text != ""
}

// fieldOwner returns the name of the named struct type that declares the
// field a selection selects ("" if unnamed).
func fieldOwner(sel *types.Selection) string {
	t := sel.Recv()
	idx := sel.Index()
	for i, k := range idx {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if i == len(idx)-1 {
			if n, ok := types.Unalias(t).(*types.Named); ok {
				return n.Obj().Name()
			}
			return ""
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || k >= st.NumFields() {
			return ""
		}
		t = st.Field(k).Type()
	}
	return ""
}

// describe renders what Inspect shows of an object (owner: the type
// declaring it, if it is a field).
func (s *Session) describe(a *Analysis, obj types.Object, owner string, detail int) string {
	q := a.qualifier()
	if pn, ok := obj.(*types.PkgName); ok {
		p := pn.Imported()
		if d := s.doc(p.Path(), ""); d != "" {
			return d
		}
		return "package " + p.Name() + " // import \"" + p.Path() + "\""
	}
	if obj.Pkg() == nil {
		if d := s.doc("builtin", obj.Name()); d != "" {
			return d
		}
		return objectString(obj, q)
	}
	if obj.Pkg() != a.Pkg {
		// A member of an imported package, or a field or method of one
		// of its types.
		name := obj.Name()
		if recv := recvName(obj); recv != "" {
			name = recv + "." + name
		} else if v, ok := obj.(*types.Var); ok && v.IsField() {
			name = ""
			if owner != "" {
				name = owner + "." + v.Name()
			}
		}
		if name != "" && obj.Exported() {
			if d := s.doc(obj.Pkg().Path(), name); d != "" {
				return d
			}
		}
		return objectString(obj, q)
	}
	var b strings.Builder
	b.WriteString(objectString(obj, q))
	if v, ok := obj.(*types.Var); ok && !v.IsField() && v.Parent() == a.Pkg.Scope() {
		if val, ok := s.valueOf(a, v); ok {
			b.WriteString(" = " + val)
		}
	}
	sp, ok := s.declSource(a, obj)
	doc := ""
	if ok {
		doc = sp.docOf()
	}
	if doc != "" {
		b.WriteString("\n\n" + strings.TrimRight(doc, "\n"))
	}
	if tn, ok := obj.(*types.TypeName); ok && !tn.IsAlias() {
		ms := types.NewMethodSet(types.NewPointer(tn.Type()))
		var lines []string
		for i := 0; i < ms.Len(); i++ {
			m := ms.At(i).Obj()
			if len(ms.At(i).Index()) == 1 {
				lines = append(lines, "  "+types.ObjectString(m, q))
			}
		}
		if len(lines) > 0 {
			b.WriteString("\n\nMethods:\n" + strings.Join(lines, "\n"))
		}
	}
	if detail > 0 && ok && sp.start >= 0 && sp.end <= len(sp.src) && sp.start < sp.end {
		b.WriteString("\n\nSource:\n" + sp.src[sp.start:sp.end])
	}
	return b.String()
}

// objectString prints an object as go/types does, with a constant's
// value.
func objectString(obj types.Object, q types.Qualifier) string {
	out := types.ObjectString(obj, q)
	if c, ok := obj.(*types.Const); ok && c.Val() != nil {
		v := c.Val().String()
		if len(v) > 200 {
			v = v[:200] + "…"
		}
		out += " = " + v
	}
	return out
}

func (s *Session) doc(path, name string) string {
	if s.docs == nil {
		return ""
	}
	return s.docs(path, name)
}

// recvName returns the name of the named type whose method obj is.
func recvName(obj types.Object) string {
	f, ok := obj.(*types.Func)
	if !ok {
		return ""
	}
	sig, ok := f.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// valueOf formats the current value of a package-level variable that an
// earlier cell declared, within a short time (a String method could
// block).
func (s *Session) valueOf(a *Analysis, v *types.Var) (string, bool) {
	ev := &evaluator{cs: a.cs, info: a.Info, s: s}
	rv, ok := ev.cellSymbol(v)
	if !ok || !rv.IsValid() || !rv.CanInterface() {
		return "", false
	}
	res := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				res <- ""
			}
		}()
		res <- plainValue(rv)
	}()
	select {
	case out := <-res:
		if out == "" {
			return "", false
		}
		if len(out) > 2000 {
			out = out[:2000] + "…"
		}
		return out, true
	case <-time.After(time.Second):
		return "", false
	}
}

func plainValue(rv reflect.Value) string { return display.Plain(rv.Interface()) }

// ---- analysis of incomplete code ----

// warmImports makes the packages that code imports available to the type
// checker, waiting at most analyzeTimeout; it reports whether they are.
// The go command is not stopped when the wait ends (a later request finds
// its work done), so that a package that takes long to compile is not
// started again and again.
func (s *Session) warmImports(code string) bool {
	items, serr := splitItems(code)
	if serr != nil {
		return true // the analysis fails on its own
	}
	var missing []string
	for _, it := range items {
		if it.kind != itemImport {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p;"+code[it.start:it.end], parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, im := range f.Imports {
			p := strings.Trim(im.Path.Value, "`\"")
			s.tc.mu.Lock()
			_, known := s.tc.exports[p]
			known = known || s.tc.listed[p]
			s.tc.mu.Unlock()
			if !known {
				missing = append(missing, p)
			}
		}
	}
	if len(missing) == 0 {
		return true
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Warm(context.Background(), missing...)
	}()
	select {
	case <-done:
		return true
	case <-time.After(analyzeTimeout):
		return false
	}
}

// analyzeVariants analyses code with [from, to) replaced by repl, as it
// is, then cut after repl with open brackets closed, then as the line of
// from alone. It returns the analysis and the offset of repl in the
// analysed text, or nil.
func (s *Session) analyzeVariants(ctx context.Context, code string, from, to int, repl string) (*Analysis, int) {
	whole := code[:from] + repl + code[to:]
	if a, off := s.analyzeVariant(ctx, whole, from); a != nil {
		return a, off
	}
	head := code[:from] + repl
	if a, off := s.analyzeVariant(ctx, head+closers(head), from); a != nil {
		return a, off
	}
	ls := strings.LastIndexByte(code[:from], '\n') + 1
	if ls > 0 {
		line := code[ls:from] + repl
		if a, off := s.analyzeVariant(ctx, line+closers(line), from-ls); a != nil {
			return a, off
		}
	}
	return nil, 0
}

// analyzeVariant analyses text; the analysis counts only if the
// identifier at off is in a parsed file.
func (s *Session) analyzeVariant(ctx context.Context, text string, off int) (*Analysis, int) {
	if ctx.Err() != nil {
		return nil, 0
	}
	a, err := s.Analyze(ctx, text)
	if err != nil || a == nil || a.Pkg == nil || a.Info == nil {
		return nil, 0
	}
	if identAt(a, a.Pos(off)) == nil {
		return nil, 0
	}
	return a, off
}

// closers returns the brackets that close the ones open at the end of
// src.
func closers(src string) string {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(f, []byte(src), func(token.Position, string) {}, 0)
	var stack []byte
	for {
		_, tok, _ := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN:
			stack = append(stack, ')')
		case token.LBRACK:
			stack = append(stack, ']')
		case token.LBRACE:
			stack = append(stack, '}')
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	var b strings.Builder
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '}' {
			b.WriteByte('\n')
		}
		b.WriteByte(stack[i])
	}
	return b.String()
}

// identAt returns the identifier that starts at p in the analysed cell.
func identAt(a *Analysis, p token.Pos) *ast.Ident {
	if !p.IsValid() {
		return nil
	}
	var found *ast.Ident
	for _, f := range []*ast.File{a.Decl, a.Stmt} {
		if f == nil || p < f.FileStart || p > f.FileEnd {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if found != nil || n == nil || p < n.Pos() || p > n.End() {
				return false
			}
			if id, ok := n.(*ast.Ident); ok && id.Pos() == p {
				found = id
				return false
			}
			return true
		})
	}
	return found
}

// selectorOf returns the selector expression whose selected name is id.
func selectorOf(a *Analysis, id *ast.Ident) *ast.SelectorExpr {
	var found *ast.SelectorExpr
	for _, f := range []*ast.File{a.Decl, a.Stmt} {
		ast.Inspect(f, func(n ast.Node) bool {
			if found != nil || n == nil || id.Pos() < n.Pos() || id.Pos() > n.End() {
				return false
			}
			if se, ok := n.(*ast.SelectorExpr); ok && se.Sel == id {
				found = se
				return false
			}
			return true
		})
	}
	return found
}

// members lists what can follow "X." in sel.
func (a *Analysis) members(sel *ast.SelectorExpr) []types.Object {
	if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
		if pn, ok := a.Info.Uses[x].(*types.PkgName); ok {
			sc := pn.Imported().Scope()
			var out []types.Object
			for _, n := range sc.Names() {
				if o := sc.Lookup(n); o.Exported() {
					out = append(out, o)
				}
			}
			return out
		}
	}
	tv, ok := a.Info.Types[sel.X]
	if !ok || tv.Type == nil || tv.Type == types.Typ[types.Invalid] {
		return nil
	}
	t := tv.Type
	if tv.IsType() {
		// A method expression: T.M, (*T).M.
		return methods(types.NewMethodSet(t), a.Pkg)
	}
	_, isPtr := t.Underlying().(*types.Pointer)
	_, isIface := t.Underlying().(*types.Interface)
	addr := tv.Addressable() && !isPtr && !isIface
	var out []types.Object
	seen := map[string]bool{}
	for _, name := range fieldNames(t) {
		if seen[name] {
			continue
		}
		seen[name] = true
		if obj, _, _ := types.LookupFieldOrMethod(t, addr, a.Pkg, name); obj != nil {
			if v, ok := obj.(*types.Var); ok && v.IsField() {
				out = append(out, obj)
			}
		}
	}
	mt := t
	if addr {
		mt = types.NewPointer(t)
	}
	for _, m := range methods(types.NewMethodSet(mt), a.Pkg) {
		if !seen[m.Name()] {
			seen[m.Name()] = true
			out = append(out, m)
		}
	}
	return out
}

// methods returns the methods of ms visible from pkg.
func methods(ms *types.MethodSet, pkg *types.Package) []types.Object {
	var out []types.Object
	for i := 0; i < ms.Len(); i++ {
		m := ms.At(i).Obj()
		if m.Exported() || m.Pkg() == pkg {
			out = append(out, m)
		}
	}
	return out
}

// fieldNames lists the field names of t's struct, promoted ones included
// (LookupFieldOrMethod then decides which are reachable).
func fieldNames(t types.Type) []string {
	var out []string
	seen := map[types.Type]bool{}
	var walk func(t types.Type, depth int)
	walk = func(t types.Type, depth int) {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if seen[t] || depth > 8 {
			return
		}
		seen[t] = true
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return
		}
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			out = append(out, f.Name())
			if f.Embedded() {
				walk(f.Type(), depth+1)
			}
		}
	}
	walk(t, 0)
	return out
}

// inScope lists the objects visible at p, inner scopes first; locals
// declared after p are left out.
func (a *Analysis) inScope(p token.Pos) []types.Object {
	sc := a.Pkg.Scope().Innermost(p)
	if sc == nil {
		sc = a.Pkg.Scope()
	}
	var out []types.Object
	for ; sc != nil; sc = sc.Parent() {
		local := sc != a.Pkg.Scope() && sc != types.Universe && sc.Parent() != a.Pkg.Scope()
		for _, n := range sc.Names() {
			o := sc.Lookup(n)
			if local && o.Pos() > p {
				continue
			}
			out = append(out, o)
		}
	}
	return out
}

// qualifier prints the notebook's package unqualified and others by name.
func (a *Analysis) qualifier() types.Qualifier {
	return func(p *types.Package) string {
		if p == a.Pkg || p.Path() == "main" {
			return ""
		}
		return p.Name()
	}
}

func objectKind(obj types.Object) string {
	switch o := obj.(type) {
	case *types.Func:
		if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
			return "method"
		}
		return "function"
	case *types.Builtin:
		return "function"
	case *types.Var:
		if o.IsField() {
			return "field"
		}
		return "variable"
	case *types.Const, *types.Nil:
		return "constant"
	case *types.TypeName:
		return "type"
	case *types.PkgName:
		return "package"
	}
	return ""
}

// generatedName reports names the kernel generates, which cells never
// see.
func generatedName(n string) bool {
	for _, p := range []string{"__ng", exportedPrefix, "NgT_", "NgC_", "NgG_"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return n == "NgX"
}

func keywordCands(prefix string) []Candidate {
	var out []Candidate
	for tok := token.Token(0); tok < 128; tok++ {
		if tok.IsKeyword() && strings.HasPrefix(tok.String(), prefix) && prefix != "" {
			out = append(out, Candidate{Name: tok.String(), Kind: "keyword"})
		}
	}
	return out
}

// ---- the source of cell declarations ----

// declSpan is where a notebook object is declared in its cell's source:
// the declaration's byte range, where its doc comment would end (the
// start of the declaring node) and where a trailing line comment would
// start (-1: none is looked for).
type declSpan struct {
	src                string
	start, end         int
	docStart, lineFrom int
}

// declSource locates the declaration of a notebook object in the source
// of the cell that declares it.
func (s *Session) declSource(a *Analysis, obj types.Object) (declSpan, bool) {
	p := obj.Pos()
	tf := s.fset.File(p)
	if tf == nil {
		return declSpan{}, false
	}
	name := tf.Name()
	seq := fileSeq(name)
	var src string
	var files []*ast.File
	cellOff := func(p token.Pos) int {
		if tf.LineCount() < 2 {
			return -1
		}
		return tf.Offset(p) - tf.Offset(tf.LineStart(2)) // the header is line 1
	}
	if seq == a.cs.seq {
		src = a.cs.code
		files = []*ast.File{a.Decl, a.Stmt}
		cellOff = a.CellOffset
	} else {
		for _, c := range s.cells {
			if c.seq == seq {
				src, files = c.src, c.files
			}
		}
	}
	if src == "" {
		return declSpan{}, false
	}
	if strings.HasSuffix(name, ".hoist") {
		// A variable a top-level statement defines.
		st, en, found := topLevelDef(src, obj.Name())
		return declSpan{src: src, start: st, end: en, docStart: st, lineFrom: -1}, found
	}
	for _, f := range files {
		if f == nil || p < f.FileStart || p > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if p < d.Pos() || p >= d.End() {
				continue
			}
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "__ngRun" {
				// A local of the cell's statements: its doc comment is
				// the one above its line.
				off := cellOff(p)
				ls := strings.LastIndexByte(src[:max(0, min(off, len(src)))], '\n') + 1
				return declSpan{src: src, start: off, end: off, docStart: ls, lineFrom: -1}, off >= 0
			}
			docNode, lineNode := declaringNode(d, p)
			sp := declSpan{src: src, start: cellOff(d.Pos()), end: cellOff(d.End()), docStart: cellOff(docNode.Pos()), lineFrom: -1}
			if lineNode != nil {
				sp.lineFrom = cellOff(lineNode.End())
			}
			ok := sp.start >= 0 && sp.end >= sp.start && sp.end <= len(src) && sp.docStart >= 0
			return sp, ok
		}
	}
	return declSpan{}, false
}

// declaringNode finds, in a top-level declaration, the node whose doc
// comment documents the name at p (a function declaration, a type or
// value spec or its ungrouped declaration, a struct field or interface
// method) and the node a trailing line comment may follow (nil for
// functions).
func declaringNode(d ast.Decl, p token.Pos) (doc, line ast.Node) {
	doc = d
	if _, ok := d.(*ast.FuncDecl); ok {
		// A field of a struct type declared in a function, say: the
		// function's doc is not its doc.
		var field *ast.Field
		ast.Inspect(d, func(n ast.Node) bool {
			if f, ok := n.(*ast.Field); ok {
				for _, id := range f.Names {
					if id.Pos() == p {
						field = f
					}
				}
			}
			return field == nil
		})
		if field != nil {
			return field, field
		}
		return d, nil
	}
	gd, ok := d.(*ast.GenDecl)
	if !ok {
		return d, nil
	}
	ast.Inspect(gd, func(n ast.Node) bool {
		if n == nil || p < n.Pos() || p >= n.End() {
			return false
		}
		switch x := n.(type) {
		case *ast.TypeSpec:
			if x.Name.Pos() == p {
				doc, line = x, x
				if !gd.Lparen.IsValid() {
					doc = gd
				}
				return false
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				if id.Pos() == p {
					doc, line = x, x
					if !gd.Lparen.IsValid() {
						doc = gd
					}
					return false
				}
			}
		case *ast.Field:
			for _, id := range x.Names {
				if id.Pos() == p {
					doc, line = x, x
					return false
				}
			}
			if len(x.Names) == 0 && x.Type.Pos() <= p && p < x.Type.End() {
				doc, line = x, x // an embedded field
			}
		}
		return true
	})
	return doc, line
}

// topLevelDef finds the first top-level statement of a cell that defines
// name ("name := …", "var name …") and returns its byte range.
func topLevelDef(src, name string) (start, end int, ok bool) {
	items, serr := splitItems(src)
	if serr != nil {
		return 0, 0, false
	}
	const hdr = "package p;func _(){"
	for _, it := range items {
		if it.kind != itemStmt && !(it.kind == itemDecl && it.tok == token.VAR) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", hdr+src[it.start:it.end]+"\n}", parser.SkipObjectResolution)
		if err != nil || len(f.Decls) == 0 {
			continue
		}
		fd, _ := f.Decls[0].(*ast.FuncDecl)
		if fd == nil || fd.Body == nil {
			continue
		}
		for _, id := range hoistIdents(fd.Body) {
			if id.Name == name {
				return it.start, it.end, true
			}
		}
	}
	return 0, 0, false
}

// docOf returns the doc comment of a declaration: the comment group
// ending on the line above sp.docStart (which must start its line), else
// a "//" comment after sp.lineFrom on its line.
func (sp declSpan) docOf() string {
	src := sp.src
	if sp.docStart < 0 || sp.docStart > len(src) {
		return ""
	}
	ls := strings.LastIndexByte(src[:sp.docStart], '\n') + 1
	if strings.TrimSpace(src[ls:sp.docStart]) == "" && ls > 0 {
		if d := leadComment(src, lineOf(src, sp.docStart)); d != "" {
			return d
		}
	}
	if sp.lineFrom >= 0 && sp.lineFrom <= len(src) {
		rest := src[sp.lineFrom:]
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, ",") || strings.HasPrefix(rest, ";") {
			rest = strings.TrimSpace(rest[1:])
		}
		if strings.HasPrefix(rest, "//") {
			return (&ast.CommentGroup{List: []*ast.Comment{{Text: rest}}}).Text()
		}
	}
	return ""
}

type comment struct {
	text               string
	startLine, endLine int
	alone              bool // no other token before it on its line
}

// comments scans the comments of src with their lines.
func comments(src string) []comment {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(f, []byte(src), func(token.Position, string) {}, scanner.ScanComments)
	var out []comment
	lastTokLine := 0
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		line := f.Line(pos)
		switch {
		case tok == token.COMMENT:
			out = append(out, comment{text: lit, startLine: line, endLine: line + strings.Count(lit, "\n"), alone: lastTokLine != line})
		case tok == token.SEMICOLON && lit == "\n":
		default:
			lastTokLine = line + strings.Count(lit, "\n")
		}
	}
	return out
}

func lineOf(src string, off int) int {
	if off > len(src) {
		off = len(src)
	}
	return strings.Count(src[:off], "\n") + 1
}

// leadComment returns the text of the comment group that ends on the line
// before line (go/parser's lead comment).
func leadComment(src string, line int) string {
	cs := comments(src)
	end := -1
	for i, c := range cs {
		if c.endLine == line-1 && c.alone {
			end = i
		}
	}
	if end < 0 {
		return ""
	}
	first := end
	for first > 0 && cs[first-1].alone && cs[first-1].endLine >= cs[first].startLine-1 {
		first--
	}
	g := &ast.CommentGroup{}
	for _, c := range cs[first : end+1] {
		g.List = append(g.List, &ast.Comment{Text: c.text})
	}
	return g.Text()
}

// ---- text around the cursor ----

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func isIdentStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r)
}

// clampOffset keeps off within code and on a rune boundary.
func clampOffset(code string, off int) int {
	if off < 0 {
		return 0
	}
	if off > len(code) {
		return len(code)
	}
	for off > 0 && off < len(code) && !utf8.RuneStart(code[off]) {
		off--
	}
	return off
}

// identStart returns the start of the identifier characters ending at off.
func identStart(code string, off int) int {
	for off > 0 {
		r, n := utf8.DecodeLastRuneInString(code[:off])
		if !isIdentRune(r) {
			break
		}
		off -= n
	}
	return off
}

// identEnd returns the end of the identifier characters starting at off.
func identEnd(code string, off int) int {
	for off < len(code) {
		r, n := utf8.DecodeRuneInString(code[off:])
		if !isIdentRune(r) {
			break
		}
		off += n
	}
	return off
}

// callee returns the end offset of the function name before the innermost
// call parenthesis open at off ("strings.Repeat(x, |" → after Repeat).
func callee(code string, off int) (int, bool) {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, off)
	var sc scanner.Scanner
	sc.Init(f, []byte(code[:off]), func(token.Position, string) {}, 0)
	type open struct {
		tok     token.Token
		prevEnd int
		prevID  bool
	}
	var stack []open
	prevEnd, prevID := 0, false
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		o := f.Offset(pos)
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			stack = append(stack, open{tok, prevEnd, prevID})
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		prevID = tok == token.IDENT
		prevEnd = o + len(lit)
		if lit == "" {
			prevEnd = o + len(tok.String())
		}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].tok == token.LPAREN {
			return stack[i].prevEnd, stack[i].prevID
		}
		if stack[i].tok == token.LBRACE {
			return 0, false
		}
	}
	return 0, false
}

// inLiteral reports whether off is inside a comment or an unterminated
// string or rune literal.
func inLiteral(code string, off int) bool {
	src := code[:off]
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	errAt := -1
	sc.Init(f, []byte(src), func(p token.Position, msg string) { errAt = p.Offset }, scanner.ScanComments)
	lastTok, lastOff, lastLit := token.ILLEGAL, -1, ""
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		lastTok, lastOff, lastLit = tok, f.Offset(pos), lit
	}
	switch lastTok {
	case token.COMMENT:
		return strings.HasPrefix(lastLit, "//") && !strings.Contains(lastLit, "\n") && lastOff+len(lastLit) == len(src) ||
			errAt >= lastOff
	case token.STRING, token.CHAR:
		return errAt >= lastOff
	}
	return false
}
