package stream

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// This file reads activations as statestream writes them
// (docs/neuron_pools.md): a name ("relu", "spiky"), or an expression in the
// placeholder $ for the pool's input, with backend functions prefixed by
// "B." ("$**2 + B.tanh($)", "B.exp($) * B.sigmoid($)", "B.relu($,
// thresh=0.5)"). statestream hands the text to Python's eval; here a small
// parser accepts the arithmetic and the elementwise backend functions
// below and nothing else, and evaluates the result, with its derivative,
// one value at a time.

// actFnSpec is an elementwise backend function: its parameter names after
// the input, their defaults and how many inputs it reads (1, or 2 for
// minimum / maximum).
type actFnSpec struct {
	params   []string
	defaults []float64
	inputs   int
}

// actFns are the elementwise functions of statestream's backend
// (backends/backend_tensorflow.py, the default backend), by name.
var actFns = map[string]actFnSpec{
	"Id":        {},
	"relu":      {params: []string{"thresh"}, defaults: []float64{0}},
	"leakyrelu": {params: []string{"leak"}, defaults: []float64{0.1}},
	"elu":       {params: []string{"alpha"}, defaults: []float64{1}},
	"selu":      {},
	"sigmoid":   {},
	"tanh":      {},
	"softplus":  {},
	"exp":       {},
	"mexp":      {},
	"square":    {},
	"msquare":   {},
	"gaussian":  {},
	"abs":       {},
	"sqrt":      {},
	"erf":       {},
	"log":       {params: []string{"eps"}, defaults: []float64{1e-6}},
	"neglog":    {params: []string{"eps"}, defaults: []float64{1e-6}},
	"sign":      {params: []string{"thresh"}, defaults: []float64{0}},
	"spiky":     {params: []string{"threshold", "saturation"}, defaults: []float64{1, 2}},
	"step":      {params: []string{"at", "left", "right"}, defaults: []float64{0, -1, 1}},
	"clip":      {params: []string{"min_value", "max_value"}, defaults: []float64{math.NaN(), math.NaN()}},
	"minimum":   {inputs: 2},
	"maximum":   {inputs: 2},
}

// seluLambda and seluAlpha are the constants of TensorFlow's selu
// (Klambauer et al. 2017), which statestream's tensorflow backend calls.
const (
	seluLambda = 1.0507009873554804934193349852946
	seluAlpha  = 1.6732632423543772848170429916717
)

type actOp byte

const (
	aoX     actOp = iota // the placeholder $
	aoConst              // a number
	aoNeg
	aoAdd
	aoSub
	aoMul
	aoDiv
	aoPow
	aoCall
)

// actNode is a node of a parsed activation.
type actNode struct {
	op   actOp
	v    float64 // aoConst
	fn   string  // aoCall
	par  []float64
	kids []*actNode
}

// actExpr is a parsed activation: name is the plain activation it equals
// ("relu" for "relu" and "B.relu($)"; "" for anything else), root its
// expression.
type actExpr struct {
	name string
	root *actNode
}

// eval returns f(x) and f'(x).
func (e *actExpr) eval(x float64) (float64, float64) { return e.root.eval(x) }

func (n *actNode) eval(x float64) (float64, float64) {
	switch n.op {
	case aoX:
		return x, 1
	case aoConst:
		return n.v, 0
	case aoNeg:
		v, d := n.kids[0].eval(x)
		return -v, -d
	case aoAdd, aoSub, aoMul, aoDiv, aoPow:
		a, da := n.kids[0].eval(x)
		b, db := n.kids[1].eval(x)
		switch n.op {
		case aoAdd:
			return a + b, da + db
		case aoSub:
			return a - b, da - db
		case aoMul:
			return a * b, da*b + a*db
		case aoDiv:
			return a / b, (da*b - a*db) / (b * b)
		}
		v := math.Pow(a, b)
		d := 0.0
		if da != 0 {
			d = b * math.Pow(a, b-1) * da
		}
		if db != 0 {
			d += v * math.Log(a) * db
		}
		return v, d
	}
	a, da := n.kids[0].eval(x)
	if len(n.kids) == 2 {
		b, db := n.kids[1].eval(x)
		if (n.fn == "minimum") == (a <= b) {
			return a, da
		}
		return b, db
	}
	v, d := applyFn(n.fn, n.par, a)
	return v, d * da
}

