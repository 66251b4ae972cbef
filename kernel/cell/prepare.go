package cell

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

func (f *Front) prepare(src string) (*Program, error) {
	pc, perr := parseCell(src, f.imports, f.pkgName)
	if perr != nil {
		return nil, perr
	}
	r := &rewriter{f: f, pc: pc, ed: &editor{src: src}}
	r.pkgNames = map[string]string{}
	for _, ims := range [][]importSpec{pc.imports, f.imports} {
		for _, im := range ims {
			if im.local == "_" {
				continue
			}
			if _, ok := r.pkgNames[im.path]; ok {
				continue
			}
			if im.local == "." {
				r.pkgNames[im.path] = ""
			} else {
				r.pkgNames[im.path] = im.local
			}
		}
	}
	r.declared = map[string]bool{}
	for k := range f.byKey {
		if !strings.Contains(k, ".") {
			r.declared[k] = true
		}
	}
	for _, k := range cellKeys(pc) {
		if !strings.Contains(k, ".") {
			r.declared[k] = true
		}
	}
	r.importPaths = map[string]string{}
	for _, ims := range [][]importSpec{f.imports, pc.imports} {
		for _, im := range ims {
			if im.local != "." && im.local != "_" {
				r.importPaths[im.local] = im.path
			}
		}
	}
	r.collectGuesses()
	r.gotoLbls = map[string]bool{}
	forCell(pc, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil {
			r.gotoLbls[b.Label.Name] = true
		}
		return true
	})

	p := &Program{}
	r.planTypes()
	if r.needTypes() {
		r.typeCheck()
		p.TypeChecked = true
	}
	r.renameTypeUses()
	r.walk()
	if r.err != nil {
		return nil, r.err
	}
	r.rewriteDefines()
	r.rewriteVarLoops()
	r.rewriteBlanks()
	r.wrapTupleBlocks()
	p.Segments = r.segments()
	if r.ed.bad {
		return nil, &Error{Msg: "neurogo cell front-end: internal error: conflicting rewrites (please report this cell)"}
	}
	p.Result = r.result()
	p.Rewrites = r.count
	p.delta = &delta{imports: pc.imports, entries: r.cellEntries()}
	r.recordTypes()
	return p, nil
}

// forCell calls fn (as ast.Inspect does) on the cell's declarations and
// statements.
func forCell(pc *parsedCell, fn func(ast.Node) bool) {
	for _, d := range pc.decls {
		ast.Inspect(d, fn)
	}
	for _, s := range pc.body {
		ast.Inspect(s, fn)
	}
}

// inspectTop is like forCell but also tells whether a node is in the
// cell's top-level code (not in a function).
func inspectTop(pc *parsedCell, fn func(n ast.Node, top bool) bool) {
	for _, d := range pc.decls {
		ast.Inspect(d, func(n ast.Node) bool { return n == nil || fn(n, false) })
	}
	for _, s := range pc.body {
		depth := 0
		var lits []bool
		ast.Inspect(s, func(n ast.Node) bool {
			if n == nil {
				if lits[len(lits)-1] {
					depth--
				}
				lits = lits[:len(lits)-1]
				return true
			}
			if !fn(n, depth == 0) {
				return false
			}
			_, lit := n.(*ast.FuncLit)
			lits = append(lits, lit)
			if lit {
				depth++
			}
			return true
		})
	}
}

// cellKeys returns the package-level keys the cell declares.
func cellKeys(pc *parsedCell) []string {
	var keys []string
	for _, d := range pc.decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				if b := recvBase(d.Recv); b != "" {
					keys = append(keys, b+"."+d.Name.Name)
				}
				continue
			}
			keys = append(keys, d.Name.Name)
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
	}
	return keys
}

