package native

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"runtime/debug"

	"github.com/neurogo/neurogo/kernel/kernelrt"
)

// Binder returns a top-level function or variable of an imported package
// as a reflect value (variables addressable), or a type as a nil pointer
// to it (reflect.ValueOf((*T)(nil))).
type Binder func(path, name string) (reflect.Value, bool)

// SetBinder lets statement cells call imported packages without being
// compiled (see evaluator).
func (s *Session) SetBinder(b Binder) { s.binder = b }

// The evaluator runs a cell of statements that only read and assign
// variables, call functions and methods and build values — "x", "s.Run(1)",
// "fmt.Println(err)", "y = f(x) * 2" — directly on the values of the
// compiled cells and imported packages through reflection, in a
// millisecond instead of the build of a plugin. It accepts a cell only if
// every construct in it is one it evaluates exactly as compiled Go does
// (checked on the type-checked syntax tree, before anything runs); any
// other cell is compiled. It never guesses: a cell it cannot map to
// reflect types completely is compiled too.
type evaluator struct {
	cs   *cellState
	info *types.Info
	s    *Session
}

type notEval struct{ why string }

// evalCell evaluates the cell if it can; ok=false means "compile it".
func (cs *cellState) evalCell() (res Result, err error, ok bool) {
	s := cs.s
	if s.binder == nil || len(cs.hoist) > 0 || len(cs.own) > 0 {
		return Result{}, nil, false
	}
	for _, it := range cs.items {
		if it.kind != itemStmt {
			return Result{}, nil, false
		}
	}
	ev := &evaluator{cs: cs, info: cs.info, s: s}
	body := cs.fB.Decls[len(cs.fB.Decls)-1].(*ast.FuncDecl).Body
	// Check the whole cell first: nothing runs unless all of it can.
	if !ev.canStmts(body.List) {
		return Result{}, nil, false
	}
	last := cs.lastExpr()
	done := make(chan struct{})
	go func() {
		defer close(done)
		kernelrt.SetCellGoroutine()
		kernelrt.SetRunning(true)
		defer kernelrt.SetRunning(false)
		defer func() {
			if r := recover(); r != nil {
				if ne, isNE := r.(notEval); isNE {
					err = &RunError{Kind: "compile", Output: "internal: evaluator: " + ne.why}
					return
				}
				if _, isInt := r.(kernelrt.InterruptPanic); isInt {
					err = &RunError{Kind: "interrupt"}
					return
				}
				if ex, isEx := r.(kernelrt.ExitPanic); isEx {
					if ex.Code != 0 {
						err = &RunError{Kind: "exit", Code: ex.Code}
					}
					return
				}
				err = &RunError{Kind: "panic", Value: r, Frames: s.frames(debug.Stack(), cs.seq)}
			}
		}()
		for _, st := range body.List {
			if es, isES := st.(*ast.ExprStmt); isES && es == last && showable(cs.info, es.X) {
				v := ev.expr(es.X)
				if v.IsValid() && v.CanInterface() {
					res = Result{Value: v.Interface(), HasValue: true}
				}
				continue
			}
			if es, isES := st.(*ast.ExprStmt); isES && es == last && valueAndError(cs.info, es.X) {
				out := ev.callAll(es.X.(*ast.CallExpr))
				if e := out[1]; !e.IsNil() {
					err = &RunError{Kind: "error", Value: e.Interface()}
					return
				}
				if out[0].IsValid() && out[0].CanInterface() {
					res = Result{Value: out[0].Interface(), HasValue: true}
				}
				continue
			}
			ev.stmt(st)
		}
	}()
	<-done
	if err == nil && kernelrt.Interrupted() {
		err = &RunError{Kind: "interrupt"}
	}
	return res, err, true
}

// ---- eligibility ----

func (ev *evaluator) canStmts(list []ast.Stmt) bool {
	for _, st := range list {
		if !ev.canStmt(st) {
			return false
		}
	}
	return true
}