// applyFn returns fn(x) and fn'(x) for an elementwise backend function
// with parameters par (in actFns order), as statestream's tensorflow
// backend computes it.
func applyFn(fn string, par []float64, x float64) (float64, float64) {
	switch fn {
	case "Id":
		return x, 1
	case "relu":
		if x-par[0] > 0 {
			return x - par[0], 1
		}
		return 0, 0
	case "leakyrelu":
		// max(x, leak·x)
		if x >= par[0]*x {
			return x, 1
		}
		return par[0] * x, par[0]
	case "elu":
		// tensorflow: elu(x) for α = 1, else where(x > 0, elu(x), α·elu(x))
		if x > 0 {
			return x, 1
		}
		e := math.Exp(x)
		return par[0] * (e - 1), par[0] * e
	case "selu":
		if x > 0 {
			return seluLambda * x, seluLambda
		}
		e := math.Exp(x)
		return seluLambda * seluAlpha * (e - 1), seluLambda * seluAlpha * e
	case "sigmoid":
		y := 1 / (1 + math.Exp(-x))
		return y, y * (1 - y)
	case "tanh":
		y := math.Tanh(x)
		return y, 1 - y*y
	case "softplus":
		return max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))), 1 / (1 + math.Exp(-x))
	case "exp":
		y := math.Exp(x)
		return y, y
	case "mexp":
		y := math.Exp(x)
		return -y, -y
	case "square":
		return x * x, 2 * x
	case "msquare":
		return -x * x, -2 * x
	case "gaussian":
		y := math.Exp(-x * x)
		return y, -2 * x * y
	case "abs":
		switch {
		case x > 0:
			return x, 1
		case x < 0:
			return -x, -1
		}
		return 0, 0
	case "sqrt":
		// sqrt(clip(x, 0, ∞))
		if x <= 0 {
			return 0, 0
		}
		y := math.Sqrt(x)
		return y, 0.5 / y
	case "erf":
		return math.Erf(x), 2 / math.SqrtPi * math.Exp(-x*x)
	case "log", "neglog":
		s := 1.0
		if fn == "neglog" {
			s = -1
		}
		if x > par[0] {
			return s * math.Log(x), s / x
		}
		return s * math.Log(par[0]), 0
	case "sign":
		switch d := x - par[0]; {
		case d > 0:
			return 1, 0
		case d < 0:
			return -1, 0
		}
		return 0, 0
	case "spiky":
		return spiky(x, par[0], par[1])
	case "step":
		// left + (right − left)·(sign(x − at + 1e-8) + 1)/2
		at, left, right := par[0], par[1], par[2]
		s := 0.0
		switch d := x - at + 1e-8; {
		case d > 0:
			s = 1
		case d < 0:
			s = -1
		}
		return left + (right-left)*(s+1)/2, 0
	case "clip":
		switch {
		case x < par[0]:
			return par[0], 0
		case x > par[1]:
			return par[1], 0
		}
		return x, 1
	}
	panic("stream: applyFn: unknown function " + fn) // parse admits only actFns
}

// spiky is statestream's spiking activation (tensorflow backend, its
// default): 0 below 0 and from the saturation on, x up to the threshold,
// 2·saturation + 1e-8 (a spike) between threshold and saturation. The
// derivative is 1 on [0, threshold] below the saturation, else 0.
func spiky(x, threshold, saturation float64) (float64, float64) {
	if x < 0 || x >= saturation {
		return 0, 0
	}
	if x > threshold {
		return 2*saturation + 1e-8, 0
	}
	return x, 1
}

// maxActExprLen and maxActDepth bound what the parser reads.
const (
	maxActExprLen = 1000
	maxActDepth   = 100
)

