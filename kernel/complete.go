package kernel

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/neurogo/neurogo/kernel/cell"
)

// Completion is the answer to a complete_request. Start and End are cursor
// positions in Unicode code points, as the protocol requires. Kinds and
// Signatures parallel Matches (Signatures may be nil).
type Completion struct {
	Matches    []string
	Kinds      []string
	Signatures []string
	Start, End int
}

var goKeywords = []string{"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var"}

var goBuiltins = []string{"append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max", "min", "new", "panic", "print", "println", "real", "recover", "any", "bool", "byte", "comparable", "complex128", "complex64", "error", "float32", "float64", "int", "int16", "int32", "int64", "int8", "rune", "string", "uint", "uint16", "uint32", "uint64", "uint8", "uintptr", "true", "false", "iota", "nil"}

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// wordAt finds the identifier (with an optional "pkg." qualifier) around
// the cursor. cursor is in code points; the returned offsets are too.
func wordAt(code string, cursor int, extendRight bool) (qual, word string, start, end int) {
	runes := []rune(code)
	if cursor < 0 {
		cursor = 0
	}
	if cursor > len(runes) {
		cursor = len(runes)
	}
	start = cursor
	for start > 0 && isIdentRune(runes[start-1]) {
		start--
	}
	end = cursor
	if extendRight {
		for end < len(runes) && isIdentRune(runes[end]) {
			end++
		}
	}
	word = string(runes[start:end])
	if start > 0 && runes[start-1] == '.' {
		q := start - 1
		for q > 0 && isIdentRune(runes[q-1]) {
			q--
		}
		qual = string(runes[q : start-1])
	}
	return qual, word, start, end
}

// Complete proposes completions at the cursor: package members after
// "pkg.", otherwise names of the session, the cell, keywords, builtins and
// importable package names.
func (e *Executor) Complete(code string, cursor int) Completion {
	if e.native != nil {
		return e.completeNative(code, cursor)
	}
	qual, prefix, start, end := wordAt(code, cursor, false)
	type cand struct{ name, kind string }
	seen := map[string]bool{}
	var cands []cand
	add := func(name, kind string) {
		if !strings.HasPrefix(name, prefix) || seen[name] || strings.HasPrefix(name, "__neurogo") {
			return
		}
		seen[name] = true
		cands = append(cands, cand{name, kind})
	}
	if qual != "" {
		if path, ok := e.importPathOf(qual, code); ok {
			for name, v := range e.interp.Symbols(path)[path] {
				add(name, symbolKind(v))
			}
		} else if v, ok := e.interp.Globals()[qual]; ok && v.IsValid() {
			// Fields and methods of a session variable.
			t := v.Type()
			for _, tt := range []reflect.Type{t, reflect.PointerTo(t)} {
				for i := 0; i < tt.NumMethod(); i++ {
					add(tt.Method(i).Name, "function")
				}
			}
			st := t
			if st.Kind() == reflect.Pointer {
				st = st.Elem()
			}
			if st.Kind() == reflect.Struct {
				for i := 0; i < st.NumField(); i++ {
					if f := st.Field(i); f.IsExported() {
						add(f.Name, "instance")
					}
				}
			}
		}
	} else if prefix != "" || cursor > 0 {
		for name := range e.interp.Globals() {
			add(name, "instance")
		}
		for name := range e.imports {
			add(name, "module")
		}
		for _, name := range identsIn(code) {
			add(name, "instance")
		}
		for _, k := range goKeywords {
			add(k, "keyword")
		}
		for _, b := range goBuiltins {
			add(b, "function")
		}
		for _, p := range packageNames() {
			add(p, "module")
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].name < cands[j].name })
	c := Completion{Start: start, End: end, Matches: []string{}, Kinds: []string{}}
	for _, x := range cands {
		c.Matches = append(c.Matches, x.name)
		c.Kinds = append(c.Kinds, x.kind)
	}
	return c
}

// completeNative completes with the compiled cells' session, which
// type-checks the code with the notebook's declarations; in an import
// path it proposes the packages the kernel has bindings for.
func (e *Executor) completeNative(code string, cursor int) Completion {
	c := Completion{Matches: []string{}, Kinds: []string{}, Signatures: []string{}, Start: cursor, End: cursor}
	b := byteOffset(code, cursor)
	if start, prefix, ok := importPathAt(code, b); ok {
		c.Start = utf8.RuneCountInString(code[:start])
		for _, p := range bindingsPackages() {
			if strings.HasPrefix(p, prefix) {
				c.Matches = append(c.Matches, p)
				c.Kinds = append(c.Kinds, "package")
				c.Signatures = append(c.Signatures, "")
			}
		}
		sort.Strings(c.Matches)
		return c
	}
	cands, start, end := e.native.Complete(code, b)
	c.Start, c.End = utf8.RuneCountInString(code[:start]), utf8.RuneCountInString(code[:end])
	for _, x := range cands {
		c.Matches = append(c.Matches, x.Name)
		c.Kinds = append(c.Kinds, x.Kind)
		c.Signatures = append(c.Signatures, x.Signature)
	}
	return c
}

