package native

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// exportedPrefix renames the exported top-level functions and variables a
// cell declares. A cell package is named main (so that reflection prints
// main.T, as for a program), and the compiler lists the exported functions
// and variables of a package named main as plugin symbols, which a later
// plugin containing the same package could not resolve. Messages and
// tracebacks are demangled.
const exportedPrefix = "ngE_"

// qualifier prints types for generated code: types of the notebook's
// package unqualified (declared in the cell or aliased from an earlier
// one), other packages through generated import names.
type qualifier struct {
	byPath map[string]string
	order  []string
}

func newQualifier() *qualifier { return &qualifier{byPath: map[string]string{}} }

func (q *qualifier) name(p *types.Package) string {
	if p == nil || p.Path() == "main" {
		return ""
	}
	if n, ok := q.byPath[p.Path()]; ok {
		return n
	}
	n := "__ngi" + strconv.Itoa(len(q.order))
	q.byPath[p.Path()] = n
	q.order = append(q.order, p.Path())
	return n
}

func (q *qualifier) imports() []importSpec {
	var out []importSpec
	for _, p := range q.order {
		out = append(out, importSpec{name: q.byPath[p], path: p})
	}
	return out
}

// typeString prints t for generated code. It reports false when t cannot
// be written outside its package (an unexported type of another package,
// a type declared inside a function). Named types of the notebook are
// passed to local (for aliases).
func (q *qualifier) typeString(t types.Type, local func(*types.TypeName)) (string, bool) {
	ok := true
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	// walkNamed checks a named type or alias: printable if exported or
	// the notebook's (then passed to local), and its type arguments.
	walkNamed := func(obj *types.TypeName, args *types.TypeList) {
		if obj.Pkg() != nil {
			if obj.Pkg().Path() == "main" {
				if obj.Parent() != obj.Pkg().Scope() {
					ok = false
				} else if local != nil {
					local(obj)
				}
			} else if !obj.Exported() {
				ok = false
			}
		}
		for i := 0; i < args.Len(); i++ {
			walk(args.At(i))
		}
	}
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			walkNamed(t.Obj(), t.TypeArgs())
		case *types.Alias:
			walkNamed(t.Obj(), t.TypeArgs())
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Signature:
			walk(t.Params())
			walk(t.Results())
		case *types.Tuple:
			for i := 0; i < t.Len(); i++ {
				walk(t.At(i).Type())
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				f := t.Field(i)
				if !f.Exported() && f.Pkg() != nil && f.Pkg().Path() != "main" {
					ok = false
				}
				walk(f.Type())
			}
		case *types.Interface:
			for i := 0; i < t.NumExplicitMethods(); i++ {
				m := t.ExplicitMethod(i)
				if !m.Exported() && m.Pkg() != nil && m.Pkg().Path() != "main" {
					ok = false
				}
				walk(m.Type())
			}
			for i := 0; i < t.NumEmbeddeds(); i++ {
				walk(t.EmbeddedType(i))
			}
		case *types.Union:
			for i := 0; i < t.Len(); i++ {
				walk(t.Term(i).Type())
			}
		case *types.TypeParam:
			walk(t.Constraint())
		}
	}
	walk(t)
	return types.TypeString(t, q.name), ok
}

// replacement replaces [start, end) of the cell with text.
type replacement struct {
	start, end int
	text       string
	// pri orders edits at one position: lower first (a wrapper's opening
	// before what it wraps, its closing after).
	pri int
}

// generator writes the Go file of a cell package.
type generator struct {
	cs      *cellState
	q       *qualifier
	repl    []replacement
	cells   map[int]*compiled // earlier cells referenced, by index
	aliases map[string]*types.TypeName
	calls   map[*ast.SelectorExpr]bool // method selections rewritten with their call
	bySeq   map[int]*compiled
	errs    []*Error
}