func (ev *evaluator) canStmt(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ExprStmt:
		return ev.canExpr(st.X)
	case *ast.EmptyStmt:
		return true
	case *ast.IncDecStmt:
		return ev.canLHS(st.X) && isNumeric(ev.typeOf(st.X))
	case *ast.AssignStmt:
		switch st.Tok {
		case token.ASSIGN:
			if len(st.Lhs) != len(st.Rhs) {
				return false // f() with several results: compile
			}
		case token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.QUO_ASSIGN, token.REM_ASSIGN:
			if !isNumeric(ev.typeOf(st.Lhs[0])) && !(st.Tok == token.ADD_ASSIGN && isString(ev.typeOf(st.Lhs[0]))) {
				return false
			}
		default:
			return false
		}
		for _, l := range st.Lhs {
			if !ev.canLHS(l) {
				return false
			}
			if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
				continue
			}
			if _, ok := ev.rtype(ev.typeOf(l)); !ok {
				return false
			}
		}
		for _, r := range st.Rhs {
			if !ev.canExpr(r) {
				return false
			}
		}
		return true
	}
	return false
}

func (ev *evaluator) canLHS(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		if x.Name == "_" {
			return true
		}
		v, ok := ev.varOf(x)
		return ok && v.CanSet()
	case *ast.ParenExpr:
		return ev.canLHS(x.X)
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		// Map elements cannot be set through Index; compile those.
		if ix, ok := x.(*ast.IndexExpr); ok {
			if _, isMap := ev.typeOf(ix.X).Underlying().(*types.Map); isMap {
				return false
			}
		}
		return ev.canExpr(x)
	}
	return false
}

func (ev *evaluator) typeOf(x ast.Expr) types.Type {
	if tv, ok := ev.info.Types[x]; ok && tv.Type != nil {
		return tv.Type
	}
	return types.Typ[types.Invalid]
}

