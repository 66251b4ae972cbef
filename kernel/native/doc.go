// Package native runs notebook cells as Go compiled by the Go toolchain,
// with state between cells.
//
// # How a cell runs
//
// A notebook is one Go package to its author: a later cell uses the
// types, functions, variables and constants of earlier ones, their
// unexported fields and methods included. Session.Run type-checks each
// cell with go/types as that package — the cell plus the live
// declarations of every earlier cell (their function bodies left out) —
// so names resolve, generics infer and errors read as Go's, at the cell's
// own line and column. It then writes the cell as a package of its own,
// named main (reflection prints main.T, panics name main.f), compiles it
// with `go tool compile` and links it with `go tool link
// -buildmode=plugin` against the packages the running binary was built
// from (same toolchain, build tags, GOEXPERIMENT and trimpath, read from
// the binary's build information), and loads it with the plugin package.
// A later cell imports the earlier cells' packages: one package per cell,
// so loaded code and its values stay valid when later cells come. The
// generated code:
//
//   - keeps the cell's text, with //line directives so that the compiler
//     and the runtime report cell lines;
//   - turns the cell's top-level statements into a function (__ngRun) and
//     the variables they define (x := …, var x = … among statements) into
//     package variables, so that later cells see them;
//   - reaches an earlier cell's names through what that cell exports for
//     them: type aliases (type point = c3.NgT_point), functions and
//     variables through methods of an exported empty type (NgX), and for
//     unexported fields, methods and composite literals, accessors and a
//     builder (access.go);
//   - renames the exported functions and variables a cell declares
//     (ngE_F): the compiler lists those of a package named main as plugin
//     symbols, which a later plugin containing the package could not
//     resolve; messages and tracebacks undo it;
//   - replaces os.Exit (the cell ends, state kept), time.Sleep and
//     channel receives in the cell's own statements (they stop on
//     interrupt), adds an interrupt poll to each loop of the cell's own
//     statements, and makes the goroutines a cell starts recover their
//     panics (reported, state kept).
//
// A cell of statements that only reads and assigns variables, calls
// functions and methods and builds values (x, s.Run(1), fmt.Println(err),
// y = f(x) * 2) is not compiled: the evaluator (eval.go) runs it on the
// compiled values through reflection in about a millisecond. It takes a
// cell only when every construct in it is one it evaluates as compiled Go
// does, decided on the whole type-checked cell before anything runs.
//
// # State and redeclaration
//
// A cell that declares a name an earlier cell declared replaces it for
// later cells. Redeclaring a type makes a new type: the variables,
// functions and types that used the old one leave the scope with a note
// naming them (stale.go). A method declared in a later cell on an earlier
// type moves the type there with its methods (migrate.go), with the same
// effect.
//
// # Differences from go run
//
// Measured on the Go distribution's own `// run` programs
// (docs/measurements/goroot-corpus.md), what a plugin cannot reproduce:
// function and type names carry the cell package's path where go run
// prints main (runtime.FuncForPC, generic type names, memory profiles:
// neurogo.cells/c1.f for main.f); a plugin's data lives above the first
// 256 MB of the address space; zero-size package variables are not at
// runtime.zerobase. A loop in a declared function that never calls the
// toolkit does not stop on the first interrupt (the kernel's second
// interrupt restarts the executor); a panic in a goroutine a cell started
// is reported instead of ending the program.
//
// # Requirements
//
// Go plugins: Linux or macOS, a binary built with cgo, the go command of
// the binary's own version, and the module's sources (Options.Root) as
// they were when the binary was built. New reports why when these are
// missing; the kernel then falls back to its interpreter.
//
//	s, err := native.New(native.Options{Root: root})
//	if err != nil {
//		return err // errUnavailable: no plugins here
//	}
//	defer s.Close()
//	res, err := s.Run(ctx, "x := 41\nx + 1") // res.Value == 42
package native