// parseActivation reads an activation written as statestream writes it:
// "" (Id), a name of knownActs or actFns, or an expression in $.
func parseActivation(s string) (*actExpr, error) {
	src := strings.TrimSpace(s)
	if src == "" || src == "id" {
		return &actExpr{name: "Id", root: &actNode{op: aoX}}, nil
	}
	if len(src) > maxActExprLen {
		return nil, &ExprError{Expr: src[:40] + "…", Col: 1, Msg: fmt.Sprintf("activation longer than %d characters", maxActExprLen)}
	}
	if !strings.ContainsAny(src, "$()") {
		// a plain name: statestream calls B.<name>($)
		if slices.Contains(knownActs, src) {
			e := &actExpr{name: src}
			if sp, ok := actFns[src]; ok {
				e.root = &actNode{op: aoCall, fn: src, par: slices.Clone(sp.defaults), kids: []*actNode{{op: aoX}}}
			}
			return e, nil
		}
		if sp, ok := actFns[src]; ok && sp.inputs == 0 && !hasRequired(sp) {
			return &actExpr{root: &actNode{op: aoCall, fn: src, par: slices.Clone(sp.defaults), kids: []*actNode{{op: aoX}}}}, nil
		}
		msg := fmt.Sprintf("unknown activation %q", src)
		return nil, &ExprError{Expr: src, Col: 1, Msg: msg}
	}
	p := &actParser{tokenStream{src: src}}
	if err := p.lex(); err != nil {
		return nil, err
	}
	// B.softmax($) alone is the softmax activation (not elementwise, so
	// not part of the expression grammar).
	if len(p.toks) == 7 && p.toks[0].text == "B" && p.toks[1].text == "." && p.toks[2].kind == tokName &&
		p.toks[3].text == "(" && p.toks[4].text == "$" && p.toks[5].text == ")" && slices.Contains(knownActs, p.toks[2].text) {
		if _, ok := actFns[p.toks[2].text]; !ok {
			return &actExpr{name: p.toks[2].text}, nil
		}
	}
	root, err := p.sum(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.errAt(t, "unexpected %s", t.describe())
	}
	if !root.usesX() {
		return nil, &ExprError{Expr: src, Col: 1, Msg: "the activation does not use its input $"}
	}
	e := &actExpr{root: root}
	// B.name($) with default parameters is the plain activation name.
	if root.op == aoCall && len(root.kids) == 1 && root.kids[0].op == aoX && slices.Contains(knownActs, root.fn) &&
		slices.Equal(root.par, actFns[root.fn].defaults) {
		e.name = root.fn
	}
	return e, nil
}

func hasRequired(sp actFnSpec) bool {
	for _, d := range sp.defaults {
		if math.IsNaN(d) {
			return true
		}
	}
	return false
}

func (n *actNode) usesX() bool {
	if n.op == aoX {
		return true
	}
	for _, k := range n.kids {
		if k.usesX() {
			return true
		}
	}
	return false
}

type actParser struct {
	tokenStream
}

func (p *actParser) errAt(t token, format string, args ...any) error {
	return &ExprError{Expr: p.src, Col: t.col, Msg: fmt.Sprintf(format, args...)}
}

// actOps are the operators of an activation expression, longest first.
var actOps = []string{"**", "+", "-", "*", "/", "(", ")", ",", ".", "=", "$"}

func (p *actParser) lex() error {
	return p.scan(actOps, func(rs []rune, i int) (token, bool, error) {
		return token{}, true, &ExprError{Expr: p.src, Col: i + 1, Msg: fmt.Sprintf("unexpected character %q (an activation expression has numbers, $, + - * / **, parentheses and B.<function>(…))", rs[i])}
	})
}

// sum := product (('+' | '-') product)*
func (p *actParser) sum(depth int) (*actNode, error) {
	if depth > maxActDepth {
		return nil, p.errAt(p.peek(), "expression nested too deeply")
	}
	a, err := p.product(depth)
	if err != nil {
		return nil, err
	}
	for p.isOp("+") || p.isOp("-") {
		op := aoAdd
		if p.next().text == "-" {
			op = aoSub
		}
		b, err := p.product(depth)
		if err != nil {
			return nil, err
		}
		a = &actNode{op: op, kids: []*actNode{a, b}}
	}
	return a, nil
}

// product := unary (('*' | '/') unary)*
func (p *actParser) product(depth int) (*actNode, error) {
	a, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	for p.isOp("*") || p.isOp("/") {
		op := aoMul
		if p.next().text == "/" {
			op = aoDiv
		}
		b, err := p.unary(depth)
		if err != nil {
			return nil, err
		}
		a = &actNode{op: op, kids: []*actNode{a, b}}
	}
	return a, nil
}