func (ev *evaluator) canExpr(x ast.Expr) bool {
	tv, ok := ev.info.Types[x]
	if !ok {
		return false
	}
	if tv.Value != nil {
		_, ok := ev.rtype(tv.Type)
		return ok || isUntyped(tv.Type)
	}
	if tv.IsType() {
		return false
	}
	switch x := x.(type) {
	case *ast.Ident:
		if x.Name == "nil" {
			return true
		}
		switch ev.info.Uses[x].(type) {
		case *types.Var:
			_, ok := ev.varOf(x)
			return ok
		case *types.Func:
			_, ok := ev.funcOf(x)
			return ok
		}
		return false
	case *ast.ParenExpr:
		return ev.canExpr(x.X)
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if _, isPkg := ev.info.Uses[id].(*types.PkgName); isPkg {
				switch ev.info.Uses[x.Sel].(type) {
				case *types.Var, *types.Func:
					_, ok := ev.pkgValue(x)
					return ok
				}
				return false
			}
		}
		sel, ok := ev.info.Selections[x]
		if !ok || !sel.Obj().Exported() || sel.Kind() != types.FieldVal {
			return false // method values: compile
		}
		return ev.canExpr(x.X)
	case *ast.CallExpr:
		if x.Ellipsis.IsValid() {
			return false
		}
		ftv := ev.info.Types[x.Fun]
		if ftv.IsType() {
			// Conversions between basic types.
			if len(x.Args) != 1 || !isBasic(ftv.Type) || !isBasic(ev.typeOf(x.Args[0])) {
				return false
			}
			if _, ok := ev.rtype(ftv.Type); !ok {
				return false
			}
			return ev.canExpr(x.Args[0])
		}
		if ftv.IsBuiltin() {
			id, ok := ast.Unparen(x.Fun).(*ast.Ident)
			if !ok || (id.Name != "len" && id.Name != "cap") || len(x.Args) != 1 {
				return false
			}
			switch ev.typeOf(x.Args[0]).Underlying().(type) {
			case *types.Slice, *types.Array, *types.Map, *types.Chan:
			case *types.Basic:
				if !isString(ev.typeOf(x.Args[0])) {
					return false
				}
			default:
				return false
			}
			return ev.canExpr(x.Args[0])
		}
		if !ev.canCallee(x.Fun) {
			return false
		}
		sig, ok := ftv.Type.Underlying().(*types.Signature)
		if !ok {
			return false
		}
		if len(x.Args) == 1 && sig.Params().Len() > 1 {
			return false // f(g()) with several results
		}
		for i, a := range x.Args {
			if !ev.canExpr(a) {
				return false
			}
			pt := paramType(sig, i)
			if _, ok := ev.rtype(pt); !ok {
				return false
			}
		}
		return true
	case *ast.IndexExpr:
		if _, isInst := ev.info.Instances[identOf(x.X)]; isInst {
			return false
		}
		switch ev.typeOf(x.X).Underlying().(type) {
		case *types.Slice, *types.Array, *types.Map:
		case *types.Pointer:
			return false
		case *types.Basic:
			if !isString(ev.typeOf(x.X)) {
				return false
			}
		default:
			return false
		}
		if _, ok := ev.rtype(ev.typeOf(x.Index)); !ok {
			return false
		}
		return ev.canExpr(x.X) && ev.canExpr(x.Index)
	case *ast.StarExpr:
		return ev.canExpr(x.X)
	case *ast.UnaryExpr:
		switch x.Op {
		case token.SUB, token.ADD:
			return isNumeric(ev.typeOf(x.X)) && ev.canExpr(x.X)
		case token.NOT:
			return ev.canExpr(x.X)
		case token.AND:
			if _, ok := x.X.(*ast.CompositeLit); ok {
				return ev.canExpr(x.X)
			}
			return ev.canLHS(x.X)
		}
		return false
	case *ast.BinaryExpr:
		lt, rt := ev.typeOf(x.X), ev.typeOf(x.Y)
		if !isBasic(lt) || !isBasic(rt) {
			if x.Op == token.EQL || x.Op == token.NEQ {
				// Comparisons with nil of pointers, slices, maps, errors.
				if isNilExpr(x.Y) || isNilExpr(x.X) {
					return ev.canExpr(x.X) && ev.canExpr(x.Y)
				}
			}
			return false
		}
		switch x.Op {
		case token.SHL, token.SHR, token.AND, token.OR, token.XOR, token.AND_NOT:
			return false
		}
		return ev.canExpr(x.X) && ev.canExpr(x.Y)
	case *ast.CompositeLit:
		t := tv.Type
		if _, ok := ev.rtype(t); !ok {
			return false
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for _, el := range x.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					return false
				}
				k, ok := kv.Key.(*ast.Ident)
				if !ok || !token.IsExported(k.Name) || !ev.canExpr(kv.Value) {
					return false
				}
			}
			return true
		case *types.Slice, *types.Map:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if _, isMap := u.(*types.Map); !isMap {
						return false
					}
					if !ev.canExpr(kv.Key) || !ev.canExpr(kv.Value) {
						return false
					}
					continue
				}
				if _, isMap := u.(*types.Map); isMap || !ev.canExpr(el) {
					return false
				}
			}
			return true
		}
		return false
	}
	return false
}

func isNilExpr(x ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	return ok && id.Name == "nil"
}

