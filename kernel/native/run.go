package native

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"plugin"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/neurogo/neurogo/kernel/kernelrt"
)

// cellSeq numbers cell packages process-wide: a plugin's package path can
// be loaded once per process, whatever the session.
var cellSeq atomic.Int64

// cellState is the work on one cell between parsing and loading.
type cellState struct {
	s     *Session
	code  string
	items []item
	seq   int
	pkg   string

	imports []importSpec // all imports visible to the cell (persisted + own)
	own     []importSpec // the cell's own import items

	hdrA, hdrB int // header lengths of the decl and statement files
	fA, fB, fC *ast.File
	names      map[string]bool // top-level names this cell declares
	hoist      []*ast.Ident    // top-level statement variables
	hoistTypes map[string]types.Type

	pkgT *types.Package
	info *types.Info

	qual  *qualifier
	edits []replacement // text edits of hoisting
	stale []string      // names dropped: they use a type this cell redeclares
	// redeclared are the earlier types this cell declares again; moved,
	// those among them it took over to add methods (migrate).
	redeclared, moved []string
}

// Run compiles a cell, loads it and runs its statements.
func (s *Session) Run(ctx context.Context, code string) (Result, error) {
	s.Timings = Timings{}
	t0 := time.Now()
	cs := &cellState{s: s, code: code, names: map[string]bool{}}
	if err := cs.parse(ctx); err != nil {
		return Result{}, err
	}
	if len(cs.items) == 0 {
		return Result{}, nil
	}
	if err := cs.check(); err != nil {
		return Result{}, err
	}
	s.Timings.Check = time.Since(t0)
	// A cell of imports only has nothing to build: later cells see them.
	// (Not so for an import for side effects, _ "image/png", whose init
	// must run: that cell is built.)
	importsOnly := true
	for _, it := range cs.items {
		if it.kind != itemImport {
			importsOnly = false
		}
	}
	for _, im := range cs.own {
		if im.name == "_" || im.name == "." {
			importsOnly = false
		}
	}
	if importsOnly {
		s.imports = mergeImports(s.imports, cs.own)
		return Result{}, nil
	}
	if res, err, ok := cs.evalCell(); ok {
		s.Timings.Run = time.Since(t0) - s.Timings.Check
		return res, err
	}
	t1 := time.Now()
	src, err := cs.generate()
	if err != nil {
		return Result{}, err
	}
	s.Timings.Generate = time.Since(t1)
	so, archive, err := cs.build(ctx, src)
	if err != nil {
		return Result{}, err
	}
	t2 := time.Now()
	if _, err := plugin.Open(so); err != nil {
		msg := "loading the compiled cell: " + err.Error()
		if strings.Contains(err.Error(), "different version of package") {
			msg += "\nThe sources under " + s.tc.root + " changed since the kernel binary was built (cells are compiled against them): rebuild the kernel (scripts/start, or go build ./cmd/neurogo and neurogo install), then restart it."
		}
		return Result{}, &RunError{Kind: "compile", Output: msg}
	}
	s.Timings.Open = time.Since(t2)
	cs.commit(archive)
	if len(cs.stale) > 0 {
		were := map[bool]string{true: "was", false: "were"}[len(cs.stale) == 1]
		if len(cs.moved) > 0 {
			fmt.Fprintf(os.Stderr, "note: a method declared here moved %s to this cell (a method belongs with its type); %s used the earlier declaration and %s removed from the notebook (run the cells that declare them again)\n",
				strings.Join(cs.moved, ", "), strings.Join(cs.stale, ", "), were)
		} else {
			fmt.Fprintf(os.Stderr, "note: %s redeclared; %s used the earlier declaration and %s removed from the notebook (run the cells that declare them again)\n",
				strings.Join(cs.redeclared, ", "), strings.Join(cs.stale, ", "), were)
		}
	}
	c, ok := kernelrt.Lookup(cs.pkg)
	if !ok {
		return Result{}, &RunError{Kind: "compile", Output: "the compiled cell did not register itself"}
	}
	t3 := time.Now()
	defer func() { s.Timings.Run = time.Since(t3) }()
	return s.runCell(c, cs)
}