// needTypes reports whether the cell has constructs whose rewrite depends
// on types: ranges over expressions that are not obviously an int (or
// obviously not an int or a func), uses of generic functions, go
// statements with arguments that are not literals, and top-level
// definitions of several variables from one call.
func (r *rewriter) needTypes() bool {
	pc, f := r.pc, r.f
	generic := map[string]bool{}
	for _, e := range f.entries {
		if e.generic {
			generic[e.keys[0]] = true
		}
	}
	for _, d := range pc.decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			generic[fd.Name.Name] = fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0
		}
	}
	imports := r.importPaths
	var dots []string
	for _, ims := range [][]importSpec{f.imports, pc.imports} {
		for _, im := range ims {
			if im.local == "." {
				dots = append(dots, im.path)
			}
		}
	}
	isGenericIn := func(path, name string) bool {
		pkg, err := f.importPkg(path)
		if err != nil {
			return false
		}
		fn, ok := pkg.Scope().Lookup(name).(*types.Func)
		if !ok {
			return false
		}
		sig, ok := fn.Type().(*types.Signature)
		return ok && sig.TypeParams().Len() > 0
	}
	need := false
	if len(r.renamedTypes) > 0 {
		// References to them in the cell's other declarations are renamed.
		for _, d := range pc.decls {
			if gd, ok := d.(*ast.GenDecl); !ok || gd.Tok != token.TYPE {
				need = true
			}
		}
	}
	// Top-level definitions of several variables from one call are
	// declared with their types (defines.go).
	// So are definitions from index expressions (hasIndex).
	anyIndex := func(values []ast.Expr) bool {
		for _, v := range values {
			if hasIndex(v) {
				return true
			}
		}
		return false
	}
	for _, st := range pc.body {
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && (tupleCall(len(as.Lhs), as.Rhs) || anyIndex(as.Rhs)) {
			need = true
		}
	}
	for _, d := range pc.decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				if vs := sp.(*ast.ValueSpec); vs.Type == nil && tupleCall(len(vs.Names), vs.Values) || pc.inCell(gd.Pos()) && anyIndex(vs.Values) {
					need = true
				}
			}
		}
	}
	skip := map[*ast.Ident]bool{}
	inspectTop(pc, func(n ast.Node, top bool) bool {
		if need {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncDecl:
			skip[n.Name] = true
		case *ast.RangeStmt:
			if n.X == nil {
				return true
			}
			assign := n.Tok == token.ASSIGN && n.Key != nil && !isBlank(n.Key)
			if g := r.guess(n.X, top); g.kind == gOther || g.kind == gInt && !assign && n.Value == nil {
				return true
			}
			need = true
		case *ast.CallExpr:
			// min, max and clear are rewritten for the prelude's functions.
			if id, ok := n.Fun.(*ast.Ident); ok && preludeBuiltins[id.Name] && !r.declared[id.Name] {
				need = true
			}
		case *ast.GoStmt:
			if n.Call == nil {
				return true
			}
			for _, a := range n.Call.Args {
				if !syntacticConst(a) {
					need = true
				}
			}
			// A method call binds its receiver, which needs the method set.
			if sel, ok := n.Call.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); !ok || imports[x.Name] == "" || r.declared[x.Name] {
					need = true
				}
			}
		case *ast.Ident:
			if skip[n] {
				return true
			}
			if generic[n.Name] {
				need = true
			}
			for _, path := range dots {
				if isGenericIn(path, n.Name) {
					need = true
				}
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok {
				if path, ok := imports[x.Name]; ok && !r.declared[x.Name] && isGenericIn(path, n.Sel.Name) {
					need = true
				}
			}
		}
		return !need
	})
	return need
}

// typeCheck type-checks the cell in the context of the committed cells.
// Errors are ignored: what is known is used.
func (r *rewriter) typeCheck() { r.check(nil) }

// check type-checks the cell in the context of the committed cells,
// passing the type errors to onErr (if not nil). go/types sees the cell's
// top-level statements as the body of a function, so the globals they
// define are not visible to the cell's declarations; when a declaration
// uses one, the cell is checked a second time with those globals declared
// in the context (with the types the first check found).
func (r *rewriter) check(onErr func(types.Error)) {
	var errs []types.Error
	r.checkWith("", nil, &errs)
	if r.info != nil {
		if extra, names := r.topDefsForDecls(); extra != "" {
			errs = nil
			r.checkWith(extra, names, &errs)
		}
	}
	if onErr != nil {
		for _, e := range errs {
			onErr(e)
		}
	}
}