func identOf(x ast.Expr) *ast.Ident {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// canCallee: a function value from a cell or package, a method of an
// exported name on a value.
func (ev *evaluator) canCallee(f ast.Expr) bool {
	f = ast.Unparen(f)
	if id := identOf(f); id != nil {
		if _, isInst := ev.info.Instances[id]; isInst {
			return false // generic: compile
		}
	}
	if se, ok := f.(*ast.SelectorExpr); ok {
		if sel, ok := ev.info.Selections[se]; ok {
			if sel.Kind() != types.MethodVal || !sel.Obj().Exported() {
				return false
			}
			return ev.canExpr(se.X)
		}
	}
	return ev.canExpr(f)
}

func paramType(sig *types.Signature, i int) types.Type {
	n := sig.Params().Len()
	if sig.Variadic() && i >= n-1 {
		return sig.Params().At(n - 1).Type().(*types.Slice).Elem()
	}
	if i < n {
		return sig.Params().At(i).Type()
	}
	return types.Typ[types.Invalid]
}

func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

func isBasic(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() != types.UnsafePointer && b.Kind() != types.UntypedNil && b.Kind() != types.Invalid
}

func isNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0 && b.Info()&types.IsComplex == 0
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// ---- symbols and types ----

// varOf returns the addressable value of a variable an earlier cell
// declared.
func (ev *evaluator) varOf(id *ast.Ident) (reflect.Value, bool) {
	obj, ok := ev.info.Uses[id].(*types.Var)
	if !ok {
		return reflect.Value{}, false
	}
	return ev.cellSymbol(obj)
}

func (ev *evaluator) funcOf(id *ast.Ident) (reflect.Value, bool) {
	obj, ok := ev.info.Uses[id].(*types.Func)
	if !ok || obj.Type().(*types.Signature).TypeParams().Len() > 0 {
		return reflect.Value{}, false
	}
	return ev.cellSymbol(obj)
}

func (ev *evaluator) cellSymbol(obj types.Object) (reflect.Value, bool) {
	if obj.Pkg() != ev.cs.pkgT || obj.Parent() != obj.Pkg().Scope() {
		return reflect.Value{}, false
	}
	f := ev.s.fset.File(obj.Pos())
	if f == nil {
		return reflect.Value{}, false
	}
	seq := fileSeq(f.Name())
	for _, c := range ev.s.cells {
		if c.seq == seq {
			rc, ok := kernelrt.Lookup(c.pkg)
			if !ok {
				return reflect.Value{}, false
			}
			v, ok := rc.Symbols[obj.Name()]
			return v, ok
		}
	}
	return reflect.Value{}, false
}

func (ev *evaluator) pkgValue(se *ast.SelectorExpr) (reflect.Value, bool) {
	obj := ev.info.Uses[se.Sel]
	if obj == nil || obj.Pkg() == nil {
		return reflect.Value{}, false
	}
	return ev.s.binder(obj.Pkg().Path(), obj.Name())
}

var basicTypes = map[types.BasicKind]reflect.Type{
	types.Bool: reflect.TypeFor[bool](), types.Int: reflect.TypeFor[int](), types.Int8: reflect.TypeFor[int8](),
	types.Int16: reflect.TypeFor[int16](), types.Int32: reflect.TypeFor[int32](), types.Int64: reflect.TypeFor[int64](),
	types.Uint: reflect.TypeFor[uint](), types.Uint8: reflect.TypeFor[uint8](), types.Uint16: reflect.TypeFor[uint16](),
	types.Uint32: reflect.TypeFor[uint32](), types.Uint64: reflect.TypeFor[uint64](), types.Uintptr: reflect.TypeFor[uintptr](),
	types.Float32: reflect.TypeFor[float32](), types.Float64: reflect.TypeFor[float64](),
	types.Complex64: reflect.TypeFor[complex64](), types.Complex128: reflect.TypeFor[complex128](),
	types.String: reflect.TypeFor[string](),
	// untyped constants take their default types
	types.UntypedBool: reflect.TypeFor[bool](), types.UntypedInt: reflect.TypeFor[int](), types.UntypedRune: reflect.TypeFor[rune](),
	types.UntypedFloat: reflect.TypeFor[float64](), types.UntypedComplex: reflect.TypeFor[complex128](), types.UntypedString: reflect.TypeFor[string](),
}

// rtype maps a type to its reflect type, if the evaluator can.
func (ev *evaluator) rtype(t types.Type) (reflect.Type, bool) {
	switch t := t.(type) {
	case *types.Basic:
		rt, ok := basicTypes[t.Kind()]
		return rt, ok
	case *types.Alias:
		if t.TypeArgs().Len() > 0 {
			return nil, false
		}
		return ev.rtype(types.Unalias(t))
	case *types.Named:
		if t.TypeArgs().Len() > 0 {
			return nil, false
		}
		obj := t.Obj()
		if obj.Pkg() == nil {
			if obj.Name() == "error" {
				return reflect.TypeFor[error](), true
			}
			return nil, false
		}
		var v reflect.Value
		var ok bool
		if obj.Pkg() == ev.cs.pkgT {
			v, ok = ev.cellSymbol(obj)
		} else {
			v, ok = ev.s.binder(obj.Pkg().Path(), obj.Name())
		}
		if !ok || v.Kind() != reflect.Pointer || !v.IsNil() {
			return nil, false
		}
		return v.Type().Elem(), true
	case *types.Pointer:
		e, ok := ev.rtype(t.Elem())
		if !ok {
			return nil, false
		}
		return reflect.PointerTo(e), true
	case *types.Slice:
		e, ok := ev.rtype(t.Elem())
		if !ok {
			return nil, false
		}
		return reflect.SliceOf(e), true
	case *types.Array:
		e, ok := ev.rtype(t.Elem())
		if !ok {
			return nil, false
		}
		return reflect.ArrayOf(int(t.Len()), e), true
	case *types.Map:
		k, ok1 := ev.rtype(t.Key())
		e, ok2 := ev.rtype(t.Elem())
		if !ok1 || !ok2 {
			return nil, false
		}
		return reflect.MapOf(k, e), true
	case *types.Interface:
		if t.Empty() {
			return reflect.TypeFor[any](), true
		}
		return nil, false
	case *types.Signature:
		if t.TypeParams().Len() > 0 || t.Recv() != nil {
			return nil, false
		}
		var in, out []reflect.Type
		for i := 0; i < t.Params().Len(); i++ {
			r, ok := ev.rtype(t.Params().At(i).Type())
			if !ok {
				return nil, false
			}
			in = append(in, r)
		}
		for i := 0; i < t.Results().Len(); i++ {
			r, ok := ev.rtype(t.Results().At(i).Type())
			if !ok {
				return nil, false
			}
			out = append(out, r)
		}
		return reflect.FuncOf(in, out, t.Variadic()), true
	}
	return nil, false
}

// ---- evaluation ----

func (ev *evaluator) mustType(t types.Type) reflect.Type {
	rt, ok := ev.rtype(t)
	if !ok {
		panic(notEval{fmt.Sprintf("no reflect type for %s", t)})
	}
	return rt
}

func (ev *evaluator) stmt(st ast.Stmt) {
	switch st := st.(type) {
	case *ast.EmptyStmt:
	case *ast.ExprStmt:
		ev.expr(st.X)
	case *ast.IncDecStmt:
		lv := ev.lvalue(st.X)
		one := reflect.ValueOf(1).Convert(lv.Type())
		if st.Tok == token.INC {
			lv.Set(arith(token.ADD, lv, one))
		} else {
			lv.Set(arith(token.SUB, lv, one))
		}
	case *ast.AssignStmt:
		if st.Tok == token.ASSIGN {
			// Go evaluates index operands and right-hand sides first, then
			// assigns from left to right.
			vals := make([]reflect.Value, len(st.Rhs))
			lvs := make([]reflect.Value, len(st.Lhs))
			for i, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
					continue
				}
				lvs[i] = ev.lvalue(l)
			}
			for i, r := range st.Rhs {
				if !lvs[i].IsValid() {
					vals[i] = ev.expr(r) // _ = x: evaluated for its effects
					continue
				}
				vals[i] = ev.exprAs(r, ev.typeOf(st.Lhs[i]))
			}
			for i := range st.Lhs {
				if lvs[i].IsValid() {
					lvs[i].Set(vals[i])
				}
			}
			return
		}
		lv := ev.lvalue(st.Lhs[0])
		rv := ev.exprAs(st.Rhs[0], ev.typeOf(st.Lhs[0]))
		op := map[token.Token]token.Token{token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL, token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM}[st.Tok]
		lv.Set(arith(op, lv, rv))
	default:
		panic(notEval{fmt.Sprintf("statement %T", st)})
	}
}