// Analysis is a type-checked cell that is not run, for completion and
// inspection: the notebook's earlier cells and the code form one package.
type Analysis struct {
	Fset *token.FileSet
	// Decl and Stmt are the cell's declarations and its statements
	// (wrapped in a function __ngRun); positions map to the cell with
	// CellOffset.
	Decl, Stmt *ast.File
	Pkg        *types.Package
	Info       *types.Info
	// Errors are the type errors found (analysis goes on despite them).
	Errors []*Error
	cs     *cellState
}

// CellOffset maps a position in Decl or Stmt to a byte offset in the code
// (-1 outside it).
func (a *Analysis) CellOffset(p token.Pos) int { return a.cs.cellOff(p) }

// Pos maps a byte offset in the code to a position in the file that holds
// it (the statement file if the offset is in a statement, else the
// declaration file), or token.NoPos.
func (a *Analysis) Pos(off int) token.Pos {
	for _, it := range a.cs.items {
		if off >= it.start && off <= it.end {
			if it.kind == itemStmt {
				return a.Stmt.FileStart + token.Pos(off+a.cs.hdrB)
			}
			if it.kind == itemDecl {
				return a.Decl.FileStart + token.Pos(off+a.cs.hdrA)
			}
		}
	}
	return token.NoPos
}

// Analyze type-checks code as the next cell without running it. Syntax
// errors are returned; type errors are in the Analysis.
func (s *Session) Analyze(ctx context.Context, code string) (*Analysis, error) {
	cs := &cellState{s: s, code: code, names: map[string]bool{}}
	if err := cs.parse(ctx); err != nil {
		return nil, err
	}
	if len(cs.items) == 0 {
		return nil, errors.New("empty cell")
	}
	a := &Analysis{Fset: s.fset, Decl: cs.fA, Stmt: cs.fB, cs: cs}
	if err := cs.check(); err != nil {
		var re *RunError
		if !errors.As(err, &re) || cs.info == nil {
			return nil, err
		}
		a.Errors = re.Errors
	}
	a.Pkg, a.Info = cs.pkgT, cs.info
	return a, nil
}

// Imports returns the imports cells see (name as written, "" if not
// renamed, and path), in order.
func (s *Session) Imports() [][2]string {
	var out [][2]string
	for _, im := range s.imports {
		out = append(out, [2]string{im.name, im.path})
	}
	return out
}