// byteOffset converts a cursor position in code points (the protocol's
// unit) into a byte offset.
func byteOffset(code string, cursor int) int {
	if cursor <= 0 {
		return 0
	}
	n := 0
	for i := range code {
		if n == cursor {
			return i
		}
		n++
	}
	return len(code)
}

// importPathRE matches the text of a line up to the cursor inside the
// string of an import: `import "gonum.org/v1/`, `import m "ma`, or `"fm`
// on its own line of an import block.
var importPathRE = regexp.MustCompile(`^\s*(import\s*(\(\s*)?)?([A-Za-z_.]\w*\s+)?"([^"\\]*)$`)

// importPathAt reports whether the cursor (a byte offset) is in the path
// of an import, and where the path starts.
func importPathAt(code string, cursor int) (start int, prefix string, ok bool) {
	ls := strings.LastIndexByte(code[:cursor], '\n') + 1
	m := importPathRE.FindStringSubmatchIndex(code[ls:cursor])
	if m == nil {
		return 0, "", false
	}
	if m[2] < 0 {
		// Not on an import line: only in an open import block.
		before := code[:ls]
		i := strings.LastIndex(before, "import")
		if i < 0 || !strings.HasPrefix(strings.TrimSpace(before[i+len("import"):]), "(") || strings.Contains(before[i:], ")") {
			return 0, "", false
		}
	}
	return ls + m[8], code[ls+m[8] : cursor], true
}

func symbolKind(v reflect.Value) string {
	if !v.IsValid() {
		return "instance"
	}
	switch v.Kind() {
	case reflect.Func:
		return "function"
	case reflect.Pointer:
		if v.IsNil() {
			return "class" // types are exported as typed nil pointers
		}
	}
	return "instance"
}

// importPathOf resolves a package name used in code or imported earlier.
func (e *Executor) importPathOf(name, code string) (string, bool) {
	if p, ok := e.imports[name]; ok {
		return p, true
	}
	// Imports in the cell being edited (which has not run yet).
	if i := strings.Index(code, "import"); i >= 0 {
		for _, im := range parseImports(code[i:]) {
			n := im[0]
			if n == "" {
				n = e.packageName(im[1])
			}
			if n == name {
				return im[1], true
			}
		}
	}
	return "", false
}

// identsIn lists identifiers in code (for completing names of the cell
// being edited).
func identsIn(code string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(code, func(r rune) bool { return !isIdentRune(r) }) {
		r, _ := utf8.DecodeRuneInString(f)
		if unicode.IsLetter(r) || r == '_' {
			out = append(out, f)
		}
	}
	return out
}

var (
	pkgNamesOnce sync.Once
	pkgNames     []string
)

// packageNames lists the names of importable packages.
func packageNames() []string {
	pkgNamesOnce.Do(func() {
		seen := map[string]bool{}
		for _, p := range bindingsPackages() {
			n := p[strings.LastIndex(p, "/")+1:]
			if !seen[n] {
				seen[n] = true
				pkgNames = append(pkgNames, n)
			}
		}
		sort.Strings(pkgNames)
	})
	return pkgNames
}

// Inspect returns documentation for the symbol at the cursor.
func (e *Executor) Inspect(code string, cursor, detail int) (string, bool) {
	if e.native != nil {
		return e.native.Inspect(code, byteOffset(code, cursor), detail)
	}
	qual, word, _, _ := wordAt(code, cursor, true)
	if word == "" {
		return "", false
	}
	if qual != "" {
		if path, ok := e.importPathOf(qual, code); ok {
			v, ok := e.interp.Symbols(path)[path][word]
			if !ok {
				return "", false
			}
			text := qual + "." + word + " " + describeSymbol(v)
			if d := docFor(path, word); d != "" {
				text = d
			}
			return text, true
		}
	}
	if path, ok := e.importPathOf(word, code); ok {
		if d := docFor(path, ""); d != "" {
			return d, true
		}
		return "package " + word + " // import \"" + path + "\"", true
	}
	if v, ok := e.interp.Globals()[word]; ok && v.IsValid() {
		text := word + " " + v.Type().String()
		if v.CanInterface() {
			s := plainValue(v.Interface())
			if len(s) > 2000 {
				s = s[:2000] + "…"
			}
			text += " = " + s
		}
		return text, true
	}
	for _, b := range goBuiltins {
		if b == word {
			if d := docFor("builtin", word); d != "" {
				return d, true
			}
			return "builtin " + word, true
		}
	}
	return "", false
}

func describeSymbol(v reflect.Value) string {
	if !v.IsValid() {
		return ""
	}
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return "type " + v.Type().Elem().String()
	}
	return v.Type().String()
}

