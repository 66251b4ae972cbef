package bindings

import (
	"embed"
	"fmt"
	"go/parser"
	"go/token"
	"path"
	"reflect"
	"sort"

	"github.com/traefik/yaegi/interp"
	yaegigeneric "github.com/traefik/yaegi/stdlib/generic"
)

// Symbols holds the exported symbols of every bound package, keyed by
// "importpath/pkgname" (for example "gonum.org/v1/gonum/mat/mat"), the
// format interp.Interpreter.Use expects. The generated files fill it in
// their init functions.
var Symbols = map[string]map[string]reflect.Value{}

// MapTypes tells yaegi which interfaces a value passed to some binary
// functions may implement with interpreted methods, so that, for example,
// fmt.Println uses the String method of a type declared in a cell. It is
// installed with Symbols (under the "." key) by Use.
var MapTypes = map[reflect.Value][]reflect.Type{}

func init() {
	Symbols["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(MapTypes)}
}

// genericSources are the interpreted implementations of the generic parts
// of the standard library, in load order. See the package documentation.
//
//go:embed generic/*.go.txt
var genericSources embed.FS

var genericOrder = []string{"cmp", "iter", "maps", "slices"}

// Use installs every binding into i: the symbols of all bound packages
// (which also makes yaegi redirect fmt/log/os standard streams to the ones
// of i and load its own bundled generic sources), then neurogo's
// interpreted generic implementations for cmp, iter, maps and slices.
func Use(i *interp.Interpreter) error {
	if err := i.Use(Symbols); err != nil {
		return fmt.Errorf("bindings: installing symbols: %w", err)
	}
	for _, name := range genericOrder {
		src, err := genericSources.ReadFile("generic/" + name + ".go.txt")
		if err != nil {
			return fmt.Errorf("bindings: %w", err)
		}
		if _, err := i.Compile(string(src)); err != nil {
			return fmt.Errorf("bindings: compiling generic %s: %w", name, err)
		}
	}
	return nil
}

// GenericSources returns, for each package whose generic functions are
// interpreted source (cmp, iter, maps, slices), the sources that Use
// compiles for it, in load order: yaegi's bundled source first (loaded by
// i.Use with the standard library), then neurogo's generic/*.go.txt. A later
// declaration of a name replaces an earlier one, as it does in the
// interpreter. The front end type-checks cells against these signatures.
// The result is a fresh map.
func GenericSources() map[string][]string {
	out := map[string][]string{}
	for _, src := range yaegigeneric.Sources {
		if f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly); err == nil {
			out[f.Name.Name] = append(out[f.Name.Name], src) // standard library: path == name
		}
	}
	for _, name := range genericOrder {
		if src, err := genericSources.ReadFile("generic/" + name + ".go.txt"); err == nil {
			out[name] = append(out[name], string(src))
		}
	}
	return out
}

// Packages returns the sorted import paths that cells can import.
func Packages() []string {
	out := make([]string, 0, len(Symbols))
	for k := range Symbols {
		if k == "." {
			continue
		}
		out = append(out, path.Dir(k))
	}
	sort.Strings(out)
	return out
}

// Excluded returns, for each package that was considered but is not bound
// (standard library packages that cannot be extracted or compiled, gonum
// test helpers, ...), the reason why. The kernel can use it to explain a
// failed import. The result is a copy.
func Excluded() map[string]string {
	out := make(map[string]string, len(excluded))
	for k, v := range excluded {
		out[k] = v
	}
	return out
}