// unary := ('-' | '+') unary | power
func (p *actParser) unary(depth int) (*actNode, error) {
	if depth > maxActDepth {
		return nil, p.errAt(p.peek(), "expression nested too deeply")
	}
	if p.isOp("-") || p.isOp("+") {
		neg := p.next().text == "-"
		a, err := p.unary(depth + 1)
		if err != nil || !neg {
			return a, err
		}
		if a.op == aoConst {
			return &actNode{op: aoConst, v: -a.v}, nil
		}
		return &actNode{op: aoNeg, kids: []*actNode{a}}, nil
	}
	return p.power(depth)
}

// power := atom ('**' unary)?   (Python: -x**2 is -(x**2), 2**-1 is 0.5)
func (p *actParser) power(depth int) (*actNode, error) {
	a, err := p.atom(depth)
	if err != nil {
		return nil, err
	}
	if p.isOp("**") {
		p.next()
		b, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &actNode{op: aoPow, kids: []*actNode{a, b}}, nil
	}
	return a, nil
}

// atom := number | '$' | '(' sum ')' | 'B' '.' function '(' arguments ')'
func (p *actParser) atom(depth int) (*actNode, error) {
	t := p.next()
	switch {
	case t.kind == tokNum:
		return &actNode{op: aoConst, v: t.num}, nil
	case t.kind == tokOp && t.text == "$":
		return &actNode{op: aoX}, nil
	case t.kind == tokOp && t.text == "(":
		a, err := p.sum(depth + 1)
		if err != nil {
			return nil, err
		}
		if !p.isOp(")") {
			c := p.peek()
			return nil, p.errAt(c, "expected \")\", found %s", c.describe())
		}
		p.next()
		return a, nil
	case t.kind == tokName && t.text == "B" && p.isOp("."):
		p.next()
		fn := p.next()
		if fn.kind != tokName {
			return nil, p.errAt(fn, "expected a backend function after \"B.\", found %s", fn.describe())
		}
		return p.call(fn, depth)
	case t.kind == tokName:
		if _, ok := actFns[t.text]; ok || slices.Contains(knownActs, t.text) {
			return nil, p.errAt(t, "write B.%s(…): statestream's expressions name backend functions with B. (docs/neuron_pools.md)", t.text)
		}
		return nil, p.errAt(t, "unknown name %q (an activation expression has numbers, $ and B.<function>(…))", t.text)
	}
	return nil, p.errAt(t, "unexpected %s", t.describe())
}

// call reads the arguments of B.fn: the input(s) (expressions in $),
// then the parameters, positional or name=value, each a constant.
func (p *actParser) call(fn token, depth int) (*actNode, error) {
	sp, ok := actFns[fn.text]
	if !ok {
		names := make([]string, 0, len(actFns))
		for k := range actFns {
			names = append(names, k)
		}
		sort.Strings(names)
		msg := fmt.Sprintf("B.%s is not an elementwise backend function neurogo evaluates (known: %s)", fn.text, strings.Join(names, ", "))
		if fn.text == "softmax" {
			msg = "B.softmax couples the features of a position, so it can only be the whole activation (act: softmax or B.softmax($))"
		} else if s := suggest(fn.text, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return nil, p.errAt(fn, "%s", msg)
	}
	if !p.isOp("(") {
		c := p.peek()
		return nil, p.errAt(c, "expected \"(\" after B.%s, found %s", fn.text, c.describe())
	}
	p.next()
	inputs := max(sp.inputs, 1)
	n := &actNode{op: aoCall, fn: fn.text, par: slices.Clone(sp.defaults)}
	set := make([]bool, len(sp.params))
	for i := 0; ; i++ {
		if p.isOp(")") {
			break
		}
		if i > 0 {
			if !p.isOp(",") {
				c := p.peek()
				return nil, p.errAt(c, "expected \",\" or \")\", found %s", c.describe())
			}
			p.next()
		}
		at := p.peek()
		if i < inputs {
			a, err := p.sum(depth + 1)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, a)
			continue
		}
		k := i - inputs
		if at.kind == tokName && p.toks[p.pos+1].kind == tokOp && p.toks[p.pos+1].text == "=" {
			p.pos += 2
			k = slices.Index(sp.params, at.text)
			if k < 0 {
				return nil, p.errAt(at, "B.%s has no parameter %q (parameters: %s)", fn.text, at.text, paramList(sp))
			}
		} else if k >= len(sp.params) {
			return nil, p.errAt(at, "B.%s takes %d argument(s), got more", fn.text, inputs+len(sp.params))
		}
		v, err := p.sum(depth + 1)
		if err != nil {
			return nil, err
		}
		if v.usesX() {
			return nil, p.errAt(at, "parameter %s of B.%s must be a number, not an expression in $", sp.params[k], fn.text)
		}
		c, _ := v.eval(0)
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return nil, p.errAt(at, "parameter %s of B.%s is not a finite number", sp.params[k], fn.text)
		}
		if set[k] {
			return nil, p.errAt(at, "parameter %s of B.%s given twice", sp.params[k], fn.text)
		}
		set[k] = true
		n.par[k] = c
	}
	p.next() // )
	if len(n.kids) < inputs {
		return nil, p.errAt(fn, "B.%s needs %d input(s), got %d", fn.text, inputs, len(n.kids))
	}
	for k, v := range n.par {
		if math.IsNaN(v) {
			return nil, p.errAt(fn, "B.%s needs parameter %s", fn.text, sp.params[k])
		}
	}
	return n, nil
}