// docFor renders go/doc documentation of a package member (or of the package
// when name is empty, of a method or field when name is "T.M") from the Go
// source tree: GOROOT for the standard library and the module source for
// neurogo's own packages.
func docFor(path, name string) string {
	p := loadDoc(path)
	if p == nil {
		return ""
	}
	if name == "" {
		return "package " + p.pkg.Name + " // import \"" + path + "\"\n\n" + p.pkg.Doc
	}
	fset := p.fset
	if tn, member, ok := strings.Cut(name, "."); ok {
		return memberDoc(fset, p.pkg, tn, member)
	}
	for _, f := range p.pkg.Funcs {
		if f.Name == name {
			return nodeText(fset, f.Decl) + "\n\n" + f.Doc
		}
	}
	for _, t := range p.pkg.Types {
		if t.Name == name {
			return nodeText(fset, t.Decl) + "\n\n" + t.Doc + methodsOf(fset, t)
		}
		for _, f := range t.Funcs {
			if f.Name == name {
				return nodeText(fset, f.Decl) + "\n\n" + f.Doc
			}
		}
	}
	for _, group := range [][]*doc.Value{p.pkg.Consts, p.pkg.Vars} {
		for _, v := range group {
			for _, n := range v.Names {
				if n == name {
					return nodeText(fset, v.Decl) + "\n\n" + v.Doc
				}
			}
		}
	}
	for _, t := range p.pkg.Types {
		for _, group := range [][]*doc.Value{t.Consts, t.Vars} {
			for _, v := range group {
				for _, n := range v.Names {
					if n == name {
						return nodeText(fset, v.Decl) + "\n\n" + v.Doc
					}
				}
			}
		}
	}
	return ""
}

// memberDoc documents method or field member of type tn.
func memberDoc(fset *token.FileSet, pkg *doc.Package, tn, member string) string {
	for _, t := range pkg.Types {
		if t.Name != tn {
			continue
		}
		for _, m := range t.Methods {
			if m.Name == member {
				return nodeText(fset, m.Decl) + "\n\n" + m.Doc
			}
		}
		for _, sp := range t.Decl.Specs {
			ts, ok := sp.(*ast.TypeSpec)
			if !ok || ts.Name.Name != tn {
				continue
			}
			var fields *ast.FieldList
			switch x := ts.Type.(type) {
			case *ast.StructType:
				fields = x.Fields
			case *ast.InterfaceType:
				fields = x.Methods
			}
			if fields == nil {
				continue
			}
			for _, f := range fields.List {
				for _, id := range f.Names {
					if id.Name != member {
						continue
					}
					text := tn + "." + member + " " + nodeText(fset, f.Type)
					if f.Doc != nil {
						text += "\n\n" + f.Doc.Text()
					} else if f.Comment != nil {
						text += "\n\n" + f.Comment.Text()
					}
					return text
				}
			}
		}
	}
	return ""
}

func methodsOf(fset *token.FileSet, t *doc.Type) string {
	if len(t.Methods) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nMethods:\n")
	for _, m := range t.Methods {
		b.WriteString("  " + nodeText(fset, m.Decl) + "\n")
	}
	return b.String()
}

type docPkg struct {
	fset *token.FileSet
	pkg  *doc.Package
}

var docCache sync.Map // path → *docPkg (nil when unavailable)

func loadDoc(path string) *docPkg {
	if v, ok := docCache.Load(path); ok {
		p, _ := v.(*docPkg)
		return p
	}
	var p *docPkg
	if dir := sourceDir(path); dir != "" {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.ParseComments)
		if err == nil {
			files := map[string]*ast.File{}
			name := ""
			for n, pk := range pkgs {
				if strings.HasSuffix(n, "_test") || n == "main" && len(pkgs) > 1 {
					continue
				}
				name = n
				for fn, f := range pk.Files {
					files[fn] = f
				}
			}
			if name != "" {
				var list []*ast.File
				keys := make([]string, 0, len(files))
				for k := range files {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					list = append(list, files[k])
				}
				var mode doc.Mode
				if path == "builtin" {
					mode = doc.AllDecls // its names are lower case
				}
				if dp, err := doc.NewFromFiles(fset, list, path, mode); err == nil {
					p = &docPkg{fset: fset, pkg: dp}
				}
			}
		}
	}
	docCache.Store(path, p)
	return p
}

// sourceDir locates a package's source: GOROOT/src for the standard library,
// the module cache or this module's tree for the rest.
func sourceDir(path string) string {
	candidates := []string{filepath.Join(runtime.GOROOT(), "src", path)}
	if strings.HasPrefix(path, "github.com/neurogo/neurogo") {
		if root := moduleRoot(); root != "" {
			candidates = append(candidates, filepath.Join(root, strings.TrimPrefix(path, "github.com/neurogo/neurogo")))
		}
	}
	if d := moduleCacheDir(path); d != "" {
		candidates = append(candidates, d)
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
	}
	return ""
}

// moduleRoot finds the neurogo source tree: $NEUROGO_ROOT, or the source
// directory the binary was built from.
func moduleRoot() string {
	if r := os.Getenv("NEUROGO_ROOT"); r != "" {
		return r
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	root := filepath.Dir(filepath.Dir(file))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return ""
	}
	return root
}

func isComplete(code string) (string, string) { return cell.IsComplete(code) }
