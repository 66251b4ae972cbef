package cell

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// item is a top-level piece of a cell: the tokens between two semicolons
// (explicit or automatic) at bracket depth 0.
type item struct {
	start, end int   // byte offsets of the first token and the end of the last one
	semis      []int // offsets of the explicit ';' between it and the next item
	kind       Kind
	pkgClause  bool // a "package x" clause, which is dropped
}

// span is a piece of cell text to keep: [start, end), and the offsets of
// the explicit ';' after it, to keep in the gap that follows.
type span struct {
	start, end int
	semis      []int
}

// tokEnd returns the end offset of the token at off.
func tokEnd(src string, off int, tok token.Token, lit string) int {
	switch {
	case tok == token.STRING && off < len(src) && src[off] == '`':
		// Raw strings: the scanner strips \r from lit, so find the end.
		if i := strings.IndexByte(src[off+1:], '`'); i >= 0 {
			return off + 1 + i + 1
		}
		return len(src)
	case lit != "":
		return off + len(lit)
	}
	return off + len(tok.String())
}

// splitItems splits src into top-level items. Malformed input yields items
// that the parser then rejects; the first scanner error is returned too, for
// errors outside any item (an unterminated comment).
func splitItems(src string) ([]item, *Error) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	var serr *Error
	s.Init(file, []byte(src), func(p token.Position, msg string) {
		if serr == nil {
			serr = &Error{Line: p.Line, Col: p.Column, Msg: msg}
		}
	}, 0)

	var items []item
	var toks []token.Token // tokens of the current item (for classification)
	depth := 0
	cur := item{start: -1}
	flush := func() {
		if cur.start >= 0 {
			cur.kind, cur.pkgClause = classify(toks)
			items = append(items, cur)
		}
		cur = item{start: -1}
		toks = toks[:0]
	}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		if tok == token.SEMICOLON && depth == 0 {
			if lit == ";" {
				if cur.start >= 0 {
					cur.semis = append(cur.semis, off)
				} else if len(items) > 0 {
					last := &items[len(items)-1]
					last.semis = append(last.semis, off)
				}
			}
			flush()
			continue
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // automatic semicolon inside brackets: not a token of the source
		}
		if cur.start < 0 {
			cur.start = off
		}
		if len(toks) < 64 {
			toks = append(toks, tok)
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth > 0 {
				depth--
			}
		}
		if e := tokEnd(src, off, tok, lit); e > cur.end {
			cur.end = min(e, len(src))
		}
	}
	flush()
	return items, serr
}

// classify tells the kind of an item from its first tokens.
func classify(toks []token.Token) (Kind, bool) {
	if len(toks) == 0 {
		return Stmts, false
	}
	switch toks[0] {
	case token.PACKAGE:
		return Decls, true
	case token.IMPORT:
		return Imports, false
	case token.TYPE, token.CONST, token.VAR:
		return Decls, false
	case token.FUNC:
		if len(toks) < 2 || toks[1] == token.IDENT {
			return Decls, false
		}
		if toks[1] != token.LPAREN {
			return Stmts, false
		}
		// func (recv) Name( is a method; anything else is a func literal.
		d := 0
		for i := 1; i < len(toks); i++ {
			switch toks[i] {
			case token.LPAREN, token.LBRACK, token.LBRACE:
				d++
			case token.RPAREN, token.RBRACK, token.RBRACE:
				d--
			}
			if d == 0 {
				if i+2 < len(toks) && toks[i+1] == token.IDENT && toks[i+2] == token.LPAREN {
					return Decls, false
				}
				return Stmts, false
			}
		}
		return Stmts, false
	}
	return Stmts, false
}

// keepText returns src with everything outside the kept spans blanked
// (newlines stay). In the gap after a span its explicit ';' is kept, and if
// it had none but the next span is on the same line a ';' is put so that
// they stay separate.
func keepText(src string, spans []span) string {
	b := []byte(blank(src))
	for i, sp := range spans {
		copy(b[sp.start:sp.end], src[sp.start:sp.end])
		if i+1 < len(spans) {
			for _, g := range gapSemis(src, sp, spans[i+1].start) {
				b[g] = ';'
			}
		}
	}
	return string(b)
}