func paramList(sp actFnSpec) string {
	if len(sp.params) == 0 {
		return "none"
	}
	return strings.Join(sp.params, ", ")
}

// compiledAct returns what an executor needs of activation s: its plain
// name when it is one of knownActs (written as the name or as B.name($)),
// and, when it is elementwise, the function with its derivative.
func compiledAct(s string) (name string, fn func(x float64) (y, dy float64), err error) {
	e, err := parseActivation(s)
	if err != nil {
		return "", nil, err
	}
	if e.root != nil {
		fn = e.eval
	}
	return e.name, fn, nil
}

// ActFunc returns the pool's activation (Act) as an executor runs it: name
// is the plain activation it equals, one of the names listed at Act
// ("relu" for "relu" and for "B.relu($)"; "" for any other expression),
// and fn, for every elementwise activation (all but softmax), computes
// y = act(x) and dy = act'(x). err says why Act is not an activation.
func (np *NeuronPool) ActFunc() (name string, fn func(x float64) (y, dy float64), err error) {
	return compiledAct(np.Act)
}

// ActFunc returns the activation of factor f (Act[f]; Id when absent) as
// NeuronPool.ActFunc does.
func (sp *SynapsePool) ActFunc(f int) (name string, fn func(x float64) (y, dy float64), err error) {
	if f < 0 || f >= len(sp.Act) {
		return compiledAct("")
	}
	return compiledAct(sp.Act[f])
}

// ACTFunc returns the synapse-pool's activation of the product (ACT) as
// NeuronPool.ActFunc does.
func (sp *SynapsePool) ACTFunc() (name string, fn func(x float64) (y, dy float64), err error) {
	return compiledAct(sp.ACT)
}

// PactFunc returns the pre-activation of summand a of factor f (Pact;
// Id when absent) as NeuronPool.ActFunc does.
func (sp *SynapsePool) PactFunc(f, a int) (name string, fn func(x float64) (y, dy float64), err error) {
	if f < 0 || f >= len(sp.Pact) || a < 0 || a >= len(sp.Pact[f]) {
		return compiledAct("")
	}
	return compiledAct(sp.Pact[f][a])
}

// actProblem returns why a is not an activation ("" when it is) and, for
// a misspelled name, the nearest known one.
func actProblem(a string) (msg, sug string) {
	_, err := parseActivation(a)
	if err == nil {
		return "", ""
	}
	s := strings.TrimSpace(a)
	if !strings.ContainsAny(s, "$()") {
		names := slices.Clone(knownActs)
		for k := range actFns {
			if !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		return fmt.Sprintf("unknown activation %q", a), suggest(s, names)
	}
	if e, ok := err.(*ExprError); ok {
		return fmt.Sprintf("activation %q, column %d: %s", a, e.Col, e.Msg), ""
	}
	return fmt.Sprintf("activation %q: %v", a, err), ""
}
