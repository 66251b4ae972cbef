package native

import (
	"context"
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"strings"
	"time"
)

// cellPathPrefix is the import path prefix of compiled cell packages.
const cellPathPrefix = "neurogo.cells/c"

// Session compiles and runs the cells of one notebook. Cells keep state:
// every top-level name a cell declares (types, functions, methods,
// constants, variables, and the variables its top-level statements define
// with :=) stays visible to later cells. It is not safe for concurrent use.
type Session struct {
	tc   *toolchain
	dir  string
	fset *token.FileSet
	imp  types.Importer

	cells   []*compiled
	imports []importSpec   // persistent imports, in order; later ones win
	owner   map[string]int // live top-level name → index in cells
	binder  Binder         // imported packages' values, for the evaluator
	lastPkg *types.Package // the notebook as last checked (for stale names)
	docs    Docs           // imported packages' documentation, for inspection

	// Timings of the last Run (for benchmarks and logs).
	Timings Timings
}

// Timings are the phases of a compiled cell, for benchmarks.
type Timings struct {
	Check, Generate, Compile, Link, Open, Run time.Duration
}

// importSpec is an import: its name as written ("" if not renamed), its
// path, and the package's own name (math/rand/v2 is rand).
type importSpec struct{ name, path, pkg string }

// key is the name the import binds in the file.
func (im importSpec) key() string {
	if im.name != "" {
		return im.name
	}
	if im.pkg != "" {
		return im.pkg
	}
	return lastElem(im.path)
}

func lastElem(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// compiled is a loaded cell package.
type compiled struct {
	index   int
	pkg     string // import path
	alias   string // import name in later cells
	archive string
	files   []*ast.File     // decl file and hoist file, for the view
	names   map[string]bool // top-level names it declared ("T.M" for methods)
	src     string          // the cell's source
	seq     int             // sequence number in package and file names
	hdrA    int             // header length of its declaration file
}

// Options configure a Session.
type Options struct {
	// Root is the neurogo module root ("go list" resolves the toolkit's
	// packages there).
	Root string
	// Dir holds generated sources, archives and plugins ("" = a new
	// temporary directory from NewWorkDir, owned by this process and
	// removed by Close).
	Dir string
}

// New prepares a session: it checks the toolchain and starts listing the
// packages cells use most, so that the first cell compiles sooner.
func New(opt Options) (*Session, error) {
	tc, err := newToolchain(opt.Root)
	if err != nil {
		return nil, err
	}
	dir := opt.Dir
	if dir == "" {
		dir, err = NewWorkDir(os.Getpid())
		if err != nil {
			return nil, err
		}
	}
	s := &Session{tc: tc, dir: dir, fset: token.NewFileSet(), owner: map[string]int{}}
	s.imp = importer.ForCompiler(s.fset, "gc", func(path string) (io.ReadCloser, error) {
		f := tc.exportFile(path)
		if f == "" {
			return nil, fmt.Errorf("package %q is not available to cells", path)
		}
		return os.Open(f)
	})
	return s, nil
}

// Warm makes the export data of the runtime cells always need and of the
// given packages available (compiling them on first use).
func (s *Session) Warm(ctx context.Context, paths ...string) error {
	base := []string{"runtime/cgo", "runtime", "reflect", "github.com/neurogo/neurogo/kernel/kernelrt"}
	return s.tc.ensure(ctx, append(base, paths...)...)
}

// Close removes the session's directory.
func (s *Session) Close() error { return os.RemoveAll(s.dir) }

// Result is the outcome of a cell.
type Result struct {
	Value    any
	HasValue bool
}

// RunError is a failed cell.
type RunError struct {
	// Kind is "compile", "panic", "exit", "interrupt" or "error" (the
	// error of a cell's final call, in Value).
	Kind string
	// Compile errors, in cell coordinates.
	Errors []*Error
	// Panic value and the cell-relative frames.
	Value  any
	Frames []Frame
	// Exit code of os.Exit.
	Code int
	// Build output when the toolchain failed.
	Output string
}

// Frame is a stack frame in a cell.
type Frame struct {
	Func    string // function name as declared ("cell" for top-level statements)
	Line    int
	Current bool // in the cell being run (else in an earlier cell)
	Cell    int  // index of the declaring cell
}

func (e *RunError) Error() string {
	switch e.Kind {
	case "compile":
		var b []string
		for _, x := range e.Errors {
			b = append(b, x.Error())
		}
		if e.Output != "" {
			b = append(b, e.Output)
		}
		return strings.Join(b, "\n")
	case "exit":
		return fmt.Sprintf("os.Exit(%d)", e.Code)
	case "interrupt":
		return "interrupted"
	case "error":
		return fmt.Sprint(e.Value)
	}
	return fmt.Sprintf("panic: %v", e.Value)
}

// Source returns the source of cell i (for tracebacks into earlier cells).
func (s *Session) Source(i int) string {
	if i < 0 || i >= len(s.cells) {
		return ""
	}
	return s.cells[i].src
}