func (ev *evaluator) lvalue(x ast.Expr) reflect.Value {
	x = ast.Unparen(x)
	switch x := x.(type) {
	case *ast.Ident:
		v, _ := ev.varOf(x)
		return v
	case *ast.SelectorExpr:
		return ev.expr(x)
	case *ast.IndexExpr:
		return ev.expr(x)
	case *ast.StarExpr:
		return ev.expr(x)
	}
	panic(notEval{fmt.Sprintf("assignment to %T", x)})
}

// exprAs evaluates x and converts it to type t (assignability holds: the
// type checker said so).
func (ev *evaluator) exprAs(x ast.Expr, t types.Type) reflect.Value {
	rt := ev.mustType(t)
	if isNilExpr(x) {
		return reflect.Zero(rt)
	}
	v := ev.expr(x)
	if v.Type() != rt {
		if rt.Kind() == reflect.Interface {
			nv := reflect.New(rt).Elem()
			nv.Set(v)
			return nv
		}
		if v.Type().ConvertibleTo(rt) {
			return v.Convert(rt)
		}
	}
	return v
}

func (ev *evaluator) expr(x ast.Expr) reflect.Value {
	tv := ev.info.Types[x]
	if tv.Value != nil {
		return constValue(tv.Value, ev.constType(tv.Type))
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return ev.expr(x.X)
	case *ast.Ident:
		switch ev.info.Uses[x].(type) {
		case *types.Var:
			v, _ := ev.varOf(x)
			return v
		case *types.Func:
			v, _ := ev.funcOf(x)
			return v
		}
		if x.Name == "nil" {
			return reflect.Zero(ev.mustType(tv.Type))
		}
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if _, isPkg := ev.info.Uses[id].(*types.PkgName); isPkg {
				v, _ := ev.pkgValue(x)
				return v
			}
		}
		sel := ev.info.Selections[x]
		v := ev.expr(x.X)
		for _, i := range sel.Index() {
			for v.Kind() == reflect.Pointer {
				v = v.Elem() // a nil pointer panics as Go does
			}
			v = v.Field(i)
		}
		return v
	case *ast.StarExpr:
		return ev.expr(x.X).Elem()
	case *ast.UnaryExpr:
		switch x.Op {
		case token.SUB:
			v := ev.expr(x.X)
			return arith(token.SUB, reflect.Zero(v.Type()), v)
		case token.ADD:
			return ev.expr(x.X)
		case token.NOT:
			return reflect.ValueOf(!ev.expr(x.X).Bool()).Convert(ev.mustType(tv.Type))
		case token.AND:
			if cl, ok := x.X.(*ast.CompositeLit); ok {
				v := ev.expr(cl)
				p := reflect.New(v.Type())
				p.Elem().Set(v)
				return p
			}
			return ev.lvalue(x.X).Addr()
		}
	case *ast.BinaryExpr:
		return ev.binary(x, tv.Type)
	case *ast.IndexExpr:
		v := ev.expr(x.X)
		if v.Kind() == reflect.Map {
			k := ev.exprAs(x.Index, ev.info.Types[x.X].Type.Underlying().(*types.Map).Key())
			e := v.MapIndex(k)
			if !e.IsValid() {
				return reflect.Zero(v.Type().Elem())
			}
			return e
		}
		i := ev.expr(x.Index)
		n := toInt(i)
		if n < 0 || n >= v.Len() {
			panic(indexError{n, v.Len()})
		}
		if v.Kind() == reflect.String {
			return reflect.ValueOf(v.String()[n])
		}
		return v.Index(n)
	case *ast.CallExpr:
		return ev.call(x, tv)
	case *ast.CompositeLit:
		return ev.composite(x, tv.Type)
	}
	panic(notEval{fmt.Sprintf("expression %T", x)})
}

