package native

import (
	"go/types"
	"sort"
	"strings"
)

// A cell that redeclares a type replaces it: later cells see the new one.
// Values made with the old type keep it (they live in the earlier cell's
// package), so the variables holding them, the functions whose signatures
// use it and the types built on it would mean the old type under a name
// that now means the new one. They are dropped from the notebook's scope
// instead, and the cell says which (stale). Re-running the cells that
// declared them brings them back with the new type.

// stale returns the live names whose declarations use one of the types
// the current cell redeclares (transitively), according to the notebook
// as it was checked before this cell.
func (s *Session) stale(redeclared map[string]bool) []string {
	if s.lastPkg == nil || len(redeclared) == 0 {
		return nil
	}
	scope := s.lastPkg.Scope()
	bad := map[types.Object]bool{}
	for n := range redeclared {
		if _, ok := s.owner[n]; !ok {
			continue
		}
		if tn, ok := scope.Lookup(n).(*types.TypeName); ok {
			bad[tn] = true
		}
	}
	if len(bad) == 0 {
		return nil
	}
	var out []string
	done := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for n := range s.owner {
			if done[n] || redeclared[n] {
				continue
			}
			var obj types.Object
			var t types.Type
			if i := strings.IndexByte(n, '.'); i > 0 {
				// A method: stale with its type, or through its signature.
				if recv, ok := scope.Lookup(n[:i]).(*types.TypeName); ok {
					if bad[recv] || done[n[:i]] {
						done[n] = true
						changed = true
						continue
					}
					if m, _, _ := types.LookupFieldOrMethod(recv.Type(), true, s.lastPkg, n[i+1:]); m != nil {
						obj, t = m, m.Type()
					}
				}
			} else {
				obj = scope.Lookup(n)
				if obj != nil {
					t = obj.Type()
					if tn, ok := obj.(*types.TypeName); ok {
						t = tn.Type().Underlying()
						if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
							t = named.Underlying()
						}
					}
				}
			}
			if obj == nil || t == nil {
				continue
			}
			if mentions(t, bad) {
				done[n] = true
				bad[obj] = true
				changed = true
				if !strings.Contains(n, ".") {
					out = append(out, n)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// mentions reports whether t refers to one of the type names in bad.
func mentions(t types.Type, bad map[types.Object]bool) bool {
	seen := map[types.Type]bool{}
	var walk func(t types.Type) bool
	walk = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			if bad[t.Obj()] {
				return true
			}
			for i := 0; i < t.TypeArgs().Len(); i++ {
				if walk(t.TypeArgs().At(i)) {
					return true
				}
			}
		case *types.Alias:
			return bad[t.Obj()] || walk(types.Unalias(t))
		case *types.Pointer:
			return walk(t.Elem())
		case *types.Slice:
			return walk(t.Elem())
		case *types.Array:
			return walk(t.Elem())
		case *types.Map:
			return walk(t.Key()) || walk(t.Elem())
		case *types.Chan:
			return walk(t.Elem())
		case *types.Signature:
			return walk(t.Params()) || walk(t.Results())
		case *types.Tuple:
			for i := 0; i < t.Len(); i++ {
				if walk(t.At(i).Type()) {
					return true
				}
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if walk(t.Field(i).Type()) {
					return true
				}
			}
		case *types.Interface:
			for i := 0; i < t.NumMethods(); i++ {
				if walk(t.Method(i).Type()) {
					return true
				}
			}
			for i := 0; i < t.NumEmbeddeds(); i++ {
				if walk(t.EmbeddedType(i)) {
					return true
				}
			}
		case *types.Union:
			for i := 0; i < t.Len(); i++ {
				if walk(t.Term(i).Type()) {
					return true
				}
			}
		case *types.TypeParam:
			return walk(t.Constraint())
		}
		return false
	}
	return walk(t)
}
