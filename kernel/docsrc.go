package kernel

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/kernel/bindings"
)

// nodeText prints a declaration without function bodies.
func nodeText(fset *token.FileSet, n ast.Node) string {
	if fd, ok := n.(*ast.FuncDecl); ok {
		c := *fd
		c.Body = nil
		c.Doc = nil
		n = &c
	}
	if gd, ok := n.(*ast.GenDecl); ok {
		c := *gd
		c.Doc = nil
		n = &c
	}
	var b bytes.Buffer
	_ = (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 4}).Fprint(&b, fset, n)
	return b.String()
}

func plainValue(v any) string { return display.Plain(v) }

func bindingsPackages() []string { return bindings.Packages() }

// moduleCacheDir returns the module-cache directory of a dependency that
// provides path, using the versions this binary was built with.
func moduleCacheDir(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		gp := os.Getenv("GOPATH")
		if gp == "" {
			home, _ := os.UserHomeDir()
			gp = filepath.Join(home, "go")
		}
		cache = filepath.Join(strings.Split(gp, string(os.PathListSeparator))[0], "pkg", "mod")
	}
	for _, d := range bi.Deps {
		if path == d.Path || strings.HasPrefix(path, d.Path+"/") {
			return filepath.Join(cache, d.Path+"@"+d.Version, strings.TrimPrefix(path, d.Path))
		}
	}
	return ""
}

// SourceRoot returns the neurogo source tree ($NEUROGO_ROOT or the tree the
// binary was built from), or "" when it is not available.
func SourceRoot() string { return moduleRoot() }