// gapSemis returns where to put a ';' in the gap between sp and the next
// span starting at next: the explicit ones, or one if there is none and
// the gap has no newline.
func gapSemis(src string, sp span, next int) []int {
	var out []int
	for _, o := range sp.semis {
		if o >= sp.end && o < next {
			out = append(out, o)
		}
	}
	if len(out) == 0 && sp.end < next && !strings.Contains(src[sp.end:next], "\n") {
		out = append(out, sp.end)
	}
	return out
}

func spansOf(items []item, keep func(item) bool) []span {
	var sp []span
	for _, it := range items {
		if !it.pkgClause && keep(it) {
			sp = append(sp, span{it.start, it.end, it.semis})
		}
	}
	return sp
}

// importSpec is an import of a cell or of the context.
type importSpec struct {
	name  string // explicit name ("", ".", "_" or an identifier)
	path  string
	local string // the name it is known by: explicit name, package name, "." or "_"
}

func (im importSpec) key() string {
	if im.local == "." || im.local == "_" {
		return im.local + im.path
	}
	return im.local
}

func (im importSpec) source() string {
	if im.name != "" {
		return im.name + " " + strconv.Quote(im.path)
	}
	return strconv.Quote(im.path)
}

// parsedCell is a cell split into items and parsed as three synthetic files
// that keep the cell's line:col (shifted by one line):
//
//	imp:  "package main;" + "\n" + imports
//	decl: "package main; import (...)" + "\n" + declarations
//	stmt: "package main; import (...); func __ngcell() {" + "\n" + statements + "\n}"
//
// In each, the parts of the cell of other kinds are blanked.
type parsedCell struct {
	src   string
	li    lineIndex
	items []item
	fset  *token.FileSet

	impAST, declAST, stmtAST    *ast.File
	impFile, declFile, stmtFile *token.File
	impShift, declShift         int // file offset - cell offset
	stmtShift                   int
	imports                     []importSpec // the cell's imports
	body                        []ast.Stmt   // the cell's top-level statements
	decls                       []ast.Decl   // the cell's declarations (no imports)
}

const cellFunc = "__ngcell"

// parseCell parses src. ctxImports are put in the header of the decl and
// stmt files (after the cell's own imports, which win on a name clash).
// resolve gives the local name of an import without an explicit name.
func parseCell(src string, ctxImports []importSpec, resolve func(path string) string) (*parsedCell, *Error) {
	pc := &parsedCell{src: src, li: newLineIndex(src), fset: token.NewFileSet()}
	const mode = parser.SkipObjectResolution
	var errs []*Error
	var serr *Error
	pc.items, serr = splitItems(src)
	if serr != nil {
		errs = append(errs, serr)
	}

	// Imports.
	impHdr := "package main;\n"
	pc.impShift = len(impHdr)
	impSrc := impHdr + keepText(src, spansOf(pc.items, func(it item) bool { return it.kind == Imports }))
	f, err := parser.ParseFile(pc.fset, "", impSrc, mode)
	errs = pc.addErrs(errs, err)
	pc.impAST, pc.impFile = f, pc.fset.File(f.FileStart)
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, sp := range gd.Specs {
			is := sp.(*ast.ImportSpec)
			path, err := strconv.Unquote(is.Path.Value)
			if err != nil || path == "" {
				continue
			}
			im := importSpec{path: path}
			if is.Name != nil {
				im.name = is.Name.Name
				im.local = im.name
			} else {
				im.local = resolve(path)
			}
			pc.imports = append(pc.imports, im)
		}
	}

	// Header imports: the cell's, then the context's not overridden.
	var hdr strings.Builder
	seen := map[string]bool{}
	var all []importSpec
	for _, im := range pc.imports {
		if !seen[im.key()] {
			seen[im.key()] = true
			all = append(all, im)
		}
	}
	for _, im := range ctxImports {
		if !seen[im.key()] {
			seen[im.key()] = true
			all = append(all, im)
		}
	}
	hdr.WriteString("package main;")
	if len(all) > 0 {
		hdr.WriteString(" import (")
		for i, im := range all {
			if i > 0 {
				hdr.WriteString("; ")
			}
			hdr.WriteString(im.source())
		}
		hdr.WriteString(");")
	}

	// Declarations.
	declHdr := hdr.String() + "\n"
	pc.declShift = len(declHdr)
	f, err = parser.ParseFile(pc.fset, "", declHdr+keepText(src, spansOf(pc.items, func(it item) bool { return it.kind == Decls })), mode)
	errs = pc.addErrs(errs, err)
	pc.declAST, pc.declFile = f, pc.fset.File(f.FileStart)
	for _, d := range f.Decls {
		if pc.declFile.Offset(d.Pos()) >= pc.declShift {
			pc.decls = append(pc.decls, d)
		}
	}

	// Statements.
	stmtHdr := hdr.String() + " func " + cellFunc + "() {\n"
	pc.stmtShift = len(stmtHdr)
	f, err = parser.ParseFile(pc.fset, "", stmtHdr+keepText(src, spansOf(pc.items, func(it item) bool { return it.kind == Stmts }))+"\n}", mode)
	errs = pc.addErrs(errs, err)
	pc.stmtAST, pc.stmtFile = f, pc.fset.File(f.FileStart)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == cellFunc && fd.Body != nil {
			pc.body = fd.Body.List
		}
	}

	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool {
			if errs[i].Line != errs[j].Line {
				return errs[i].Line < errs[j].Line
			}
			return errs[i].Col < errs[j].Col
		})
		return pc, errs[0]
	}
	return pc, nil
}