// indexError is Go's run-time index error, with its message.
type indexError struct{ i, n int }

func (e indexError) Error() string {
	return fmt.Sprintf("runtime error: index out of range [%d] with length %d", e.i, e.n)
}
func (e indexError) RuntimeError() {}

func toInt(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return int(v.Uint())
	}
	panic(notEval{"index of kind " + v.Kind().String()})
}

func (ev *evaluator) constType(t types.Type) reflect.Type {
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return basicTypes[b.Kind()]
	}
	return ev.mustType(t)
}

// constValue converts an exact constant to a value of type rt.
func constValue(c constant.Value, rt reflect.Type) reflect.Value {
	v := reflect.New(rt).Elem()
	switch rt.Kind() {
	case reflect.Bool:
		v.SetBool(constant.BoolVal(c))
	case reflect.String:
		v.SetString(constant.StringVal(c))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, _ := constant.Int64Val(constant.ToInt(c))
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u, _ := constant.Uint64Val(constant.ToInt(c))
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		f, _ := constant.Float64Val(constant.ToFloat(c))
		if rt.Kind() == reflect.Float32 {
			f32, _ := constant.Float32Val(constant.ToFloat(c))
			f = float64(f32)
		}
		v.SetFloat(f)
	case reflect.Complex64, reflect.Complex128:
		re, _ := constant.Float64Val(constant.Real(c))
		im, _ := constant.Float64Val(constant.Imag(c))
		v.SetComplex(complex(re, im))
	case reflect.Interface:
		// An untyped constant assigned to an interface: its default type.
		var d reflect.Value
		switch c.Kind() {
		case constant.Bool:
			d = reflect.ValueOf(constant.BoolVal(c))
		case constant.String:
			d = reflect.ValueOf(constant.StringVal(c))
		case constant.Int:
			i, _ := constant.Int64Val(c)
			d = reflect.ValueOf(int(i))
		case constant.Float:
			f, _ := constant.Float64Val(c)
			d = reflect.ValueOf(f)
		default:
			panic(notEval{"constant of kind " + c.Kind().String()})
		}
		v.Set(d)
	default:
		panic(notEval{"constant of type " + rt.String()})
	}
	return v
}