func (cs *cellState) generate() (string, error) {
	s := cs.s
	g := &generator{cs: cs, q: cs.q(), calls: map[*ast.SelectorExpr]bool{}, cells: map[int]*compiled{}, aliases: map[string]*types.TypeName{}, bySeq: map[int]*compiled{}}
	for _, c := range s.cells {
		g.bySeq[c.seq] = c
	}
	info := cs.info
	// Identifiers: references to earlier cells, renamed exported names.
	// Calls of unexported methods of earlier cells' types and literals
	// taken by address are rewritten as wholes (see access.go): find them
	// first.
	amps := map[*ast.CompositeLit]*ast.UnaryExpr{}
	for _, f := range []*ast.File{cs.fA, cs.fB} {
		ast.Inspect(f, func(n ast.Node) bool {
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
				if cl, ok := ast.Unparen(u.X).(*ast.CompositeLit); ok {
					amps[cl] = u
				}
			}
			return true
		})
	}
	visit := func(f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				g.accessCall(n)
			case *ast.CompositeLit:
				g.accessLiteral(n, amps[n])
			case *ast.Ident:
				g.ident(n)
			case *ast.SelectorExpr:
				g.selector(n)
			case *ast.GoStmt:
				g.goStmt(n)
			}
			return true
		})
	}
	visit(cs.fA)
	visit(cs.fB)
	g.interruptPoints(cs.fB)
	if len(g.errs) > 0 {
		return "", &RunError{Kind: "compile", Errors: g.errs}
	}
	g.repl = append(g.repl, cs.edits...)
	// The cell's final value.
	if es := cs.lastExpr(); es != nil {
		wrap := ""
		switch {
		case showable(info, es.X):
			wrap = "__ngrt.Result("
		case valueAndError(info, es.X):
			wrap = "__ngrt.ResultErr("
		}
		if wrap != "" {
			st, en := cs.cellOff(es.X.Pos()), cs.cellOff(es.X.End())
			g.repl = append(g.repl, replacement{st, st, wrap, -1}, replacement{en, en, ")", 1})
		}
	}
	var b strings.Builder
	b.WriteString("package main\n\n")
	// Hoisted variables (types printed first: they may need aliases).
	var hoisted []string
	for _, id := range cs.hoist {
		t, ok := cs.hoistTypes[id.Name]
		if !ok {
			continue
		}
		ts, _ := g.q.typeString(t, g.alias)
		hoisted = append(hoisted, "var "+g.localName(id.Name, true)+" "+ts)
	}
	exports := g.exports() + g.accessors()
	// Imports: the user's, used by this cell; generated ones.
	b.WriteString("import (\n")
	used := g.usedImports()
	for _, im := range used {
		if im.name != "" {
			b.WriteString("\t" + im.name + " " + strconv.Quote(im.path) + "\n")
		} else {
			b.WriteString("\t" + strconv.Quote(im.path) + "\n")
		}
	}
	b.WriteString("\t__ngrt \"github.com/neurogo/neurogo/kernel/kernelrt\"\n")
	b.WriteString("\t__ngreflect \"reflect\"\n")
	idx := make([]int, 0, len(g.cells))
	for i := range g.cells {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		c := g.cells[i]
		b.WriteString("\t" + c.alias + " " + strconv.Quote(c.pkg) + "\n")
	}
	for _, im := range g.q.imports() {
		b.WriteString("\t" + im.name + " " + strconv.Quote(im.path) + "\n")
	}
	b.WriteString(")\n\n")
	// Aliases of earlier cells' types.
	names := make([]string, 0, len(g.aliases))
	for n := range g.aliases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.WriteString(g.aliasDecl(g.aliases[n]) + "\n")
	}
	for _, h := range hoisted {
		b.WriteString(h + "\n")
	}
	// Declarations, then the statements in __ngRun.
	// By position; inserts at one position keep the order they were made
	// in (outer constructs first).
	sort.SliceStable(g.repl, func(i, j int) bool {
		if g.repl[i].start != g.repl[j].start {
			return g.repl[i].start < g.repl[j].start
		}
		return g.repl[i].pri < g.repl[j].pri
	})
	for _, it := range cs.items {
		if it.kind == itemDecl {
			b.WriteString(g.itemText(it))
		}
	}
	b.WriteString("\nfunc __ngRun() {\n")
	for _, it := range cs.items {
		if it.kind == itemStmt {
			b.WriteString(g.itemText(it))
		}
	}
	b.WriteString("\n}\n")
	b.WriteString("\n//line exports.go:1\n")
	b.WriteString(exports)
	b.WriteString("\nvar _ = __ngreflect.ValueOf\n")
	fmt.Fprintf(&b, "\nfunc init() { __ngrt.Register(%q, __ngRun, %s) }\n", cs.pkg, g.symbols())
	return b.String(), nil
}

