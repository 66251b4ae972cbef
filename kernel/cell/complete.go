package cell

import (
	"go/scanner"
	"go/token"
	"strings"
)

// Indent is the indentation unit IsComplete suggests per open bracket.
const Indent = "    "

// IsComplete answers Jupyter's is_complete_request for a cell: status is
// "complete" (the cell can run; it may still have errors that only
// evaluation reveals, such as type errors), "incomplete" (brackets, a raw
// string or a block comment are still open, or the code stops in the middle
// of a statement; indent is then the suggested indentation of the next line)
// or "invalid" (a syntax error that more lines cannot fix: a closing bracket
// that does not match, an interpreted string or rune literal left open at
// the end of a line, or any other syntax error before the end of the text).
func IsComplete(src string) (status, indent string) {
	defer func() {
		if recoverPanics {
			if r := recover(); r != nil {
				status, indent = "invalid", ""
			}
		}
	}()
	if strings.TrimSpace(src) == "" {
		return "complete", ""
	}
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	openLit, badLit := false, false
	s.Init(file, []byte(src), func(_ token.Position, msg string) {
		switch {
		case strings.Contains(msg, "raw string literal not terminated"), strings.Contains(msg, "comment not terminated"):
			openLit = true
		default:
			badLit = true
		}
	}, scanner.ScanComments)
	var stack []token.Token
	lastEnd := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.COMMENT || tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		off := file.Offset(pos)
		lastEnd = tokEnd(src, off, tok, lit)
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			stack = append(stack, tok)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			want := map[token.Token]token.Token{token.RPAREN: token.LPAREN, token.RBRACK: token.LBRACK, token.RBRACE: token.LBRACE}[tok]
			if len(stack) == 0 || stack[len(stack)-1] != want {
				return "invalid", ""
			}
			stack = stack[:len(stack)-1]
		}
	}
	if badLit {
		return "invalid", ""
	}
	if openLit {
		return "incomplete", ""
	}
	if len(stack) > 0 {
		return "incomplete", strings.Repeat(Indent, len(stack))
	}
	pc, err := parseCell(src, nil, lastPathElem)
	if err == nil {
		return "complete", ""
	}
	off := len(src)
	if err.Line >= 1 && err.Line <= len(pc.li) {
		off = pc.li[err.Line-1] + err.Col - 1
	}
	if off >= lastEnd {
		return "incomplete", ""
	}
	return "invalid", ""
}