// topDefsForDecls returns declarations of the globals that the cell's
// top-level := statements define and its declarations use, and their
// names.
func (r *rewriter) topDefsForDecls() (string, []string) {
	pc := r.pc
	used := map[string]bool{}
	for _, d := range pc.decls {
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
	}
	if len(used) == 0 {
		return "", nil
	}
	declared := map[string]bool{}
	for _, k := range cellKeys(pc) {
		declared[k] = true
	}
	var b strings.Builder
	var names []string
	for _, st := range pc.body {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			continue
		}
		for _, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || !used[id.Name] || declared[id.Name] {
				continue
			}
			v, ok := r.info.Defs[id].(*types.Var)
			if !ok {
				continue
			}
			ts, ok := r.typeString(v.Type(), token.NoPos)
			if !ok {
				continue
			}
			declared[id.Name] = true
			names = append(names, id.Name)
			b.WriteString("var " + id.Name + " " + ts + "\n")
		}
	}
	return b.String(), names
}

// checkWith type-checks the cell with the context of the committed cells
// plus extra declarations (of the names in extraNames), collecting the
// errors in errs.
func (r *rewriter) checkWith(extra string, extraNames []string, errs *[]types.Error) {
	pc := r.pc
	exclude := map[string]bool{}
	for _, k := range cellKeys(pc) {
		exclude[k] = true
	}
	for _, k := range extraNames {
		exclude[k] = true
	}
	var files []*ast.File
	if a, err := parser.ParseFile(pc.fset, "", r.f.contextSource(exclude, true)+extra, parser.SkipObjectResolution); err == nil {
		files = append(files, a)
	}
	files = append(files, pc.declAST, pc.stmtAST)
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Instances:  map[*ast.Ident]types.Instance{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{
		Importer: importerFunc(r.f.importPkg),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				*errs = append(*errs, te)
			}
		},
	}
	pkg, _ := conf.Check("main", pc.fset, files, info)
	if pkg == nil {
		return
	}
	r.info, r.pkg = info, pkg
}

// segments renders the program's segments.
func (r *rewriter) segments() []Segment {
	pc := r.pc
	var segs []Segment
	add := func(kind Kind, spans []span) {
		if len(spans) == 0 {
			return
		}
		src, cols := r.ed.render(pc.li, spans)
		if kind == Stmts && startsWithDeclKeyword(src) {
			// yaegi would parse the segment as declarations (and would
			// first try a func literal as one).
			src = ";" + src
		}
		last := spans[len(spans)-1]
		line, _ := pc.li.pos(spans[0].start)
		endLine, _ := pc.li.pos(max(last.end-1, last.start))
		segs = append(segs, Segment{Kind: kind, Src: src, Line: line, EndLine: endLine, cols: cols})
	}
	add(Imports, r.importSpans())
	var cur []span
	kind := Kind(-1)
	for _, it := range pc.items {
		if it.pkgClause || it.kind == Imports {
			continue
		}
		if r.asStmts[it.start] {
			// A var declaration rewritten into statements (defines.go).
			r.addGroup(kind, cur, add)
			cur, kind = nil, Kind(-1)
			add(Stmts, []span{{it.start, it.end, it.semis}})
			continue
		}
		if it.kind != kind {
			r.addGroup(kind, cur, add)
			cur, kind = nil, it.kind
		}
		cur = append(cur, span{it.start, it.end, it.semis})
	}
	r.addGroup(kind, cur, add)
	return segs
}

// addGroup adds the segments of a group of consecutive items of one kind.
// Statements get one segment each, because yaegi positions a run-time panic
// at the first statement of the running function: with one statement per
// Eval, the failing segment tells the line. A group with a top-level defer
// or a goto stays whole, as those need a single function body.
func (r *rewriter) addGroup(kind Kind, spans []span, add func(Kind, []span)) {
	if kind != Stmts || len(spans) < 2 {
		add(kind, spans)
		return
	}
	start, end := spans[0].start, spans[len(spans)-1].end
	var stmts []span
	for _, st := range r.pc.body {
		s, e := r.pc.off(st.Pos()), r.pc.off(st.End())
		if s < start || s > end || e <= s {
			continue
		}
		if _, ok := st.(*ast.EmptyStmt); ok {
			continue
		}
		stmts = append(stmts, span{s, e, nil})
	}
	if len(stmts) < 2 || !r.splittable(start, end) {
		add(kind, spans)
		return
	}
	for _, sp := range stmts {
		add(kind, []span{sp})
	}
}