// parse splits the cell and parses its declaration and statement files.
func (cs *cellState) parse(ctx context.Context) error {
	items, serr := splitItems(cs.code)
	if serr != nil {
		return &RunError{Kind: "compile", Errors: []*Error{serr}}
	}
	hasStmt := false
	for _, it := range items {
		if it.kind == itemStmt {
			hasStmt = true
		}
	}
	var kept []item
	for _, it := range items {
		if it.kind == itemPackage {
			continue
		}
		// With statements in the cell, its var declarations run in order
		// with them (a notebook reads top to bottom); without, the cell is a
		// Go file and its variables are package variables.
		if hasStmt && it.kind == itemDecl && it.tok == token.VAR {
			it.kind = itemStmt
		}
		kept = append(kept, it)
	}
	cs.items = kept
	for _, it := range kept {
		if it.kind != itemImport {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p;"+cs.code[it.start:it.end], parser.ImportsOnly)
		if err != nil {
			l, c := lineCol(cs.code, it.start)
			return &RunError{Kind: "compile", Errors: []*Error{{Line: l, Col: c, Msg: err.Error()}}}
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			spec := importSpec{path: p}
			if im.Name != nil {
				spec.name = im.Name.Name
			}
			cs.own = append(cs.own, spec)
		}
	}
	var paths []string
	for _, im := range mergeImports(cs.s.imports, cs.own) {
		paths = append(paths, im.path)
	}
	if err := cs.s.Warm(ctx, paths...); err != nil {
		// Name the import that failed, at its line.
		for _, it := range kept {
			if it.kind == itemImport {
				l, c := lineCol(cs.code, it.start)
				return &RunError{Kind: "compile", Errors: []*Error{{Line: l, Col: c, Msg: err.Error()}}}
			}
		}
		return &RunError{Kind: "compile", Errors: []*Error{{Msg: err.Error()}}}
	}
	// The packages' own names (known once listed) decide which import a
	// later one of the same name replaces.
	for i := range cs.own {
		cs.own[i].pkg = cs.s.tc.packageName(cs.own[i].path)
	}
	cs.imports = mergeImports(cs.s.imports, cs.own)
	cs.seq = int(cellSeq.Add(1))
	cs.pkg = cellPathPrefix + strconv.Itoa(cs.seq)
	if errs := cs.buildFiles(); len(errs) > 0 {
		return &RunError{Kind: "compile", Errors: errs}
	}
	// Methods declared here on a type of an earlier cell: the type moves
	// here with its methods (see migrate).
	if extra := cs.migrate(); extra != "" {
		base := len(cs.code) + 1
		cs.code += "\n" + extra
		more, serr := splitItems(extra)
		if serr != nil {
			return &RunError{Kind: "compile", Output: "internal: moving a type: " + serr.Error()}
		}
		for _, it := range more {
			it.start += base
			it.end += base
			it.migrated = true
			cs.items = append(cs.items, it)
		}
		if errs := cs.buildFiles(); len(errs) > 0 {
			return &RunError{Kind: "compile", Errors: errs}
		}
	}
	return nil
}

// buildFiles parses the cell's declaration and statement files.
func (cs *cellState) buildFiles() []*Error {
	imp := importDecl(cs.imports)
	hA := "package main;" + imp + "\n"
	hB := "package main;" + imp + "func __ngRun(){\n"
	cs.hdrA, cs.hdrB = len(hA), len(hB)
	textA := hA + blankExcept(cs.code, cs.items, func(it item) bool { return it.kind == itemDecl })
	textB := hB + blankExcept(cs.code, cs.items, func(it item) bool { return it.kind == itemStmt }) + "\n}\n"
	var errs []*Error
	var err error
	cs.fA, err = parser.ParseFile(cs.s.fset, fileName(cs.seq, "decl"), textA, parser.ParseComments|parser.AllErrors)
	errs = append(errs, cs.parseErrors(err)...)
	cs.fB, err = parser.ParseFile(cs.s.fset, fileName(cs.seq, "stmt"), textB, parser.AllErrors)
	errs = append(errs, cs.parseErrors(err)...)
	return errs
}

func fileName(seq int, kind string) string { return "c" + strconv.Itoa(seq) + "." + kind }

// fileSeq returns the cell sequence number of a view file name.
func fileSeq(name string) int {
	name = strings.TrimPrefix(name, "c")
	if i := strings.IndexByte(name, '.'); i > 0 {
		n, err := strconv.Atoi(name[:i])
		if err == nil {
			return n
		}
	}
	return -1
}

func (cs *cellState) parseErrors(err error) []*Error {
	if err == nil {
		return nil
	}
	var list scanner.ErrorList
	if !errors.As(err, &list) {
		return []*Error{{Msg: err.Error()}}
	}
	lastLine, lastCol := lineCol(cs.code, len(strings.TrimRight(cs.code, " \t\n")))
	var out []*Error
	for _, e := range list {
		l, c := e.Pos.Line-1, e.Pos.Column
		if l > lastLine || (l == lastLine && c > lastCol) {
			l, c = lastLine, lastCol // past the cell: the closing brace the statements were wrapped in
		}
		if l < 1 {
			l, c = 0, 0
		}
		out = append(out, &Error{Line: l, Col: c, Msg: e.Msg})
	}
	return out
}

func lineCol(src string, off int) (int, int) {
	l, c := 1, 1
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			l, c = l+1, 1
		} else {
			c++
		}
	}
	return l, c
}