// addErrs converts parse errors (positions in a synthetic file) to cell
// positions.
func (pc *parsedCell) addErrs(errs []*Error, err error) []*Error {
	if err == nil {
		return errs
	}
	el, ok := err.(scanner.ErrorList)
	if !ok || len(el) == 0 {
		return append(errs, &Error{Msg: err.Error()})
	}
	e := el[0]
	line, col := pc.clampPos(e.Pos.Line-LineOffset, e.Pos.Column)
	return append(errs, &Error{Line: line, Col: col, Msg: e.Msg})
}

// clampPos keeps a synthetic-file position inside the cell.
func (pc *parsedCell) clampPos(line, col int) (int, int) {
	n := len(pc.li)
	if line < 1 {
		return 1, 1
	}
	if line > n {
		line = n
		lastLen := len(pc.src) - pc.li[n-1]
		return line, lastLen + 1
	}
	if col < 1 {
		col = 1
	}
	return line, col
}

// off returns the cell offset of a position in one of the synthetic files,
// or -1.
func (pc *parsedCell) off(p token.Pos) int {
	if !p.IsValid() {
		return -1
	}
	for _, x := range []struct {
		f     *token.File
		shift int
	}{{pc.stmtFile, pc.stmtShift}, {pc.declFile, pc.declShift}, {pc.impFile, pc.impShift}} {
		if x.f == nil {
			continue
		}
		if b := x.f.Base(); int(p) >= b && int(p) <= b+x.f.Size() {
			o := int(p) - b - x.shift
			if o < 0 || o > len(pc.src) {
				return -1
			}
			return o
		}
	}
	return -1
}

// inCell reports whether p is in the cell's own text (not in a header).
func (pc *parsedCell) inCell(p token.Pos) bool { return pc.off(p) >= 0 }

// text returns the cell text of node n.
func (pc *parsedCell) text(n ast.Node) string {
	s, e := pc.off(n.Pos()), pc.off(n.End())
	if s < 0 || e < s {
		return ""
	}
	return pc.src[s:e]
}

// errAt makes an *Error at position p.
func (pc *parsedCell) errAt(p token.Pos, msg string) *Error {
	o := pc.off(p)
	if o < 0 {
		return &Error{Msg: msg}
	}
	l, c := pc.li.pos(o)
	return &Error{Line: l, Col: c, Msg: msg}
}

// lastPathElem guesses a package name from its import path.
func lastPathElem(path string) string {
	elems := strings.Split(path, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) >= 2 && name[0] == 'v' && isDigits(name[1:]) {
		name = elems[len(elems)-2]
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	name = strings.TrimPrefix(name, "go-")
	return strings.ReplaceAll(name, "-", "_")
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