// callee evaluates a call's function and arguments.
func (ev *evaluator) callee(x *ast.CallExpr) (reflect.Value, []reflect.Value) {
	ftv := ev.info.Types[x.Fun]
	var fn reflect.Value
	if se, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
		if sel, ok := ev.info.Selections[se]; ok && sel.Kind() == types.MethodVal {
			recv := ev.expr(se.X)
			// Promoted methods and pointer receivers: reflect finds the
			// method on the value or on its address.
			fn = recv.MethodByName(se.Sel.Name)
			if !fn.IsValid() && recv.CanAddr() {
				fn = recv.Addr().MethodByName(se.Sel.Name)
			}
			if !fn.IsValid() {
				panic(notEval{"method " + se.Sel.Name + " not found by reflection"})
			}
		}
	}
	if !fn.IsValid() {
		fn = ev.expr(x.Fun)
	}
	sig := ftv.Type.Underlying().(*types.Signature)
	args := make([]reflect.Value, len(x.Args))
	for i, a := range x.Args {
		args[i] = ev.exprAs(a, paramType(sig, i))
	}
	return fn, args
}

// callAll calls a function and returns all its results.
func (ev *evaluator) callAll(x *ast.CallExpr) []reflect.Value {
	fn, args := ev.callee(x)
	return fn.Call(args)
}

func (ev *evaluator) call(x *ast.CallExpr, tv types.TypeAndValue) reflect.Value {
	ftv := ev.info.Types[x.Fun]
	if ftv.IsType() {
		v := ev.expr(x.Args[0])
		return v.Convert(ev.mustType(ftv.Type))
	}
	if ftv.IsBuiltin() {
		v := ev.expr(x.Args[0])
		n := v.Len()
		if ast.Unparen(x.Fun).(*ast.Ident).Name == "cap" {
			n = v.Cap()
		}
		return reflect.ValueOf(n)
	}
	fn, args := ev.callee(x)
	out := fn.Call(args)
	switch len(out) {
	case 0:
		return reflect.Value{}
	case 1:
		return out[0]
	}
	return reflect.Value{} // several results are only used as statements
}

func (ev *evaluator) composite(x *ast.CompositeLit, t types.Type) reflect.Value {
	rt := ev.mustType(t)
	switch u := t.Underlying().(type) {
	case *types.Struct:
		v := reflect.New(rt).Elem()
		for _, el := range x.Elts {
			kv := el.(*ast.KeyValueExpr)
			name := kv.Key.(*ast.Ident).Name
			var ft types.Type
			for i := 0; i < u.NumFields(); i++ {
				if u.Field(i).Name() == name {
					ft = u.Field(i).Type()
				}
			}
			v.FieldByName(name).Set(ev.exprAs(kv.Value, ft))
		}
		return v
	case *types.Slice:
		v := reflect.MakeSlice(rt, len(x.Elts), len(x.Elts))
		for i, el := range x.Elts {
			v.Index(i).Set(ev.exprAs(el, u.Elem()))
		}
		return v
	case *types.Map:
		v := reflect.MakeMapWithSize(rt, len(x.Elts))
		for _, el := range x.Elts {
			kv := el.(*ast.KeyValueExpr)
			v.SetMapIndex(ev.exprAs(kv.Key, u.Key()), ev.exprAs(kv.Value, u.Elem()))
		}
		return v
	}
	panic(notEval{"composite literal of " + t.String()})
}

