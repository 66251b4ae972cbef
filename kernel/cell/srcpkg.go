package cell

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sync"

	"github.com/neurogo/neurogo/kernel/bindings"
)

// srcPackages are the go/types packages of the packages whose generic
// functions the interpreter runs as source (cmp, iter, maps, slices: see
// bindings.GenericSources), type-checked from that source. The Front imports
// them instead of the standard library's export data, so that the type
// arguments it writes into calls (slices.Sort[int](s)) match the signatures
// the interpreter has (Sort[E cmp.Ordered](x []E)), not the real ones
// (Sort[S ~[]E, E cmp.Ordered](x S)). Built once per process, on first use
// (about 5 ms).
var srcPackages = sync.OnceValue(func() map[string]*types.Package {
	return buildSrcPackages(bindings.GenericSources())
})

// buildSrcPackages type-checks each package of srcs (import path ->
// sources in load order). A declaration of a later source replaces the one
// of the same name in an earlier source, as in the interpreter. Function
// bodies are dropped: only the signatures matter, and the imports the
// bodies need (sort, ...) then resolve to empty packages.
func buildSrcPackages(srcs map[string][]string) map[string]*types.Package {
	fset := token.NewFileSet()
	// Positions far beyond those of cells, so that go/types, printing an
	// object of these packages with a cell's file set, finds no file.
	fset.AddFile("", -1, 1<<30)
	files := map[string][]*ast.File{}
	for path, list := range srcs {
		files[path] = mergeSources(fset, list)
	}
	pkgs := map[string]*types.Package{}
	busy := map[string]bool{}
	var imp importerFunc
	imp = func(path string) (*types.Package, error) {
		if p := pkgs[path]; p != nil {
			return p, nil
		}
		fs, ok := files[path]
		if !ok || busy[path] {
			p := types.NewPackage(path, lastPathElem(path))
			p.MarkComplete()
			return p, nil
		}
		busy[path] = true
		conf := types.Config{Importer: imp, Error: func(error) {}}
		p, _ := conf.Check(path, fset, fs, nil)
		if p != nil {
			pkgs[path] = p
		}
		return p, nil
	}
	for path := range files {
		imp(path)
	}
	return pkgs
}

// mergeSources parses the sources of one package, drops the function
// bodies, and drops the declarations that a later source redeclares.
func mergeSources(fset *token.FileSet, srcs []string) []*ast.File {
	var parsed []*ast.File
	for _, src := range srcs {
		f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
		if err != nil || f == nil {
			continue
		}
		parsed = append(parsed, f)
	}
	later := map[string]bool{}
	for i := len(parsed) - 1; i >= 0; i-- {
		f := parsed[i]
		var keep []ast.Decl
		var names []string
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				d.Body = nil
				key := d.Name.Name
				if d.Recv != nil {
					key = recvBase(d.Recv) + "." + key
				}
				if later[key] {
					continue
				}
				names = append(names, key)
			case *ast.GenDecl:
				var specs []ast.Spec
				for _, sp := range d.Specs {
					var ids []*ast.Ident
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						ids = []*ast.Ident{sp.Name}
					case *ast.ValueSpec:
						ids = sp.Names
					}
					dropped := false
					for _, id := range ids {
						dropped = dropped || later[id.Name]
						names = append(names, id.Name)
					}
					if !dropped {
						specs = append(specs, sp)
					}
				}
				if len(specs) == 0 && d.Tok != token.IMPORT {
					continue
				}
				d.Specs = specs
			}
			keep = append(keep, d)
		}
		f.Decls = keep
		for _, n := range names {
			if n != "_" {
				later[n] = true
			}
		}
	}
	return parsed
}
