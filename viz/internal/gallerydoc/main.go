package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/viz/internal/imagediff"
)

// galleryType is the element type of the case lists in the test file.
const galleryType = "galleryCase"

// galleryCase is one case as read from the source.
type galleryCase struct {
	Name, Title, Caption string
	// Code is the body of Make, dedented, indented with four spaces.
	Code string
	// Imports are the import paths the body uses, sorted.
	Imports []string
}

func main() {
	src := flag.String("src", "viz/gallery_test.go", "the Go file holding the gallery cases")
	goldens := flag.String("goldens", "viz/testdata/gallery", "the directory of the golden images")
	out := flag.String("out", "", "the staged docs directory: writes gallery.md and assets/gallery/")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gallerydoc [-src FILE] [-goldens DIR] -out DOCSDIR")
		os.Exit(2)
	}
	if err := run(*src, *goldens, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gallerydoc:", err)
		os.Exit(1)
	}
}

func run(src, goldens, out string) error {
	text, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	cases, err := parseCases(src, text)
	if err != nil {
		return err
	}
	assets := filepath.Join(out, "assets", "gallery")
	if err := os.MkdirAll(assets, 0o755); err != nil {
		return err
	}
	widths := make([]int, len(cases))
	for i, c := range cases {
		img, err := os.ReadFile(filepath.Join(goldens, c.Name+".png"))
		if err != nil {
			return fmt.Errorf("gallery case %s: %w (go test ./viz -run TestGallery -update writes the goldens)", c.Name, err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(img))
		if err != nil {
			return fmt.Errorf("gallery case %s: golden: %w", c.Name, err)
		}
		widths[i] = cfg.Width / 2 // retina: twice the CSS size
		if err := os.WriteFile(filepath.Join(assets, c.Name+".png"), img, 0o644); err != nil {
			return err
		}
	}
	page := renderPage(cases, widths)
	if err := os.WriteFile(filepath.Join(out, "gallery.md"), []byte(page), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gallerydoc: %d cases → %s\n", len(cases), filepath.Join(out, "gallery.md"))
	return nil
}

// parseCases reads every top-level []galleryCase composite literal of the
// file, in source order.
func parseCases(filename string, src []byte) ([]galleryCase, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	imports := map[string]string{} // local name → path
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if strings.HasPrefix(name, "v") && strings.Contains(path, "/") { // math/rand/v2 → rand
			if _, err := strconv.Atoi(name[1:]); err == nil {
				p := strings.TrimSuffix(path, "/"+name)
				name = p[strings.LastIndex(p, "/")+1:]
			}
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = path
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			funcs[fd.Name.Name] = fd
		}
	}
	var cases []galleryCase
	seen := map[string]bool{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				lit, ok := v.(*ast.CompositeLit)
				if !ok || !isCaseList(lit.Type) {
					continue
				}
				for _, elt := range lit.Elts {
					c, err := parseCase(fset, src, elt, funcs, imports)
					if err != nil {
						return nil, err
					}
					if seen[c.Name] {
						return nil, fmt.Errorf("%s: gallery case %q appears twice", fset.Position(elt.Pos()), c.Name)
					}
					seen[c.Name] = true
					cases = append(cases, c)
				}
			}
		}
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s: no []%s literal with cases", filename, galleryType)
	}
	return cases, nil
}

func isCaseList(t ast.Expr) bool {
	at, ok := t.(*ast.ArrayType)
	if !ok || at.Len != nil {
		return false
	}
	id, ok := at.Elt.(*ast.Ident)
	return ok && id.Name == galleryType
}