// q returns the cell's qualifier (shared by hoisting and generation so
// that generated import names agree).
func (cs *cellState) q() *qualifier {
	if cs.qual == nil {
		cs.qual = newQualifier()
	}
	return cs.qual
}

// valueAndError reports whether the final expression is a call with two
// results, the second an error (plot, err := viz.Raster(…) as a cell's
// last line): the value is the cell's result when the error is nil, the
// error is the cell's error otherwise.
func valueAndError(info *types.Info, x ast.Expr) bool {
	tv, ok := info.Types[x]
	if !ok {
		return false
	}
	tup, ok := tv.Type.(*types.Tuple)
	if !ok || tup.Len() != 2 || printCall(info, x) {
		return false
	}
	return types.Identical(tup.At(1).Type(), types.Universe.Lookup("error").Type())
}

// showable reports whether the final expression has one value to show.
func showable(info *types.Info, x ast.Expr) bool {
	tv, ok := info.Types[x]
	if !ok || tv.Type == nil || tv.IsVoid() || tv.IsType() {
		return false
	}
	if _, ok := tv.Type.(*types.Tuple); ok {
		return false
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return false
	}
	return !printCall(info, x)
}

// printCall reports whether x calls a print function (fmt.Println and
// friends, log.Print…), whose byte count and error are not worth showing
// as the cell's result.
func printCall(info *types.Info, x ast.Expr) bool {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	pn, ok := info.Uses[id].(*types.PkgName)
	if !ok {
		return false
	}
	p, name := pn.Imported().Path(), sel.Sel.Name
	return (p == "fmt" && (strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fprint"))) || (p == "log" && strings.HasPrefix(name, "Print"))
}

// owner returns the earlier cell that declared a package-level object of
// the notebook, nil for the current cell, and ok=false for other objects.
func (g *generator) owner(obj types.Object) (*compiled, bool) {
	if obj == nil || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		return nil, false
	}
	return g.declaredIn(obj)
}

// mangled reports whether a top-level object of the cell is renamed.
func mangled(obj types.Object) bool {
	switch obj.(type) {
	case *types.Func, *types.Var:
		return obj.Exported()
	}
	return false
}

func (g *generator) localName(name string, isVar bool) string {
	if isVar && token.IsExported(name) {
		return exportedPrefix + name
	}
	return name
}

func (g *generator) ident(id *ast.Ident) {
	cs := g.cs
	if obj := cs.info.Defs[id]; obj != nil {
		if c, ok := g.owner(obj); ok && c == nil && mangled(obj) {
			g.replace(id.Pos(), id.End(), exportedPrefix+id.Name)
		}
		return
	}
	obj := cs.info.Uses[id]
	c, ok := g.owner(obj)
	if !ok {
		return
	}
	if c == nil {
		if mangled(obj) {
			g.replace(id.Pos(), id.End(), exportedPrefix+id.Name)
		}
		return
	}
	g.cells[c.index] = c
	switch obj := obj.(type) {
	case *types.TypeName:
		g.alias(obj)
	case *types.Func:
		if obj.Type().(*types.Signature).TypeParams().Len() > 0 {
			g.replace(id.Pos(), id.End(), c.alias+".NgG_"+id.Name)
		} else {
			g.replace(id.Pos(), id.End(), c.alias+".NgX{}.F_"+id.Name)
		}
	case *types.Var:
		g.replace(id.Pos(), id.End(), "(*"+c.alias+".NgX{}.V_"+id.Name+"())")
	case *types.Const:
		g.replace(id.Pos(), id.End(), c.alias+".NgC_"+id.Name)
	}
}

// goStmt makes a goroutine that a cell starts recover its panic: compiled
// code that panics on a goroutine would end the executor and every
// variable with it. "go f(a, b)" becomes
// "go func(__ngf F, __nga0 A, __nga1 B) { defer __ngrt.GoRecover(); __ngf(__nga0, __nga1) }(f, a, b)",
// which evaluates f and the arguments when the go statement runs, as Go
// does. Calls the wrapper cannot type (builtins, conversions, generic
// functions, unexported types of other packages) stay as they are.
func (g *generator) goStmt(st *ast.GoStmt) {
	call := st.Call
	info := g.cs.info
	ftv := info.Types[call.Fun]
	if ftv.IsType() || ftv.IsBuiltin() || ftv.Type == nil {
		return
	}
	if id := identOf(call.Fun); id != nil {
		if _, ok := info.Instances[id]; ok {
			return
		}
	}
	sig, ok := ftv.Type.Underlying().(*types.Signature)
	if !ok || sig.TypeParams().Len() > 0 {
		return
	}
	fs, ok := g.q.typeString(sig, g.alias)
	if !ok {
		return
	}
	var params, args []string
	n := sig.Params().Len()
	for i := range call.Args {
		pt := paramType(sig, i)
		name := "__nga" + strconv.Itoa(i)
		if sig.Variadic() && call.Ellipsis.IsValid() && i == len(call.Args)-1 {
			pt = sig.Params().At(n - 1).Type().(*types.Slice).Elem()
			ts, ok := g.q.typeString(pt, g.alias)
			if !ok {
				return
			}
			params = append(params, name+" ..."+ts)
			args = append(args, name+"...")
			continue
		}
		ts, ok := g.q.typeString(pt, g.alias)
		if !ok {
			return
		}
		params = append(params, name+" "+ts)
		args = append(args, name)
	}
	if len(call.Args) == 1 && n > 1 {
		return // go f(g()) with several results
	}
	lit := "go func(__ngf " + fs
	for _, p := range params {
		lit += ", " + p
	}
	lit += ") { defer __ngrt.GoRecover(); __ngf(" + strings.Join(args, ", ") + ") }("
	g.replace(st.Go, call.Fun.Pos(), lit)
	sep := ""
	if len(call.Args) > 0 {
		sep = ", "
	}
	g.replace(call.Fun.End(), call.Lparen+1, sep)
}

// selector rewrites the selection of an unexported field or method of a
// type declared in an earlier cell (a different package once compiled).
func (g *generator) selector(se *ast.SelectorExpr) {
	// os.Exit stops the cell, not the process (see kernelrt.Exit);
	// time.Sleep returns on interrupt (kernelrt.Sleep).
	if fn, ok := g.cs.info.Uses[se.Sel].(*types.Func); ok && fn.Pkg() != nil {
		via := ""
		switch {
		case fn.Pkg().Path() == "os" && fn.Name() == "Exit":
			via = "__ngrt.ExitVia("
		case fn.Pkg().Path() == "time" && fn.Name() == "Sleep":
			via = "__ngrt.SleepVia("
		}
		if via != "" {
			if st := g.cs.cellOff(se.Pos()); st >= 0 {
				g.repl = append(g.repl, replacement{st, st, via, 0})
				en := g.cs.cellOff(se.End())
				g.repl = append(g.repl, replacement{en, en, ")", 0})
			}
			return
		}
	}
	if sel, ok := g.cs.info.Selections[se]; ok {
		g.accessSelector(se, sel)
	}
}

func (g *generator) replace(from, to token.Pos, text string) {
	st, en := g.cs.cellOff(from), g.cs.cellOff(to)
	if st < 0 || en < 0 {
		return
	}
	g.repl = append(g.repl, replacement{st, en, text, 0})
}

func (g *generator) alias(tn *types.TypeName) {
	c, ok := g.owner(tn)
	if !ok || c == nil {
		return
	}
	g.cells[c.index] = c
	g.aliases[tn.Name()] = tn
}

// aliasDecl declares an earlier cell's type under its own name.
func (g *generator) aliasDecl(tn *types.TypeName) string {
	c, _ := g.owner(tn)
	tps := typeParams(tn.Type())
	if tps == nil || tps.Len() == 0 {
		return fmt.Sprintf("type %s = %s.NgT_%s", tn.Name(), c.alias, tn.Name())
	}
	decl, args := g.tparamLists(tps)
	return fmt.Sprintf("type %s%s = %s.NgT_%s%s", tn.Name(), decl, c.alias, tn.Name(), args)
}

func typeParams(t types.Type) *types.TypeParamList {
	switch t := t.(type) {
	case *types.Named:
		return t.TypeParams()
	case *types.Alias:
		return t.TypeParams()
	}
	return nil
}

func (g *generator) tparamLists(tps *types.TypeParamList) (decl, args string) {
	var d, a []string
	for i := 0; i < tps.Len(); i++ {
		tp := tps.At(i)
		cs, _ := g.q.typeString(tp.Constraint(), g.alias)
		name := tp.Obj().Name()
		if name == "_" {
			name = "__ngT" + strconv.Itoa(i) // a blank type parameter needs a name to be passed on
		}
		d = append(d, name+" "+cs)
		a = append(a, name)
	}
	return "[" + strings.Join(d, ", ") + "]", "[" + strings.Join(a, ", ") + "]"
}

// itemText returns an item's text with the replacements applied, after a
// line directive that gives it its cell position.
func (g *generator) itemText(it item) string {
	code := g.cs.code
	var b strings.Builder
	l, c := lineCol(code, it.start)
	fmt.Fprintf(&b, "\n//line cell:%d:%d\n", l, c)
	pos := it.start
	for _, r := range g.repl {
		if r.start < it.start || r.end > it.end || r.start < pos {
			continue
		}
		b.WriteString(code[pos:r.start])
		b.WriteString(r.text)
		pos = r.end
		if r.end > r.start || r.text != "" {
			// Resynchronise columns after text of another length.
			rl, rc := lineCol(code, r.end)
			fmt.Fprintf(&b, "/*line cell:%d:%d*/", rl, rc)
		}
	}
	b.WriteString(code[pos:it.end])
	b.WriteString("\n")
	return b.String()
}

// usedImports returns the user imports the cell's code refers to.
func (g *generator) usedImports() []importSpec {
	usedPath := map[string]bool{}
	usedName := map[string]bool{}
	for id, obj := range g.cs.info.Uses {
		f := g.cs.s.fset.File(id.Pos())
		if f == nil || fileSeq(f.Name()) != g.cs.seq || strings.HasSuffix(f.Name(), ".hoist") {
			continue
		}
		if pn, ok := obj.(*types.PkgName); ok {
			usedName[pn.Name()] = true
			continue
		}
		if obj.Pkg() != nil {
			usedPath[obj.Pkg().Path()] = true
		}
	}
	var out []importSpec
	for _, im := range g.cs.imports {
		switch im.name {
		case "_":
			for _, own := range g.cs.own {
				if own == im {
					out = append(out, im)
				}
			}
		case ".":
			if usedPath[im.path] {
				out = append(out, im)
			}
		default:
			if usedName[im.key()] {
				out = append(out, im)
			}
		}
	}
	return out
}

// exports declares what later cells use to reach this cell's names.
func (g *generator) exports() string {
	cs := g.cs
	var b strings.Builder
	b.WriteString("type NgX struct{}\n")
	scope := cs.pkgT.Scope()
	names := cs.topNames()
	for _, n := range names {
		obj := scope.Lookup(n)
		if obj == nil {
			continue
		}
		switch obj := obj.(type) {
		case *types.TypeName:
			if tps := typeParams(obj.Type()); tps != nil && tps.Len() > 0 {
				decl, args := g.tparamLists(tps)
				fmt.Fprintf(&b, "type NgT_%s%s = %s%s\n", n, decl, n, args)
			} else {
				fmt.Fprintf(&b, "type NgT_%s = %s\n", n, n)
			}
		case *types.Const:
			fmt.Fprintf(&b, "const NgC_%s = %s\n", n, n)
		case *types.Var:
			ts, ok := g.q.typeString(obj.Type(), g.alias)
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "func (NgX) V_%s() *%s { return &%s }\n", n, ts, g.localName(n, true))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			params, args, ok1 := g.params(sig)
			results, ok2 := g.q.typeString(sig.Results(), g.alias)
			if !ok1 || !ok2 {
				continue
			}
			if sig.Results().Len() == 0 {
				results = ""
			}
			ret := "return "
			if sig.Results().Len() == 0 {
				ret = ""
			}
			if tps := sig.TypeParams(); tps != nil && tps.Len() > 0 {
				decl, targs := g.tparamLists(tps)
				fmt.Fprintf(&b, "func NgG_%s%s(%s) %s { %s%s%s(%s) }\n", n, decl, params, results, ret, g.localName(n, true), targs, args)
			} else {
				fmt.Fprintf(&b, "func (NgX) F_%s(%s) %s { %s%s(%s) }\n", n, params, results, ret, g.localName(n, true), args)
			}
		}
	}
	return b.String()
}