func (ev *evaluator) binary(x *ast.BinaryExpr, t types.Type) reflect.Value {
	switch x.Op {
	case token.LAND, token.LOR:
		l := ev.expr(x.X).Bool()
		if (x.Op == token.LAND && !l) || (x.Op == token.LOR && l) {
			return reflect.ValueOf(l).Convert(ev.constType(t))
		}
		return reflect.ValueOf(ev.expr(x.Y).Bool()).Convert(ev.constType(t))
	}
	if isNilExpr(x.X) || isNilExpr(x.Y) {
		o := x.X
		if isNilExpr(x.X) {
			o = x.Y
		}
		v := ev.expr(o)
		isNil := v.IsNil()
		if x.Op == token.NEQ {
			isNil = !isNil
		}
		return reflect.ValueOf(isNil).Convert(ev.constType(t))
	}
	// Untyped constant operands take the other operand's type.
	lt, rt := ev.typeOf(x.X), ev.typeOf(x.Y)
	if isUntyped(lt) && !isUntyped(rt) {
		lt = rt
	}
	if isUntyped(rt) && !isUntyped(lt) {
		rt = lt
	}
	l := ev.exprAs(x.X, lt)
	r := ev.exprAs(x.Y, rt)
	switch x.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return reflect.ValueOf(compare(x.Op, l, r)).Convert(ev.constType(t))
	}
	return arith(x.Op, l, r)
}

func compare(op token.Token, l, r reflect.Value) bool {
	var c int
	switch l.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c = cmp3(l.Int() < r.Int(), l.Int() == r.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		c = cmp3(l.Uint() < r.Uint(), l.Uint() == r.Uint())
	case reflect.Float32, reflect.Float64:
		a, b := l.Float(), r.Float()
		if a != a || b != b { // NaN: every comparison false but !=
			return op == token.NEQ
		}
		c = cmp3(a < b, a == b)
	case reflect.String:
		c = cmp3(l.String() < r.String(), l.String() == r.String())
	case reflect.Bool:
		eq := l.Bool() == r.Bool()
		if op == token.EQL {
			return eq
		}
		return !eq
	case reflect.Complex64, reflect.Complex128:
		eq := l.Complex() == r.Complex()
		if op == token.EQL {
			return eq
		}
		return !eq
	default:
		panic(notEval{"comparison of " + l.Kind().String()})
	}
	switch op {
	case token.EQL:
		return c == 0
	case token.NEQ:
		return c != 0
	case token.LSS:
		return c < 0
	case token.LEQ:
		return c <= 0
	case token.GTR:
		return c > 0
	}
	return c >= 0
}

func cmp3(less, eq bool) int {
	switch {
	case less:
		return -1
	case eq:
		return 0
	}
	return 1
}

// arith applies + - * / % to two values of one basic type, with Go's
// semantics: integers wrap to their size (SetInt and SetUint truncate),
// integer division by zero panics, the most negative integer divided by
// -1 is itself, floats round to their size after each operation.
func arith(op token.Token, l, r reflect.Value) reflect.Value {
	out := reflect.New(l.Type()).Elem()
	switch l.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		out.SetInt(intOp(op, l.Int(), r.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		out.SetUint(intOp(op, l.Uint(), r.Uint()))
	case reflect.Float32, reflect.Float64:
		out.SetFloat(basicOp(op, l.Float(), r.Float()))
	case reflect.String:
		if op != token.ADD {
			panic(notEval{"operator " + op.String() + " on strings"})
		}
		out.SetString(l.String() + r.String())
	default:
		panic(notEval{"arithmetic on " + l.Kind().String()})
	}
	return out
}

func intOp[T int64 | uint64](op token.Token, a, b T) T {
	if op == token.REM {
		return a % b
	}
	return basicOp(op, a, b)
}

func basicOp[T int64 | uint64 | float64](op token.Token, a, b T) T {
	switch op {
	case token.ADD:
		return a + b
	case token.SUB:
		return a - b
	case token.MUL:
		return a * b
	case token.QUO:
		return a / b
	}
	panic(notEval{"operator " + op.String()})
}