func parseCase(fset *token.FileSet, src []byte, elt ast.Expr, funcs map[string]*ast.FuncDecl,
	imports map[string]string) (galleryCase, error) {
	var c galleryCase
	pos := fset.Position(elt.Pos())
	lit, ok := elt.(*ast.CompositeLit)
	if !ok {
		return c, fmt.Errorf("%s: a gallery case must be a {Name: ..., Make: ...} literal", pos)
	}
	var body *ast.BlockStmt
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return c, fmt.Errorf("%s: gallery case fields must be keyed (Name: ...)", pos)
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		switch key.Name {
		case "Name", "Title", "Caption":
			bl, ok := kv.Value.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				return c, fmt.Errorf("%s: %s must be a string literal", fset.Position(kv.Pos()), key.Name)
			}
			s, err := strconv.Unquote(bl.Value)
			if err != nil {
				return c, fmt.Errorf("%s: %v", fset.Position(kv.Pos()), err)
			}
			switch key.Name {
			case "Name":
				c.Name = s
			case "Title":
				c.Title = s
			default:
				c.Caption = s
			}
		case "Make":
			switch m := kv.Value.(type) {
			case *ast.FuncLit:
				body = m.Body
			case *ast.Ident:
				if fd := funcs[m.Name]; fd != nil {
					body = fd.Body
				}
			}
			if body == nil {
				return c, fmt.Errorf("%s: Make must be a function literal or the name of a function of the file", fset.Position(kv.Pos()))
			}
		}
	}
	if c.Name == "" || c.Title == "" || c.Caption == "" || body == nil {
		return c, fmt.Errorf("%s: gallery case %q needs Name, Title, Caption and Make", pos, c.Name)
	}
	start, end := fset.Position(body.Lbrace).Offset+1, fset.Position(body.Rbrace).Offset
	c.Code = dedent(string(src[start:end]))
	used := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := se.X.(*ast.Ident); ok && id.Obj == nil {
				if p, ok := imports[id.Name]; ok {
					used[p] = true
				}
			}
		}
		return true
	})
	for p := range used {
		c.Imports = append(c.Imports, p)
	}
	sortImports(c.Imports)
	return c, nil
}

// dedent removes the blank first and last lines and the common leading
// tabs of a function body, and indents with four spaces.
func dedent(s string) string {
	lines := strings.Split(strings.TrimLeft(strings.TrimRight(s, " \t\n"), "\n"), "\n")
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		if common < 0 || n < common {
			common = n
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = ""
			continue
		}
		l = l[max(common, 0):]
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		lines[i] = strings.Repeat("    ", n) + strings.TrimRight(l[n:], " \t")
	}
	return strings.Join(lines, "\n")
}

// funcName turns a case name into a Go identifier: "raster-sparse" →
// "rasterSparse".
func funcName(name string) string {
	parts := strings.Split(name, "-")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	s := strings.Join(parts, "")
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "plot" + s
	}
	return s
}

// renderPage writes the Markdown page.
func renderPage(cases []galleryCase, widths []int) string {
	var b strings.Builder
	b.WriteString(`# Plot gallery

Every plot of package ` + "`viz`" + ` and its notable variants, drawn with the
defaults from fixed data made with explicit seeds. Each section shows the
figure (the retina PNG a notebook cell displays) and the function that makes
it. See [Plots](guides/plots.md) for the API and the options.

These figures are also the golden images of the test suite: the code on this
page is read from ` + "`viz/gallery_test.go`" + `, and

    go test ./viz -run TestGallery

renders every case and compares it with its image in
` + "`viz/testdata/gallery/`" + fmt.Sprintf(`: it fails when more than %g %% of the pixels
differ by more than %d/255 in a colour channel, and writes the rendered image
and a picture of the differences (magenta) for inspection. After an intended
change of the plots, `, 100*imagediff.Default.MaxFraction, imagediff.Default.Tolerance) +
		"`go test ./viz -run TestGallery -update`" + ` rewrites the images.

`)
	for i, c := range cases {
		fmt.Fprintf(&b, "## %s { #%s }\n\n%s\n\n", c.Title, c.Name, c.Caption)
		fmt.Fprintf(&b, "![%s](assets/gallery/%s.png){ width=\"%d\" }\n\n", mdEscape(c.Title), c.Name, widths[i])
		b.WriteString("```go\n")
		if len(c.Imports) > 0 {
			b.WriteString("import (\n")
			for j, p := range c.Imports {
				if j > 0 && isStd(c.Imports[j-1]) && !isStd(p) {
					b.WriteString("\n")
				}
				fmt.Fprintf(&b, "    %q\n", p)
			}
			b.WriteString(")\n\n")
		}
		fmt.Fprintf(&b, "func %s() (*viz.Plot, error) {\n", funcName(c.Name))
		for _, l := range strings.Split(c.Code, "\n") {
			if l == "" {
				b.WriteString("\n")
				continue
			}
			b.WriteString("    " + l + "\n")
		}
		b.WriteString("}\n```\n\n")
	}
	return b.String()
}

// isStd reports whether an import path is of the standard library (no
// dot in its first element).
func isStd(path string) bool {
	return !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
}

// sortImports puts the standard library before the rest, each sorted.
func sortImports(paths []string) {
	sort.SliceStable(paths, func(i, j int) bool {
		if isStd(paths[i]) != isStd(paths[j]) {
			return isStd(paths[i])
		}
		return paths[i] < paths[j]
	})
}

func mdEscape(s string) string {
	r := strings.NewReplacer(`[`, `\[`, `]`, `\]`, `*`, `\*`, `_`, `\_`)
	return r.Replace(s)
}