// symbols lists the cell's variables, functions and types as reflect
// values for the evaluator.
func (g *generator) symbols() string {
	cs := g.cs
	scope := cs.pkgT.Scope()
	names := cs.topNames()
	var b strings.Builder
	b.WriteString("__ngrt.Symbols{")
	n := 0
	for _, name := range names {
		local := g.localName(name, true)
		switch obj := scope.Lookup(name).(type) {
		case *types.Var:
			fmt.Fprintf(&b, "%q: __ngreflect.ValueOf(&%s).Elem(), ", name, local)
		case *types.Func:
			if obj.Type().(*types.Signature).TypeParams().Len() > 0 {
				continue
			}
			fmt.Fprintf(&b, "%q: __ngreflect.ValueOf(%s), ", name, local)
		case *types.TypeName:
			if tps := typeParams(obj.Type()); tps != nil && tps.Len() > 0 {
				continue
			}
			if it, ok := obj.Type().Underlying().(*types.Interface); ok && !it.IsMethodSet() {
				continue // a constraint, not a type of values
			}
			fmt.Fprintf(&b, "%q: __ngrt.TypePtr[%s](), ", name, name)
		default:
			continue
		}
		n++
	}
	b.WriteString("}")
	if n == 0 {
		return "__ngrt.Symbols{}"
	}
	return b.String()
}

