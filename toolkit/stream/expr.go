package stream

import (
	"fmt"
	"math"
	"strconv"
)

// ExprError is a failed evaluation of an arithmetic expression: the
// expression, the 1-based column of the offending token in it, and why.
type ExprError struct {
	Expr string
	Col  int
	Msg  string
}

func (e *ExprError) Error() string {
	return fmt.Sprintf("expression %q, column %d: %s", e.Expr, e.Col, e.Msg)
}

// maxExprDepth bounds the nesting of parentheses, unary signs and powers.
const maxExprDepth = 100

// Eval evaluates an arithmetic expression over float64 as statestream's
// globals (docs/globals.md) use them, without executing any code: numbers
// (1, 2.5, 1e-3), names of vars, the binary operators + - * / // % ** with
// Python's precedence and semantics (// floors, % takes the sign of the
// divisor, ** binds tighter than a unary minus on its left and is
// right-associative), unary + and -, parentheses and the functions
// min(a, b, …), max(a, b, …), abs(x), int(x) (truncation toward zero) and
// round(x) (half to even, as Python 3).
//
// Anything else (strings, brackets, attribute access, other names or
// calls, lambda, __import__('os')) is an *ExprError naming the expression
// and the column of the offending token, as are division by zero and
// results that are not finite.
func Eval(expr string, vars map[string]float64) (float64, error) {
	p := &exprParser{tokenStream: tokenStream{src: expr}, vars: vars}
	if err := p.lex(); err != nil {
		return 0, err
	}
	v, err := p.expr(0)
	if err != nil {
		return 0, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return 0, p.errAt(t, "unexpected %s", t.describe())
	}
	return v, nil
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokNum
	tokName
	tokOp
	tokBad // a lexing error; text is the message
)

type token struct {
	kind tokKind
	text string
	num  float64
	col  int // 1-based, in runes
}

func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of expression"
	case tokNum:
		return "number " + t.text
	case tokName:
		return "name " + t.text
	}
	return fmt.Sprintf("%q", t.text)
}

type exprParser struct {
	tokenStream
	vars map[string]float64
}

func (p *exprParser) errAt(t token, format string, args ...any) error {
	if t.kind == tokBad {
		return &ExprError{Expr: p.src, Col: t.col, Msg: t.text}
	}
	return &ExprError{Expr: p.src, Col: t.col, Msg: fmt.Sprintf(format, args...)}
}

// exprOps are the operators of an arithmetic expression, longest first.
var exprOps = []string{"**", "//", "*", "/", "+", "-", "%", "(", ")", ","}

func (p *exprParser) lex() error {
	return p.scan(exprOps, func(rs []rune, i int) (token, bool, error) {
		// reported when the parser reaches it, so that an earlier problem
		// (e.g. an unknown function) is named first
		if c := rs[i]; c == '\'' || c == '"' {
			return token{kind: tokBad, text: "strings are not allowed in expressions", col: i + 1}, true, nil
		}
		return token{kind: tokBad, text: fmt.Sprintf("unexpected character %q (only numbers, names of globals, + - * / // %% **, parentheses, min, max, abs, int and round are allowed)", rs[i]), col: i + 1}, true, nil
	})
}

func (p *exprParser) check(t token, v float64) (float64, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, p.errAt(t, "result is not a finite number")
	}
	return v, nil
}