// mergeImports adds own to the persisted imports; a later import of the
// same name replaces an earlier one.
func mergeImports(old, own []importSpec) []importSpec {
	byName := map[string]int{}
	var out []importSpec
	for _, list := range [][]importSpec{old, own} {
		for _, im := range list {
			k := im.key()
			if k == "_" || k == "." {
				out = append(out, im)
				continue
			}
			if i, ok := byName[k]; ok {
				out[i] = im
				continue
			}
			byName[k] = len(out)
			out = append(out, im)
		}
	}
	return out
}

func importDecl(ims []importSpec) string {
	if len(ims) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("import(")
	seen := map[string]bool{}
	for _, im := range ims {
		k := im.name + " " + im.path
		if seen[k] {
			continue
		}
		seen[k] = true
		if im.name != "" {
			b.WriteString(im.name + " ")
		}
		b.WriteString(strconv.Quote(im.path) + ";")
	}
	b.WriteString(");")
	return b.String()
}

// declNames returns the top-level names a decl file declares ("T.M" for
// methods).
func declNames(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				if t := recvTypeName(d); t != "" {
					out[t+"."+d.Name.Name] = true
				}
				continue
			}
			if d.Name.Name != "init" && d.Name.Name != "_" {
				out[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					out[sp.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if n.Name != "_" {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	return out
}

func recvTypeName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	t := d.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name
		}
		return ""
	}
}

// hoistIdents returns the variables the cell's top-level statements
// declare (x in "x := f()" and "var x T"), in order.
func hoistIdents(body *ast.BlockStmt) []*ast.Ident {
	var out []*ast.Ident
	seen := map[string]bool{}
	add := func(id *ast.Ident) {
		if id.Name == "_" || seen[id.Name] {
			return
		}
		seen[id.Name] = true
		out = append(out, id)
	}
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, l := range st.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						add(id)
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, sp := range gd.Specs {
					for _, n := range sp.(*ast.ValueSpec).Names {
						add(n)
					}
				}
			}
		}
	}
	return out
}

// viewFiles returns the files of earlier cells that still declare live
// names, each cut down to those declarations.
func (s *Session) viewFiles(owner map[string]int) []*ast.File {
	var out []*ast.File
	for _, c := range s.cells {
		for _, f := range c.files {
			if f == nil {
				continue
			}
			nf := *f
			nf.Decls = nil
			for _, d := range f.Decls {
				if !keepDecl(d, c.index, owner) {
					continue
				}
				// Later cells need an earlier function's signature, not its
				// body (checked when its cell ran): dropping bodies keeps
				// the check of a cell fast however long the notebook.
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					nd := *fd
					nd.Body = nil
					d = &nd
				}
				nf.Decls = append(nf.Decls, d)
			}
			out = append(out, &nf)
		}
	}
	return out
}

func keepDecl(d ast.Decl, idx int, owner map[string]int) bool {
	own := func(name string) bool {
		o, ok := owner[name]
		return ok && o == idx
	}
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			return own(recvTypeName(d))
		}
		if d.Name.Name == "init" {
			return false
		}
		return own(d.Name.Name)
	case *ast.GenDecl:
		if d.Tok == token.IMPORT {
			return true
		}
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				if own(sp.Name.Name) {
					return true
				}
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					if own(n.Name) {
						return true
					}
				}
			}
		}
	}
	return false
}

