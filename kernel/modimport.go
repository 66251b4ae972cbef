package kernel

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// modulePath is the import path prefix of neurogo's own packages.
const modulePath = "github.com/neurogo/neurogo"

// moduleImporter gives the cell front end (kernel/cell) the types of
// neurogo's own packages. go/importer's "gc" importer only finds the
// standard library (module packages have no export data it can locate), so
// without this the front end knew nothing of, say, repro.StreamResult, and
// could not apply the rewrites that need types — among them the one for
// "x := res.Field[i]", which yaegi v0.16.1 fails on when res holds a value
// from compiled code ("constant definition loop").
//
// A neurogo package is type-checked from its source under the source root
// (files selected by go/build's default context, test files left out) with
// the function bodies dropped: only declarations matter, so this takes
// milliseconds. The standard library comes from export data as with
// go/importer's "gc" importer, but the export files of all the standard
// packages a neurogo package tree needs are found with one "go list"
// (go/importer runs one per package, ~50 ms each: 2.5 s for repro).
// Other modules' packages (gonum, gonum/plot, …) become empty packages —
// their export data would first have to be compiled — so what depends on
// them stays untyped, as does anything whose import fails.
type moduleImporter struct {
	root string
	fset *token.FileSet
	gc   types.Importer // export data, located by lookup

	mu      sync.Mutex
	pkgs    map[string]*types.Package
	busy    map[string]bool
	exports map[string]string // import path → export file ("" = none)
}

// newModuleImporter returns the importer for a source root ("" gives
// go/importer's default).
func newModuleImporter(root string) types.Importer {
	if root == "" {
		return importer.Default()
	}
	m := &moduleImporter{root: root, fset: token.NewFileSet(), pkgs: map[string]*types.Package{}, busy: map[string]bool{}, exports: map[string]string{}}
	m.gc = importer.ForCompiler(m.fset, "gc", m.lookup)
	return m
}

func (m *moduleImporter) Import(path string) (*types.Package, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.isModule(path) {
		m.prefetch(path)
	} else if !isStd(path) {
		// as go/importer's default: no types for other modules' packages
		return nil, fmt.Errorf("can't find import: %q (types of other modules are not loaded)", path)
	}
	return m.imp(path)
}

func (m *moduleImporter) isModule(path string) bool {
	return path == modulePath || strings.HasPrefix(path, modulePath+"/")
}

func (m *moduleImporter) dir(path string) string {
	return filepath.Join(m.root, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(path, modulePath), "/")))
}

// lookup opens the export data of a package for the gc importer.
func (m *moduleImporter) lookup(path string) (io.ReadCloser, error) {
	if _, ok := m.exports[path]; !ok {
		m.goList([]string{path})
	}
	f := m.exports[path]
	if f == "" {
		return nil, fmt.Errorf("no export data for %q", path)
	}
	return os.Open(f)
}

// goList finds the export files of paths and of their dependencies (which
// the gc importer may ask for next) with one "go list -export -deps".
func (m *moduleImporter) goList(paths []string) {
	for _, p := range paths {
		m.exports[p] = ""
	}
	cmd := exec.Command("go", append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, paths...)...)
	cmd.Dir = m.root
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if p, f, ok := strings.Cut(sc.Text(), "\t"); ok {
			m.exports[p] = f
		}
	}
}

// prefetch lists the standard-library imports of the neurogo packages
// reachable from path (import clauses only) and finds their export files
// at once.
func (m *moduleImporter) prefetch(path string) {
	seen := map[string]bool{}
	var std []string
	var walk func(p string)
	walk = func(p string) {
		if seen[p] || m.pkgs[p] != nil {
			return
		}
		seen[p] = true
		if !m.isModule(p) {
			if _, known := m.exports[p]; !known && isStd(p) {
				std = append(std, p)
			}
			return
		}
		for _, f := range m.files(p) {
			af, err := parser.ParseFile(m.fset, f, nil, parser.ImportsOnly)
			if err != nil {
				continue
			}
			for _, im := range af.Imports {
				if ip, err := strconv.Unquote(im.Path.Value); err == nil {
					walk(ip)
				}
			}
		}
	}
	walk(path)
	if len(std) > 0 {
		m.goList(std)
	}
}

// files returns the Go files of a neurogo package that go/build's default
// context selects, without tests.
func (m *moduleImporter) files(path string) []string {
	dir := m.dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, n); err != nil || !ok {
			continue
		}
		names = append(names, filepath.Join(dir, n))
	}
	sort.Strings(names)
	return names
}

func (m *moduleImporter) imp(path string) (*types.Package, error) {
	if p := m.pkgs[path]; p != nil {
		return p, nil
	}
	if !m.isModule(path) {
		if !isStd(path) {
			// gonum, gonum/plot, …: their export data would have to be
			// compiled first (seconds to minutes on a fresh machine)
			return m.empty(path), nil
		}
		p, err := m.gc.Import(path)
		if err == nil && p != nil {
			m.pkgs[path] = p
		}
		return p, err
	}
	if m.busy[path] { // an import cycle: not valid Go, give up on it
		return m.empty(path), nil
	}
	m.busy[path] = true
	defer delete(m.busy, path)
	names := m.files(path)
	if len(names) == 0 {
		return nil, fmt.Errorf("no Go files for %q in %s", path, m.dir(path))
	}
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(m.fset, n, nil, parser.SkipObjectResolution)
		if err != nil || f == nil {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				fd.Body = nil
			}
		}
		files = append(files, f)
	}
	conf := types.Config{
		Importer: importerFunc(func(p string) (*types.Package, error) {
			pkg, err := m.imp(p)
			if err != nil || pkg == nil {
				return m.empty(p), nil
			}
			return pkg, nil
		}),
		Error:            func(error) {}, // what cannot be typed stays untyped
		IgnoreFuncBodies: true,
	}
	pkg, _ := conf.Check(path, m.fset, files, nil)
	if pkg == nil {
		return m.empty(path), nil
	}
	m.pkgs[path] = pkg
	return pkg, nil
}

// isStd reports whether path belongs to the standard library (its first
// element has no dot).
func isStd(path string) bool { return !strings.Contains(strings.SplitN(path, "/", 2)[0], ".") }

// empty returns (and remembers) a complete package without declarations.
func (m *moduleImporter) empty(path string) *types.Package {
	if p := m.pkgs[path]; p != nil {
		return p
	}
	p := types.NewPackage(path, filepath.Base(path))
	p.MarkComplete()
	m.pkgs[path] = p
	return p
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