func (r *rewriter) splittable(start, end int) bool {
	ok := true
	for _, st := range r.pc.body {
		o := r.pc.off(st.Pos())
		if o < start || o > end {
			continue
		}
		if _, isDefer := st.(*ast.DeferStmt); isDefer {
			return false
		}
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if n.Tok == token.GOTO {
					ok = false
				}
			case *ast.LabeledStmt:
				if r.gotoLbls[n.Label.Name] {
					ok = false
				}
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// importSpans returns the spans of the cell's imports, leaving out the
// imports that are already committed: yaegi v0.16.1 fails on importing a
// package a second time ("fmt/_.go redeclared in this block").
func (r *rewriter) importSpans() []span {
	pc := r.pc
	done := map[importSpec]bool{}
	for _, im := range r.f.imports {
		done[importSpec{name: im.name, path: im.path}] = true
	}
	isDone := func(is *ast.ImportSpec) bool {
		path, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			return false
		}
		im := importSpec{path: path}
		if is.Name != nil {
			im.name = is.Name.Name
		}
		return done[im]
	}
	skip := map[int]bool{} // item starts to leave out
	for _, d := range pc.impAST.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT || !pc.inCell(gd.Pos()) {
			continue
		}
		n := 0
		for _, sp := range gd.Specs {
			if is := sp.(*ast.ImportSpec); isDone(is) {
				n++
				if gd.Lparen.IsValid() {
					r.ed.replace(pc.off(is.Pos()), pc.off(is.End()), "")
				}
			}
		}
		if n > 0 && (n == len(gd.Specs) || !gd.Lparen.IsValid()) {
			skip[pc.off(gd.Pos())] = true
		}
	}
	return spansOf(pc.items, func(it item) bool { return it.kind == Imports && !skip[it.start] })
}

// startsWithDeclKeyword reports whether src starts with a keyword that
// makes yaegi parse it as declarations.
func startsWithDeclKeyword(src string) bool {
	t := strings.TrimLeft(src, " \t\r\n")
	for _, kw := range []string{"func", "var", "const", "type", "import"} {
		if strings.HasPrefix(t, kw) && (len(t) == len(kw) || identLen(t[len(kw):len(kw)+1]) == 0) {
			return true
		}
	}
	return false
}

var noResultBuiltins = map[string]bool{"print": true, "println": true, "panic": true, "close": true, "delete": true, "clear": true}

// result reports whether the cell ends with an expression statement that
// has a value.
func (r *rewriter) result() bool {
	pc := r.pc
	var last *item
	for i := range pc.items {
		if !pc.items[i].pkgClause && pc.items[i].kind != Imports {
			last = &pc.items[i]
		}
	}
	if last == nil || last.kind != Stmts || len(pc.body) == 0 {
		return false
	}
	es, ok := pc.body[len(pc.body)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return true
	}
	if r.info != nil {
		if tv, ok := r.info.Types[call]; ok {
			return !tv.IsVoid()
		}
	}
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		for _, d := range pc.decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == fun.Name {
				return fieldCount(fd.Type.Results) > 0
			}
		}
		if e := r.f.byKey[fun.Name]; e != nil {
			return e.kind != token.FUNC || e.results > 0
		}
		if noResultBuiltins[fun.Name] {
			return false
		}
	case *ast.SelectorExpr:
		x, ok := fun.X.(*ast.Ident)
		if !ok || r.declared[x.Name] {
			break
		}
		for _, ims := range [][]importSpec{pc.imports, r.f.imports} {
			for _, im := range ims {
				if im.local != x.Name {
					continue
				}
				pkg, err := r.f.importPkg(im.path)
				if err != nil {
					return true
				}
				if fn, ok := pkg.Scope().Lookup(fun.Sel.Name).(*types.Func); ok {
					if sig, ok := fn.Type().(*types.Signature); ok {
						return sig.Results().Len() > 0
					}
				}
				return true
			}
		}
	}
	return true
}