// params prints a signature's parameters as "p0 T0, p1 ...T1" and the
// matching arguments "p0, p1...".
func (g *generator) params(sig *types.Signature) (string, string, bool) {
	var ps, as []string
	ok := true
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		name := "p" + strconv.Itoa(i)
		if sig.Variadic() && i == sig.Params().Len()-1 {
			ts, k := g.q.typeString(t.(*types.Slice).Elem(), g.alias)
			ok = ok && k
			ps = append(ps, name+" ..."+ts)
			as = append(as, name+"...")
			continue
		}
		ts, k := g.q.typeString(t, g.alias)
		ok = ok && k
		ps = append(ps, name+" "+ts)
		as = append(as, name)
	}
	return strings.Join(ps, ", "), strings.Join(as, ", "), ok
}

// interruptPoints makes the cell's own top-level code stop on the first
// interrupt (see kernelrt.Poll): every loop in the statements (and in the
// function literals among them) polls at each iteration, and a receive
// "<-ch" waits with the interrupt in view. Declared functions are left as
// written, at full speed. Receives with ok ("v, ok := <-ch") and in select
// cases stay as they are.
func (g *generator) interruptPoints(f *ast.File) {
	skip := map[*ast.UnaryExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
				if u, ok := ast.Unparen(n.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
					skip[u] = true
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == 2 && len(n.Values) == 1 {
				if u, ok := ast.Unparen(n.Values[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
					skip[u] = true
				}
			}
		case *ast.CommClause:
			if n.Comm != nil {
				ast.Inspect(n.Comm, func(m ast.Node) bool {
					if u, ok := m.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
						skip[u] = true
					}
					return true
				})
			}
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			g.insert(n.Body.Lbrace+1, " __ngrt.Poll();", 0)
		case *ast.RangeStmt:
			g.insert(n.Body.Lbrace+1, " __ngrt.Poll();", 0)
		case *ast.UnaryExpr:
			if n.Op != token.ARROW || skip[n] {
				return true
			}
			if _, ok := g.cs.info.Types[n.X].Type.Underlying().(*types.Chan); !ok {
				return true
			}
			g.replace(n.OpPos, n.OpPos+2, "__ngrt.Recv(")
			g.insert(n.X.End(), ")", 1)
		}
		return true
	})
}

// topNames returns the cell's top-level names other than methods: what it
// declares and the variables its statements define, sorted.
func (cs *cellState) topNames() []string {
	names := make([]string, 0, len(cs.names)+len(cs.hoist))
	for n := range cs.names {
		if !strings.Contains(n, ".") {
			names = append(names, n)
		}
	}
	for _, id := range cs.hoist {
		if _, ok := cs.hoistTypes[id.Name]; ok {
			names = append(names, id.Name)
		}
	}
	sort.Strings(names)
	return names
}