// expr := term (('+' | '-') term)*
func (p *exprParser) expr(depth int) (float64, error) {
	if depth > maxExprDepth {
		return 0, p.errAt(p.peek(), "expression nested too deeply")
	}
	v, err := p.term(depth)
	if err != nil {
		return 0, err
	}
	for p.isOp("+") || p.isOp("-") {
		op := p.next()
		w, err := p.term(depth)
		if err != nil {
			return 0, err
		}
		if op.text == "+" {
			v += w
		} else {
			v -= w
		}
		if v, err = p.check(op, v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// term := unary (('*' | '/' | '//' | '%') unary)*
func (p *exprParser) term(depth int) (float64, error) {
	v, err := p.unary(depth)
	if err != nil {
		return 0, err
	}
	for p.isOp("*") || p.isOp("/") || p.isOp("//") || p.isOp("%") {
		op := p.next()
		w, err := p.unary(depth)
		if err != nil {
			return 0, err
		}
		if op.text != "*" && w == 0 {
			return 0, p.errAt(op, "division by zero")
		}
		switch op.text {
		case "*":
			v *= w
		case "/":
			v /= w
		case "//":
			v = math.Floor(v / w)
		case "%":
			v -= w * math.Floor(v/w)
		}
		if v, err = p.check(op, v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// unary := ('-' | '+') unary | power
func (p *exprParser) unary(depth int) (float64, error) {
	if depth > maxExprDepth {
		return 0, p.errAt(p.peek(), "expression nested too deeply")
	}
	if p.isOp("-") || p.isOp("+") {
		op := p.next()
		v, err := p.unary(depth + 1)
		if op.text == "-" {
			v = -v
		}
		return v, err
	}
	return p.power(depth)
}

// power := atom ('**' unary)?
func (p *exprParser) power(depth int) (float64, error) {
	v, err := p.atom(depth)
	if err != nil {
		return 0, err
	}
	if p.isOp("**") {
		op := p.next()
		w, err := p.unary(depth + 1)
		if err != nil {
			return 0, err
		}
		if v == 0 && w < 0 {
			return 0, p.errAt(op, "division by zero (0 to a negative power)")
		}
		return p.check(op, math.Pow(v, w))
	}
	return v, nil
}

// atom := number | name | function '(' args ')' | '(' expr ')'
func (p *exprParser) atom(depth int) (float64, error) {
	t := p.next()
	switch {
	case t.kind == tokNum:
		return t.num, nil
	case t.kind == tokOp && t.text == "(":
		v, err := p.expr(depth + 1)
		if err != nil {
			return 0, err
		}
		if !p.isOp(")") {
			c := p.peek()
			return 0, p.errAt(c, "expected \")\", found %s", c.describe())
		}
		p.next()
		return v, nil
	case t.kind == tokName && p.isOp("("):
		return p.call(t, depth)
	case t.kind == tokName:
		v, ok := p.vars[t.text]
		if !ok {
			names := make([]string, 0, len(p.vars))
			for k := range p.vars {
				names = append(names, k)
			}
			msg := fmt.Sprintf("unknown name %q (not a global)", t.text)
			if s := suggest(t.text, names); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return 0, p.errAt(t, "%s", msg)
		}
		return v, nil
	}
	return 0, p.errAt(t, "unexpected %s", t.describe())
}

func (p *exprParser) call(fn token, depth int) (float64, error) {
	switch fn.text {
	case "min", "max", "abs", "int", "round":
	default:
		return 0, p.errAt(fn, "unknown function %q (allowed: min, max, abs, int, round)", fn.text)
	}
	p.next() // (
	var args []float64
	if !p.isOp(")") {
		for {
			v, err := p.expr(depth + 1)
			if err != nil {
				return 0, err
			}
			args = append(args, v)
			if p.isOp(",") {
				p.next()
				continue
			}
			break
		}
	}
	if !p.isOp(")") {
		c := p.peek()
		return 0, p.errAt(c, "expected \",\" or \")\", found %s", c.describe())
	}
	p.next()
	switch fn.text {
	case "min", "max":
		if len(args) < 2 {
			return 0, p.errAt(fn, "%s needs at least 2 arguments, got %d", fn.text, len(args))
		}
		v := args[0]
		for _, a := range args[1:] {
			if fn.text == "min" {
				v = math.Min(v, a)
			} else {
				v = math.Max(v, a)
			}
		}
		return v, nil
	}
	if len(args) != 1 {
		return 0, p.errAt(fn, "%s needs 1 argument, got %d", fn.text, len(args))
	}
	switch fn.text {
	case "abs":
		return math.Abs(args[0]), nil
	case "int":
		return math.Trunc(args[0]), nil
	}
	return math.RoundToEven(args[0]), nil
}

// evalInt evaluates expr and requires an integer result.
func evalInt(expr string, vars map[string]float64) (int, error) {
	v, err := Eval(expr, vars)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
		return 0, &ExprError{Expr: expr, Col: 1, Msg: fmt.Sprintf("must be an integer, got %g", v)}
	}
	return int(v), nil
}

// lexNumber reads the number (digits, a decimal point, an exponent) that
// starts at rune i of rs, the runes of src, and returns its token and the
// index after it.
func lexNumber(src string, rs []rune, i int) (token, int, error) {
	col := i + 1
	j := i
	for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == '.') {
		j++
	}
	if j < len(rs) && (rs[j] == 'e' || rs[j] == 'E') {
		k := j + 1
		if k < len(rs) && (rs[k] == '+' || rs[k] == '-') {
			k++
		}
		if k < len(rs) && rs[k] >= '0' && rs[k] <= '9' {
			for k < len(rs) && rs[k] >= '0' && rs[k] <= '9' {
				k++
			}
			j = k
		}
	}
	text := string(rs[i:j])
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) {
		return token{}, j, &ExprError{Expr: src, Col: col, Msg: fmt.Sprintf("malformed number %q", text)}
	}
	return token{kind: tokNum, text: text, num: v, col: col}, j, nil
}

// lexName reads the name (a letter or _, then letters, digits and _) that
// starts at rune i of rs and returns its token and the index after it.
func lexName(rs []rune, i int) (token, int) {
	j := i
	for j < len(rs) && (rs[j] == '_' || rs[j] >= 'a' && rs[j] <= 'z' || rs[j] >= 'A' && rs[j] <= 'Z' || rs[j] >= '0' && rs[j] <= '9') {
		j++
	}
	return token{kind: tokName, text: string(rs[i:j]), col: i + 1}, j
}

// tokenStream is the tokens of an expression and the parser's place in
// them.
type tokenStream struct {
	src  string
	toks []token
	pos  int
}

// scan splits src into tokens: numbers, names and the operators in ops
// (longest first); blanks separate them. Any other character goes to
// other, which returns an error or a token to keep and whether to stop
// there. The tokens end with tokEOF.
func (p *tokenStream) scan(ops []string, other func(rs []rune, i int) (token, bool, error)) error {
	rs := []rune(p.src)
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '9':
			t, j, err := lexNumber(p.src, rs, i)
			if err != nil {
				return err
			}
			p.toks = append(p.toks, t)
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			t, j := lexName(rs, i)
			p.toks = append(p.toks, t)
			i = j
		default:
			if op := matchOp(rs, i, ops); op != "" {
				p.toks = append(p.toks, token{kind: tokOp, text: op, col: i + 1})
				i += len([]rune(op))
				continue
			}
			t, stop, err := other(rs, i)
			if err != nil {
				return err
			}
			p.toks = append(p.toks, t)
			if stop {
				i = len(rs)
			} else {
				i++
			}
		}
	}
	p.toks = append(p.toks, token{kind: tokEOF, col: len(rs) + 1})
	return nil
}

// matchOp returns the first of ops that rs holds at i ("" if none).
func matchOp(rs []rune, i int, ops []string) string {
	for _, op := range ops {
		r := []rune(op)
		if i+len(r) <= len(rs) && string(rs[i:i+len(r)]) == op {
			return op
		}
	}
	return ""
}

func (p *tokenStream) peek() token { return p.toks[p.pos] }

func (p *tokenStream) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

func (p *tokenStream) isOp(s string) bool {
	t := p.peek()
	return t.kind == tokOp && t.text == s
}
