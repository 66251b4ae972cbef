package native

import (
	"go/ast"
	"go/token"
	"sort"
	"strings"
)

// A method must be declared in the package of its type, and each cell is a
// package once compiled. So a cell that declares a method on a type an
// earlier cell declared takes the type over: the type's declaration and
// its methods from earlier cells are compiled again in this cell (their
// source is appended to it), which makes this cell redeclare the type —
// later cells see the type with the new method, and what held values of
// the old one leaves the scope with a note (stale.go), as when a cell
// redeclares a type by hand.

// migrate returns the source to append: the declarations of the earlier
// types that this cell adds methods to, with their earlier methods.
func (cs *cellState) migrate() string {
	s := cs.s
	own := declNames(cs.fA)
	want := map[string]bool{}
	for _, d := range cs.fA.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil {
			continue
		}
		t := recvTypeName(fd)
		if _, earlier := s.owner[t]; earlier && !own[t] {
			want[t] = true
		}
	}
	if len(want) == 0 {
		return ""
	}
	var names []string
	for t := range want {
		names = append(names, t)
	}
	sort.Strings(names)
	cs.moved = names
	var parts []string
	for _, t := range names {
		c := s.cells[s.owner[t]]
		if text := c.declText(s.fset, func(d ast.Decl) (ast.Node, bool) {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				return nil, false
			}
			for _, sp := range gd.Specs {
				if ts := sp.(*ast.TypeSpec); ts.Name.Name == t {
					return ts, len(gd.Specs) == 1
				}
			}
			return nil, false
		}); text != "" {
			parts = append(parts, text)
		}
		// Its methods, from whichever cells declared them, unless this cell
		// declares them anew.
		var methods []string
		for n, idx := range s.owner {
			if !strings.HasPrefix(n, t+".") || own[n] {
				continue
			}
			m := n[len(t)+1:]
			if text := s.cells[idx].declText(s.fset, func(d ast.Decl) (ast.Node, bool) {
				fd, ok := d.(*ast.FuncDecl)
				if ok && fd.Recv != nil && recvTypeName(fd) == t && fd.Name.Name == m {
					return fd, true
				}
				return nil, false
			}); text != "" {
				methods = append(methods, text)
			}
		}
		sort.Strings(methods)
		parts = append(parts, methods...)
	}
	return strings.Join(parts, "\n\n") + "\n"
}

// declText returns the source of the first declaration of the cell that
// match selects, with its doc comment when whole is true (the node is the
// whole declaration). A type spec taken out of a group gets "type ".
func (c *compiled) declText(fset *token.FileSet, match func(ast.Decl) (ast.Node, bool)) string {
	if len(c.files) == 0 {
		return ""
	}
	f := c.files[0]
	tf := fset.File(f.FileStart)
	for _, d := range f.Decls {
		n, whole := match(d)
		if n == nil {
			continue
		}
		start, end := n.Pos(), n.End()
		switch x := d.(type) {
		case *ast.FuncDecl:
			if x.Doc != nil {
				start = x.Doc.Pos()
			}
		case *ast.GenDecl:
			if whole {
				start, end = x.Pos(), x.End()
				if x.Doc != nil {
					start = x.Doc.Pos()
				}
			}
		}
		so, eo := tf.Offset(start)-c.hdrA, tf.Offset(end)-c.hdrA
		if so < 0 || eo > len(c.src) || so > eo {
			return ""
		}
		text := c.src[so:eo]
		if _, isSpec := n.(*ast.TypeSpec); isSpec && !whole {
			text = "type " + text
		}
		return text
	}
	return ""
}