// check type-checks the cell against the notebook so far: all earlier
// cells' live declarations form one package with this cell, so names,
// unexported fields and generic inference resolve as in a Go file.
func (cs *cellState) check() error {
	s := cs.s
	cs.names = declNames(cs.fA)
	cs.hoist = hoistIdents(cs.fB.Decls[len(cs.fB.Decls)-1].(*ast.FuncDecl).Body)
	owner := map[string]int{}
	for k, v := range s.owner {
		owner[k] = v
	}
	const current = -1
	for n := range cs.names {
		owner[n] = current
	}
	for _, id := range cs.hoist {
		owner[id.Name] = current
	}
	// A type this cell redeclares takes its methods with it.
	for n := range owner {
		if i := strings.IndexByte(n, '.'); i > 0 && owner[n[:i]] == current && owner[n] != current {
			delete(owner, n)
		}
	}
	// What uses a type this cell redeclares leaves the scope (see stale.go).
	redeclared := map[string]bool{}
	for n := range cs.names {
		if _, ok := s.owner[n]; ok && !strings.Contains(n, ".") {
			redeclared[n] = true
		}
	}
	cs.stale = s.stale(redeclared)
	cs.redeclared = cs.redeclared[:0]
	for n := range redeclared {
		cs.redeclared = append(cs.redeclared, n)
	}
	sort.Strings(cs.redeclared)
	for _, n := range cs.stale {
		if owner[n] != current {
			delete(owner, n)
		}
		for m := range owner {
			if strings.HasPrefix(m, n+".") && owner[m] != current {
				delete(owner, m)
			}
		}
	}
	old := s.viewFiles(owner)
	if len(cs.hoist) > 0 {
		// First pass: the types of the top-level statement variables.
		info := newInfo()
		var errs1 []types.Error
		conf := types.Config{Importer: s.imp, Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				errs1 = append(errs1, te)
			}
		}}
		pkg1, _ := conf.Check("main", s.fset, append(append([]*ast.File{}, old...), cs.fA, cs.fB), info)
		// A variable whose type the first pass could not find: its
		// definition has an error, which the first pass states best
		// (undefined: iter, not undefined: next).
		hoisted := map[string]bool{}
		untyped := false
		for _, id := range cs.hoist {
			hoisted[id.Name] = true
			if obj := info.Defs[id]; obj == nil || obj.Type() == nil || obj.Type() == types.Typ[types.Invalid] {
				untyped = true
			}
		}
		if untyped {
			cs.pkgT, cs.info = pkg1, info
			if err := cs.cellErrors(errs1, hoisted); err != nil {
				return err
			}
		}
		cs.hoistTypes = map[string]types.Type{}
		var lines []string
		q := cs.q()
		for _, id := range cs.hoist {
			obj := info.Defs[id]
			if obj == nil || obj.Type() == nil || obj.Type() == types.Typ[types.Invalid] {
				continue
			}
			t := obj.Type()
			if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
				t = types.Default(t)
			}
			ts, ok := q.typeString(t, nil)
			if !ok {
				l, c := cs.cellPos(id.Pos())
				return &RunError{Kind: "compile", Errors: []*Error{{Line: l, Col: c, Msg: fmt.Sprintf("%s cannot be kept between cells: its type %s is not exported by its package (assign it to a variable of an exported type or an interface)", id.Name, t)}}}
			}
			cs.hoistTypes[id.Name] = t
			lines = append(lines, "var "+id.Name+" "+ts)
		}
		textC := "package main;" + importDecl(q.imports()) + "\n" + strings.Join(lines, "\n") + "\n"
		f, err := parser.ParseFile(s.fset, fileName(cs.seq, "hoist"), textC, 0)
		if err != nil {
			return &RunError{Kind: "compile", Output: "internal: hoisted variables: " + err.Error() + "\n" + textC}
		}
		cs.fC = f
		cs.defineToAssign()
	}
	info := newInfo()
	var errs []types.Error
	conf := types.Config{Importer: s.imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			errs = append(errs, te)
		}
	}}
	files := append(append([]*ast.File{}, old...), cs.fA, cs.fB)
	if cs.fC != nil {
		files = append(files, cs.fC)
	}
	pkg, _ := conf.Check("main", s.fset, files, info)
	cs.pkgT, cs.info = pkg, info
	if err := cs.cellErrors(errs, nil); err != nil {
		return err
	}
	return nil
}

