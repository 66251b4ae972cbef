package cell

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Kind classifies a Segment.
type Kind int

const (
	// Imports is a segment made only of import declarations.
	Imports Kind = iota
	// Decls is a segment of package-level declarations: func, method, type,
	// var and const.
	Decls
	// Stmts is a segment of statements (including expression statements).
	Stmts
)

func (k Kind) String() string {
	switch k {
	case Imports:
		return "Imports"
	case Decls:
		return "Decls"
	case Stmts:
		return "Stmts"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// LineOffset is the fixed offset between the line numbers yaegi reports while
// evaluating a Segment.Src and the cell's own line numbers:
//
//	cellLine = yaegiLine - LineOffset, cellCol = yaegiCol
//
// Every Segment.Src starts with one newline so that the text yaegi prepends
// ("package main;" or "package main; func main() {") sits alone on line 1
// and never shifts columns. Columns of text that Prepare rewrote are mapped
// exactly by MapPos; use MapPos rather than the raw formula when you have the
// segment at hand.
const LineOffset = 1

// GoPanicFunc is the name of the interpreted function, of type func(any),
// that rewritten go statements call with the value of a recovered panic. The
// kernel must declare it in the interpreter before running any cell.
const GoPanicFunc = "__neurogoGoPanic"

// Segment is a piece of a cell that yaegi can evaluate with one Eval call.
type Segment struct {
	Kind Kind
	// Src is the source to pass to yaegi's Eval. It is padded with leading
	// newlines and spaces so that yaegi positions, minus LineOffset lines,
	// are the cell's own line:col (see MapPos).
	Src string
	// Line is the 1-based first line of this segment in the cell.
	Line int
	// EndLine is the 1-based last line of this segment in the cell.
	EndLine int

	// cols records, for cell lines where Prepare spliced text, how output
	// columns map back to cell columns.
	cols map[int][]colPoint
}

// colPoint says: from output column out on, output columns map to cell
// column cell + (c - out); or, if ins, to cell column cell (inserted text).
type colPoint struct {
	out, cell int
	ins       bool
}

// Program is a prepared cell.
type Program struct {
	// Segments are the pieces to evaluate in order. All imports of the cell
	// are hoisted into one first Imports segment; the other segments follow
	// in source order.
	Segments []Segment
	// Result reports that the cell ends with an expression statement whose
	// value is the cell's result: the value returned by evaluating the last
	// segment. It is false for assignments, declarations, other statements
	// and calls known to have no result (builtins such as println, funcs
	// declared in the notebook, package functions the importer knows, and
	// any call when the cell was type-checked).
	Result bool
	// TypeChecked reports whether Prepare ran go/types on the cell (see the
	// package documentation for when it does).
	TypeChecked bool
	// Rewrites counts the source rewrites Prepare applied (range over int or
	// func, explicit type arguments, go statements).
	Rewrites int

	delta *delta
}

// Error is an error about a cell, positioned at the cell's own line and
// column (1-based; Col counts bytes like go/token). Line is 0 when the error
// has no position.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// Front prepares notebook cells for yaegi. It remembers the declarations and
// imports of the cells committed so far, to type-check later cells in their
// context. A Front is not safe for concurrent use.
type Front struct {
	imp      types.Importer
	impCache map[string]impResult

	imports []importSpec // committed imports, one per local name
	entries []*entry     // committed declarations, in commit order
	byKey   map[string]*entry

	seq int // for fresh names

	typeRecs map[string]*typeRec // type definitions handed out by Prepare (retype.go)
	hidden   map[string]bool     // context-only names of replaced types, not known to the interpreter
}

type impResult struct {
	pkg *types.Package
	err error
}

// New returns a Front that uses imp to import packages while type-checking
// cells. imp may be nil: then only the cells' own declarations are known.
// Import results (and failures) are cached for the life of the Front.
func New(imp types.Importer) *Front {
	return &Front{imp: imp, impCache: map[string]impResult{}, byKey: map[string]*entry{}, typeRecs: map[string]*typeRec{}, hidden: map[string]bool{}}
}

// recoverPanics makes Prepare convert an unexpected internal panic into an
// *Error. The fuzz test turns it off to find such panics.
var recoverPanics = true

// Prepare splits the cell src into segments, rewrites constructs yaegi
// v0.16.1 cannot evaluate and reports whether the cell has a result. It does
// not change f: call Commit once the program has been evaluated. Errors are
// of type *Error: syntax errors, and rewrites that are not supported (for
// instance goto inside a range-over-func loop). Type errors are tolerated:
// code whose types are unknown is left unchanged for yaegi to judge.
// Prepare does not change the context; it only records the definitions it
// gives the cell's type names (see the package documentation on redeclared
// types), so that they stay right even if the program is never committed.
func (f *Front) Prepare(src string) (p *Program, err error) {
	if recoverPanics {
		defer func() {
			if r := recover(); r != nil {
				p = nil
				err = &Error{Msg: fmt.Sprintf("neurogo cell front-end: internal error: %v", r)}
			}
		}()
	}
	return f.prepare(src)
}

// Commit records the imports and declarations of p, which has been evaluated
// successfully, as context for later cells: funcs, methods, types, vars,
// consts and the globals created by top-level := statements. A declaration
// of a name that is already known replaces the earlier one. Commit may also
// be called after a run that failed part way, since the segments evaluated
// before the failure did define their names; committing names that were
// never defined only makes later type-checks more permissive.
func (f *Front) Commit(p *Program) {
	if p == nil || p.delta == nil {
		return
	}
	d := p.delta
	for _, im := range d.imports {
		f.addImport(im)
	}
	for _, e := range d.entries {
		if e.kind == token.TYPE {
			f.retireType(e)
		}
	}
	for _, e := range d.entries {
		f.addEntry(e)
	}
}

// Reset forgets all committed context (for a kernel restart).
func (f *Front) Reset() {
	f.imports = nil
	f.entries = nil
	f.byKey = map[string]*entry{}
	f.typeRecs = map[string]*typeRec{}
	f.hidden = map[string]bool{}
}

// Context returns the source that Prepare uses as the context of earlier
// cells: imports and declarations, one per line group. It is meant for
// debugging and for tests.
func (f *Front) Context() string {
	return f.contextSource(nil, false)
}

// MapPos translates a position that yaegi reports while evaluating seg.Src
// (1-based line and byte column, as in "5:12: undefined: x") back to the
// cell's own line and column. Columns inside text inserted by a rewrite map
// to the start of the rewritten construct. Positions that fall outside the
// segment (such as the line of the wrapper yaegi adds) give 0, 0.
func MapPos(seg Segment, yaegiLine, yaegiCol int) (line, col int) {
	line = yaegiLine - LineOffset
	if line < seg.Line || line > seg.EndLine || line < 1 {
		return 0, 0
	}
	col = yaegiCol
	if pts := seg.cols[line]; len(pts) > 0 {
		i := sort.Search(len(pts), func(i int) bool { return pts[i].out > yaegiCol }) - 1
		if i >= 0 {
			p := pts[i]
			if p.ins {
				col = p.cell
			} else {
				col = p.cell + (yaegiCol - p.out)
			}
		}
	}
	if col < 1 {
		col = 1
	}
	return line, col
}

// lineIndex gives line and column numbers of byte offsets in a text.
type lineIndex []int // offsets of line starts

func newLineIndex(s string) lineIndex {
	li := lineIndex{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			li = append(li, i+1)
		}
	}
	return li
}

// pos returns the 1-based line and column of offset off.
func (li lineIndex) pos(off int) (line, col int) {
	i := sort.Search(len(li), func(i int) bool { return li[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - li[i] + 1
}

// blank returns s with every byte except newlines replaced by a space.
func blank(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}
