package native

import (
	"go/scanner"
	"go/token"
	"strings"
)

// itemKind classifies a top-level item of a cell.
type itemKind int

const (
	itemPackage itemKind = iota // "package main": ignored
	itemImport
	itemDecl // func, method, type, const, var
	itemStmt
)

type tokInfo struct {
	pos int
	tok token.Token
	lit string
	end int
}

// item is one top-level item of a cell: [start, end) byte offsets.
type item struct {
	kind       itemKind
	start, end int
	tok        token.Token // first token
	// migrated: moved into the cell with its type (see migrate).
	migrated bool
}

// splitItems splits a cell at top level. A cell is a sequence of imports,
// declarations and statements in any order, separated as Go separates
// them (newlines and semicolons outside brackets). A func keyword starts a
// declaration when a name follows it ("func f(" or a method "func (r T)
// M("); otherwise it starts a statement (a function literal).
func splitItems(src string) ([]item, *Error) {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var s scanner.Scanner
	var firstErr *Error
	s.Init(file, []byte(src), func(pos token.Position, msg string) {
		if firstErr == nil {
			firstErr = &Error{Line: pos.Line, Col: pos.Column, Msg: msg}
		}
	}, scanner.ScanComments)
	var toks []tokInfo
	var comments [][2]int
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		if tok == token.COMMENT {
			comments = append(comments, [2]int{off, off + len(lit)})
			continue
		}
		end := off + len(lit)
		if lit == "" || tok == token.SEMICOLON && lit == "\n" {
			end = off + len(tok.String())
			if tok == token.SEMICOLON {
				end = off
				if lit == ";" {
					end = off + 1
				}
			}
		}
		toks = append(toks, tokInfo{off, tok, lit, end})
	}
	if firstErr != nil {
		return nil, firstErr
	}
	var items []item
	depth := 0
	start := -1
	var first token.Token
	var startIdx int
	flush := func(endIdx int) {
		if start < 0 {
			return
		}
		it := item{start: start, end: toks[endIdx].end, tok: first}
		it.kind = classify(toks[startIdx : endIdx+1])
		items = append(items, it)
		start = -1
	}
	header := false // in the header of for/if/switch, whose semicolons do not end it
	for i, t := range toks {
		switch t.tok {
		case token.FOR, token.IF, token.SWITCH:
			if depth == 0 {
				header = true
			}
		case token.LBRACE:
			if depth == 0 {
				header = false
			}
		}
		switch t.tok {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			if depth > 0 {
				depth--
			}
		}
		if depth == 0 && t.tok == token.SEMICOLON && !header {
			if start >= 0 {
				// the item ends before the separator
				flush(i - 1)
			}
			continue
		}
		if start < 0 {
			start, first, startIdx = t.pos, t.tok, i
		}
		if i == len(toks)-1 {
			flush(i)
		}
	}
	// A declaration keeps the comments right above it: its doc comment and
	// compiler directives such as //go:noinline.
	for i := range items {
		it := &items[i]
		if it.kind != itemDecl {
			continue
		}
		prevEnd := 0
		if i > 0 {
			prevEnd = items[i-1].end
		}
		for j := len(comments) - 1; j >= 0; j-- {
			c := comments[j]
			if c[1] > it.start || c[0] < prevEnd {
				continue
			}
			// Adjacent: only blanks and one newline between the comment and
			// the item (or the comment below it).
			gap := src[c[1]:it.start]
			if strings.Count(gap, "\n") > 1 || strings.TrimSpace(gap) != "" {
				break
			}
			// A comment must start its line to be a doc comment.
			ls := strings.LastIndexByte(src[:c[0]], '\n') + 1
			if strings.TrimSpace(src[ls:c[0]]) != "" {
				break
			}
			it.start = c[0]
		}
	}
	return items, nil
}

// classify returns the kind of an item from its tokens.
func classify(toks []tokInfo) itemKind {
	if len(toks) == 0 {
		return itemStmt
	}
	switch toks[0].tok {
	case token.PACKAGE:
		return itemPackage
	case token.IMPORT:
		return itemImport
	case token.TYPE, token.CONST, token.VAR:
		return itemDecl
	case token.FUNC:
		if len(toks) > 1 && toks[1].tok == token.IDENT {
			return itemDecl
		}
		if len(toks) > 1 && toks[1].tok == token.LPAREN {
			// "func (r T) M(" is a method; "func (x int) int {" a literal.
			d := 0
			for i := 1; i < len(toks); i++ {
				switch toks[i].tok {
				case token.LPAREN, token.LBRACK, token.LBRACE:
					d++
				case token.RPAREN, token.RBRACK, token.RBRACE:
					d--
				}
				if d == 0 {
					if i+2 < len(toks) && toks[i+1].tok == token.IDENT && toks[i+2].tok == token.LPAREN {
						return itemDecl
					}
					return itemStmt
				}
			}
		}
	}
	return itemStmt
}

// blankExcept returns src with every byte outside the kept items replaced
// by a space (newlines and the semicolons ending kept items kept), so
// positions stay where they were.
func blankExcept(src string, items []item, keep func(item) bool) string {
	b := []byte(src)
	keepMask := make([]bool, len(b))
	for _, it := range items {
		if keep(it) {
			for i := it.start; i < it.end && i < len(b); i++ {
				keepMask[i] = true
			}
			// The semicolon that separates it from the next item on its
			// line stays ("a := 1; a").
			j := it.end
			for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
				j++
			}
			if j < len(b) && b[j] == ';' {
				keepMask[j] = true
			}
		}
	}
	for i := range b {
		if !keepMask[i] && b[i] != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// Error is a compile error at a cell position (line and column from 1).
type Error struct {
	Line, Col int
	Msg       string
	More      []*Error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(posString(e.Line, e.Col) + e.Msg)
	for _, m := range e.More {
		b.WriteString("\n" + posString(m.Line, m.Col) + m.Msg)
	}
	return b.String()
}

func posString(l, c int) string {
	if l <= 0 {
		return ""
	}
	return itoa(l) + ":" + itoa(c) + ": "
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}