func dedupErrors(in []*Error) []*Error {
	seen := map[string]bool{}
	var out []*Error
	for _, e := range in {
		k := fmt.Sprint(e.Line, e.Col, e.Msg)
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

func newInfo() *types.Info {
	return &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances:  map[*ast.Ident]types.Instance{},
		Implicits:  map[ast.Node]types.Object{},
	}
}

// defineToAssign turns the top-level definitions of the statement file
// into assignments to the hoisted package variables, in the AST (for the
// second type check) and as text edits (for the generated code).
func (cs *cellState) defineToAssign() {
	f := cs.fB
	body := f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body
	edit := func(from, to token.Pos, text string) {
		cs.edits = append(cs.edits, replacement{cs.cellOff(from), cs.cellOff(to), text, 0})
	}
	for i, st := range body.List {
		switch x := st.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				x.Tok = token.ASSIGN
				edit(x.TokPos, x.TokPos+2, "=")
			}
		case *ast.DeclStmt:
			gd, ok := x.Decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			var list []ast.Stmt
			// "var (" and ")" go; each spec becomes "names = values" or
			// nothing.
			if gd.Lparen.IsValid() {
				edit(gd.TokPos, gd.Lparen+1, "")
				edit(gd.Rparen, gd.Rparen+1, "")
			} else {
				edit(gd.TokPos, gd.TokPos+3, "")
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				if len(vs.Values) == 0 {
					edit(vs.Pos(), vs.End(), "")
					continue
				}
				var lhs []ast.Expr
				var names []string
				for _, n := range vs.Names {
					lhs = append(lhs, n)
					names = append(names, n.Name)
				}
				edit(vs.Names[0].Pos(), vs.Values[0].Pos(), strings.Join(names, ", ")+" = ")
				list = append(list, &ast.AssignStmt{Lhs: lhs, TokPos: vs.Names[0].Pos(), Tok: token.ASSIGN, Rhs: vs.Values})
			}
			switch len(list) {
			case 0:
				body.List[i] = &ast.EmptyStmt{Semicolon: x.Pos(), Implicit: true}
			case 1:
				body.List[i] = list[0]
			default:
				body.List[i] = &ast.BlockStmt{Lbrace: x.Pos(), List: list, Rbrace: x.End()}
			}
		}
	}
}

// lastExpr returns the cell's final expression statement, if any.
func (cs *cellState) lastExpr() *ast.ExprStmt {
	body := cs.fB.Decls[len(cs.fB.Decls)-1].(*ast.FuncDecl).Body
	if len(body.List) == 0 {
		return nil
	}
	// The final statement must also be the cell's last item (of its own:
	// declarations moved in with their type come after it).
	var lastItem item
	for _, it := range cs.items {
		if !it.migrated {
			lastItem = it
		}
	}
	if lastItem.kind != itemStmt {
		return nil
	}
	es, _ := body.List[len(body.List)-1].(*ast.ExprStmt)
	return es
}

// cellErrors turns the type errors in this cell's files into a RunError
// (nil if none). Errors that the notebook's rules make moot are left out:
// unused imports (imports persist between cells), the cell's final
// expression being unused (it is the result), and the names in skip
// (the first pass's view of top-level variables).
func (cs *cellState) cellErrors(errs []types.Error, skip map[string]bool) error {
	s := cs.s
	var out []*Error
	last := cs.lastExpr()
	for _, te := range errs {
		name := s.fset.File(te.Pos).Name()
		if fileSeq(name) != cs.seq {
			continue // an earlier cell's stale code
		}
		if strings.Contains(te.Msg, "imported") && strings.HasSuffix(te.Msg, "and not used") && strings.HasPrefix(te.Msg, "\"") {
			continue
		}
		if last != nil && te.Pos >= last.Pos() && te.Pos < last.End() && strings.HasSuffix(te.Msg, " is not used") {
			continue // the cell's result
		}
		if skip != nil {
			if n, ok := strings.CutPrefix(te.Msg, "undefined: "); ok && skip[n] {
				continue
			}
			if n, ok := strings.CutPrefix(te.Msg, "declared and not used: "); ok && skip[n] {
				continue
			}
		}
		if strings.HasSuffix(name, ".hoist") {
			out = append(out, &Error{Msg: "internal: " + te.Msg})
			continue
		}
		l, c := cs.cellPos(te.Pos)
		out = append(out, &Error{Line: l, Col: c, Msg: te.Msg})
	}
	if len(out) == 0 {
		return nil
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Col < out[j].Col
	})
	return &RunError{Kind: "compile", Errors: dedupErrors(out)}
}

// cellPos maps a position in one of the cell's files to a cell line and
// column.
func (cs *cellState) cellPos(p token.Pos) (int, int) {
	pos := cs.s.fset.Position(p)
	if pos.Line <= 1 {
		return 0, 0 // header (imports)
	}
	return pos.Line - 1, pos.Column
}

// cellOff maps a position in the decl or statement file to a byte offset
// in the cell.
func (cs *cellState) cellOff(p token.Pos) int {
	f := cs.s.fset.File(p)
	off := f.Offset(p)
	switch f.Name() {
	case fileName(cs.seq, "decl"):
		return off - cs.hdrA
	case fileName(cs.seq, "stmt"):
		return off - cs.hdrB
	}
	return -1
}

// build compiles and links the generated source.
func (cs *cellState) build(ctx context.Context, src string) (so, archive string, err error) {
	s := cs.s
	base := filepath.Join(s.dir, "c"+strconv.Itoa(cs.seq))
	goFile := base + ".go"
	if err := os.WriteFile(goFile, []byte(src), 0o644); err != nil {
		return "", "", err
	}
	extra := map[string]string{}
	for _, c := range s.cells {
		extra[c.pkg] = c.archive
	}
	cfg := base + ".importcfg"
	if err := s.tc.importcfg(cfg, extra); err != nil {
		return "", "", err
	}
	t0 := time.Now()
	archive = base + ".a"
	if out, err := s.tc.compile(ctx, cs.pkg, goFile, archive, cfg); err != nil {
		return "", "", cs.toolError(ctx, "compile", out, err)
	}
	s.Timings.Compile = time.Since(t0)
	t1 := time.Now()
	so = base + ".so"
	if out, err := s.tc.link(ctx, cs.pkg, archive, so, cfg); err != nil {
		return "", "", cs.toolError(ctx, "link", out, err)
	}
	s.Timings.Link = time.Since(t1)
	return so, archive, nil
}

func (cs *cellState) toolError(ctx context.Context, tool string, out []byte, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	// Compile errors in cell lines ("cell:3:5: msg") become cell errors;
	// anything else is an internal error worth reporting whole.
	var errs []*Error
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if rest, ok := strings.CutPrefix(line, "cell:"); ok {
			parts := strings.SplitN(rest, ":", 3)
			if len(parts) == 3 {
				l, e1 := strconv.Atoi(parts[0])
				c, e2 := strconv.Atoi(parts[1])
				if e1 == nil && e2 == nil {
					errs = append(errs, &Error{Line: l, Col: c, Msg: strings.TrimSpace(demangle(parts[2]))})
					continue
				}
			}
		}
	}
	if len(errs) > 0 {
		return &RunError{Kind: "compile", Errors: errs}
	}
	return &RunError{Kind: "compile", Output: fmt.Sprintf("internal error: go tool %s failed (%v):\n%s", tool, err, out)}
}

// commit records the loaded cell: its names become visible to later cells.
func (cs *cellState) commit(archive string) {
	s := cs.s
	c := &compiled{index: len(s.cells), pkg: cs.pkg, alias: "__ngc" + strconv.Itoa(cs.seq), archive: archive,
		names: map[string]bool{}, src: cs.code, seq: cs.seq, hdrA: cs.hdrA}
	c.files = []*ast.File{cs.fA}
	if cs.fC != nil {
		c.files = append(c.files, cs.fC)
	}
	for _, n := range cs.stale {
		delete(s.owner, n)
		for m := range s.owner {
			if strings.HasPrefix(m, n+".") {
				delete(s.owner, m)
			}
		}
	}
	for n := range cs.names {
		c.names[n] = true
		s.owner[n] = c.index
	}
	for _, id := range cs.hoist {
		if _, ok := cs.hoistTypes[id.Name]; ok {
			c.names[id.Name] = true
			s.owner[id.Name] = c.index
		}
	}
	for n, o := range s.owner {
		if i := strings.IndexByte(n, '.'); i > 0 && s.owner[n[:i]] == c.index && o != c.index {
			delete(s.owner, n)
		}
	}
	s.cells = append(s.cells, c)
	s.imports = mergeImports(s.imports, cs.own)
	s.lastPkg = cs.pkgT
}

// runCell runs a loaded cell's statements on a goroutine of their own (so
// that runtime.Goexit ends only the cell) and collects its result.
func (s *Session) runCell(c *kernelrt.Cell, cs *cellState) (Result, error) {
	if c.Run == nil {
		return Result{}, nil
	}
	kernelrt.TakeResult()
	done := make(chan error, 1)
	go func() {
		var err error
		defer func() { done <- err }()
		kernelrt.SetCellGoroutine()
		kernelrt.SetRunning(true)
		defer kernelrt.SetRunning(false)
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(kernelrt.InterruptPanic); ok {
					err = &RunError{Kind: "interrupt"}
					return
				}
				if re, ok := r.(kernelrt.ResultError); ok {
					err = &RunError{Kind: "error", Value: re.Err}
					return
				}
				if ex, ok := r.(kernelrt.ExitPanic); ok {
					err = &RunError{Kind: "exit", Code: ex.Code}
					return
				}
				err = &RunError{Kind: "panic", Value: r, Frames: s.frames(debug.Stack(), cs.seq)}
			}
		}()
		c.Run()
	}()
	if err := <-done; err != nil {
		return Result{}, err
	}
	if kernelrt.Interrupted() {
		// The cell ended early (a sleep or a toolkit call returned on the
		// interrupt): it was interrupted all the same.
		return Result{}, &RunError{Kind: "interrupt"}
	}
	v, ok := kernelrt.TakeResult()
	return Result{Value: v, HasValue: ok}, nil
}

// frames extracts the frames of cell code from a goroutine stack, innermost
// first, up to the running cell's top level.
func (s *Session) frames(stack []byte, seq int) []Frame {
	lines := strings.Split(string(stack), "\n")
	var out []Frame
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if !strings.HasPrefix(fn, cellPathPrefix) {
			continue
		}
		loc := strings.TrimSpace(lines[i+1])
		if !strings.HasPrefix(loc, "cell:") {
			continue
		}
		loc = strings.TrimPrefix(loc, "cell:")
		if j := strings.IndexByte(loc, ' '); j > 0 {
			loc = loc[:j]
		}
		line, _ := strconv.Atoi(loc)
		rest := strings.TrimPrefix(fn, cellPathPrefix)
		dot := strings.IndexByte(rest, '.')
		if dot < 0 {
			continue
		}
		cseq, _ := strconv.Atoi(rest[:dot])
		name := rest[dot+1:]
		if j := strings.LastIndexByte(name, '('); j > 0 {
			name = name[:j]
		}
		name = demangle(strings.Replace(name, "__ngRun", "cell", 1))
		fr := Frame{Func: name, Line: line, Current: cseq == seq, Cell: -1}
		for _, c := range s.cells {
			if c.seq == cseq {
				fr.Cell = c.index
			}
		}
		out = append(out, fr)
		if cseq == seq && name == "cell" {
			break
		}
	}
	return out
}

// demangle undoes the renaming of exported top-level names in messages.
func demangle(s string) string {
	s = strings.ReplaceAll(s, exportedPrefix, "")
	return s
}
