package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"

	nblas "github.com/neurogo/neurogo/internal/blas"
	"github.com/neurogo/neurogo/toolkit/solvers"
)

const benchBLASUsage = `usage: neurogo bench blas [--quick] [--json]

GFLOP/s of the level-3 BLAS routines at the shapes the decoder solves and
the MNIST convolutions run, internal/blas (pure Go, assembly
micro-kernels) beside the BLAS the binary was built with: OpenBLAS with
-tags openblas (both are then in the process: internal/blas directly,
OpenBLAS through gonum's netlib binding), gonum's pure-Go BLAS without.
Each product uses every core (GOMAXPROCS) the way the process does:

  dgemm NT 210×9984×192   activities of a block of eval points: eval points
                          × encodersᵀ, pes model at D = 192 (9984 neurons,
                          19968 eval points), 95 such blocks per build
  dgemm TN 193×2855×1468  ZᵀA_N: features × the 2855 non-linear active
                          neurons over one 1468-row block of A (affine solve)
  dsyrk T 2855, k 1468    the Gram update A_NᵀA_N of one block, split in
                          4×4 blocks of serial calls as toolkit/solvers does
  dpotrf 2855             Cholesky of the 2855×2855 Gram matrix: gonum's
                          blocked Dpotrf on each BLAS (with -tags openblas
                          the solvers call OpenBLAS's own dpotrf instead)
  sgemm NN 14400×64×288   conv2 forward (3×3, 32→64, 24×24 outputs × a
                          25-example im2col chunk), float32 training
  sgemm TN 288×64×14400   conv2 kernel gradient
  sgemm NT 14400×288×64   conv2 input gradient
  sgemm NN 7200×128×576   conv3 forward (3×3, 64→128, 10×10 × 72 examples)
  sgemm NT 7200×576×128   conv3 input gradient

(the MNIST network of the NengoDL paper, §5.2, minibatch 200; sgemm rows
split across the cores as the convolution Execs do). Timed: median of N
runs (default 7, --quick 3, with the two largest decoder shapes left
out) after a warm-up, the two sides alternating. Ratio = neurogo ÷ peer
GFLOP/s (above 1: internal/blas is faster); GF/cpu-s divides by the
process's CPU seconds instead (all threads; the steadier figure on a
busy machine, but it counts OpenBLAS's spinning threads). OpenBLAS picks
its kernels from the CPU model: a CPU newer than the library may get
generic ones (OPENBLAS_CORETYPE=SkylakeX forces the AVX-512 kernels;
the run record gives the library's configuration).

--json prints {"run": {command, date, machine, quick, protocol}} and then
one JSON object per row to stdout, the table to stderr.
`

// blasCase is one benchmarked operation: run(ours) does it once on
// internal/blas (ours true) or on the peer.
type blasCase struct {
	Op, Shape, Why string
	flops          float64
	decoder        bool // a decoder-solve shape (the large ones)
	setup          func() func(ours bool)
}

type blasRow struct {
	Op        string  `json:"op"`
	Shape     string  `json:"shape"`
	Why       string  `json:"why"`
	GFLOPs    float64 `json:"neurogo_gflops"`
	PeerFLOPs float64 `json:"peer_gflops"`
	Ratio     float64 `json:"ratio"`
	CPU       float64 `json:"neurogo_gflop_per_cpu_s"`
	PeerCPU   float64 `json:"peer_gflop_per_cpu_s"`
	Kernel    string  `json:"neurogo_kernel"`
	Peer      string  `json:"peer"`
	Runs      int     `json:"runs"`
}

// cmdBenchBLAS runs `neurogo bench blas`.
func cmdBenchBLAS(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench blas", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, benchBLASUsage) }
	quick := fs.Bool("quick", false, "3 timed runs per case and side, the two largest decoder cases left out")
	jsonOut := fs.Bool("json", false, "print the run record and one JSON object per row to stdout (table to stderr)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "neurogo bench blas: unexpected argument %q\n%s", fs.Arg(0), benchBLASUsage)
		return 2
	}
	n := 7
	if *quick {
		n = 3
	}
	peer64, peer32, peerName := blasPeers()
	cases := blasCases(peer64, peer32)
	if *quick {
		cases = slices.DeleteFunc(cases, func(c blasCase) bool { return c.decoder && c.flops > 5e9 })
	}
	run := benchRun("blas", args, *quick, map[string]any{
		"timing": fmt.Sprintf("median of %d runs after a warm-up, neurogo and peer alternating, GOMAXPROCS %d", n, runtime.GOMAXPROCS(0)),
		"peer":   peerName, "neurogo": nblas.Name() + ": " + nblas.Kernel(),
	})
	run.Machine.SetPeer("blas", peerName)
	table := stdout
	if *jsonOut {
		table = stderr
		if err := writeRunLine(stdout, run); err != nil {
			fmt.Fprintf(stderr, "neurogo bench blas: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(table, "neurogo bench blas: %s (%s) beside %s, median of %d runs, GOMAXPROCS %d\n",
		nblas.Name(), nblas.Kernel(), peerName, n, runtime.GOMAXPROCS(0))
	fmt.Fprintf(table, "%-6s %-20s %12s %12s %7s %12s %12s %7s  %s\n", "op", "shape", "neurogo GF/s", "peer GF/s", "ratio",
		"neurogo GF/cpu-s", "peer GF/cpu-s", "ratio", "use")
	enc := json.NewEncoder(stdout)
	for _, c := range cases {
		do := c.setup()
		ours, theirs, oursCPU, theirsCPU := timeAlternating(do, n)
		row := blasRow{Op: c.Op, Shape: c.Shape, Why: c.Why, GFLOPs: c.flops / ours / 1e9, PeerFLOPs: c.flops / theirs / 1e9,
			CPU: c.flops / oursCPU / 1e9, PeerCPU: c.flops / theirsCPU / 1e9, Kernel: nblas.Kernel(), Peer: peerName, Runs: n}
		row.Ratio = row.GFLOPs / row.PeerFLOPs
		if !(oursCPU > 0) || !(theirsCPU > 0) {
			row.CPU, row.PeerCPU = 0, 0 // no CPU time on this platform
		}
		fmt.Fprintf(table, "%-6s %-20s %12.1f %12.1f %7.2f %12.1f %12.1f %7.2f  %s\n", c.Op, c.Shape, row.GFLOPs, row.PeerFLOPs, row.Ratio,
			row.CPU, row.PeerCPU, row.CPU/row.PeerCPU, c.Why)
		if *jsonOut {
			if err := enc.Encode(row); err != nil {
				fmt.Fprintf(stderr, "neurogo bench blas: %v\n", err)
				return 1
			}
		}
	}
	return 0
}

// blasPeers returns the BLAS the process was built with (OpenBLAS with
// -tags openblas), or gonum's pure Go when that is internal/blas.
func blasPeers() (blas64i gblas.Float64, blas32i gblas.Float32, name string) {
	blas64i, blas32i = blas64.Implementation(), blas32.Implementation()
	name = solvers.BLAS()
	if _, ours := blas64i.(nblas.Float64); ours {
		blas64i, name = gonum.Implementation{}, "gonum (pure Go)"
	}
	if _, ours := blas32i.(nblas.Float32); ours {
		blas32i = gonum.Implementation{}
	}
	if i := strings.Index(name, ","); i > 0 {
		name = name[:i]
	}
	return blas64i, blas32i, name
}

// timeAlternating times do(true) and do(false) n times each after one
// warm-up each, alternating, and returns the median wall-clock and
// process CPU seconds of each side.
func timeAlternating(do func(ours bool), n int) (ours, peer, oursCPU, peerCPU float64) {
	do(true)
	do(false)
	var a, b, ac, bc []float64
	for range n {
		t0, c0 := time.Now(), processCPU()
		do(true)
		a, ac = append(a, time.Since(t0).Seconds()), append(ac, processCPU()-c0)
		t0, c0 = time.Now(), processCPU()
		do(false)
		b, bc = append(b, time.Since(t0).Seconds()), append(bc, processCPU()-c0)
	}
	return median(a), median(b), median(ac), median(bc)
}

func median(x []float64) float64 {
	slices.Sort(x)
	return x[len(x)/2]
}

func randSlice(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.Float64()
	}
	return x
}

func randSlice32(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return x
}

func blasCases(peer64 gblas.Float64, peer32 gblas.Float32) []blasCase {
	ours64 := nblas.Float64{}
	dgemm := func(why string, tA, tB gblas.Transpose, m, n, k int) blasCase {
		return blasCase{Op: "dgemm", Shape: fmt.Sprintf("%c%c %d×%d×%d", tA, tB, m, n, k), Why: why,
			flops: 2 * float64(m) * float64(n) * float64(k), decoder: true,
			setup: func() func(bool) {
				rng := rand.New(rand.NewPCG(1, 2))
				a, b, c := randSlice(rng, m*k), randSlice(rng, k*n), make([]float64, m*n)
				lda, ldb := k, n
				if tA == gblas.Trans {
					lda = m
				}
				if tB == gblas.Trans {
					ldb = k
				}
				return func(ours bool) {
					var impl gblas.Float64 = peer64
					if ours {
						impl = ours64
					}
					impl.Dgemm(tA, tB, m, n, k, 1, a, lda, b, ldb, 0, c, n)
				}
			}}
	}
	sgemm := func(why string, tA, tB gblas.Transpose, m, n, k int) blasCase {
		return blasCase{Op: "sgemm", Shape: fmt.Sprintf("%c%c %d×%d×%d", tA, tB, m, n, k), Why: why,
			flops: 2 * float64(m) * float64(n) * float64(k),
			setup: func() func(bool) {
				rng := rand.New(rand.NewPCG(3, 4))
				a, b, c := randSlice32(rng, m*k), randSlice32(rng, k*n), make([]float32, m*n)
				lda, ldb := k, n
				if tA == gblas.Trans {
					lda = m
				}
				if tB == gblas.Trans {
					ldb = k
				}
				return func(ours bool) {
					var impl gblas.Float32 = peer32
					if ours {
						impl = nblas.Float32{Threads: 1}
					}
					splitSgemm(impl, tA, tB, m, n, k, a, lda, b, ldb, c, n)
				}
			}}
	}
	const nN, rows = 2855, 1468
	return []blasCase{
		dgemm("activities of 210 eval points", gblas.NoTrans, gblas.Trans, 210, 9984, 192),
		dgemm("ZᵀA_N of one block", gblas.Trans, gblas.NoTrans, 193, nN, rows),
		{Op: "dsyrk", Shape: fmt.Sprintf("T %d, k %d", nN, rows), Why: "Gram update of one block",
			flops: float64(nN) * float64(nN+1) * rows, decoder: true,
			setup: func() func(bool) {
				rng := rand.New(rand.NewPCG(5, 6))
				a, c := randSlice(rng, rows*nN), make([]float64, nN*nN)
				return func(ours bool) {
					var impl gblas.Float64 = peer64
					if ours {
						impl = nblas.Float64{Threads: 1}
					}
					splitSyrk(impl, rows, nN, a, c)
				}
			}},
		{Op: "dpotrf", Shape: fmt.Sprintf("%d", nN), Why: "Cholesky of the Gram matrix",
			flops: float64(nN) * float64(nN) * float64(nN) / 3, decoder: true,
			setup: func() func(bool) {
				rng := rand.New(rand.NewPCG(7, 8))
				a, g := randSlice(rng, rows*nN), make([]float64, nN*nN)
				gonum.Implementation{}.Dsyrk(gblas.Upper, gblas.Trans, nN, rows, 1, a, nN, 0, g, nN)
				for i := range nN {
					g[i*nN+i] += float64(rows)
				}
				work := make([]float64, len(g))
				return func(ours bool) {
					var impl gblas.Float64 = peer64
					if ours {
						impl = ours64
					}
					prev := blas64.Implementation()
					blas64.Use(impl)
					copy(work, g)
					lapack64.Potrf(blas64.Symmetric{Uplo: gblas.Upper, N: nN, Stride: nN, Data: work})
					blas64.Use(prev)
				}
			}},
		sgemm("conv2 forward", gblas.NoTrans, gblas.NoTrans, 14400, 64, 288),
		sgemm("conv2 kernel gradient", gblas.Trans, gblas.NoTrans, 288, 64, 14400),
		sgemm("conv2 input gradient", gblas.NoTrans, gblas.Trans, 14400, 288, 64),
		sgemm("conv3 forward", gblas.NoTrans, gblas.NoTrans, 7200, 128, 576),
		sgemm("conv3 input gradient", gblas.NoTrans, gblas.Trans, 7200, 576, 128),
	}
}

// splitSgemm is C = op(A)·op(B) on GOMAXPROCS goroutines, in row blocks
// of C (column blocks when A is transposed), as the convolution Execs
// split their float32 products.
func splitSgemm(impl gblas.Float32, tA, tB gblas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	w := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for t := range w {
		if tA == gblas.NoTrans {
			lo, hi := t*m/w, (t+1)*m/w
			wg.Go(func() { impl.Sgemm(tA, tB, hi-lo, n, k, 1, a[lo*lda:], lda, b, ldb, 0, c[lo*ldc:], ldc) })
			continue
		}
		lo, hi := t*n/w, (t+1)*n/w
		bOff := lo
		if tB != gblas.NoTrans {
			bOff = lo * ldb
		}
		wg.Go(func() { impl.Sgemm(tA, tB, m, hi-lo, k, 1, a, lda, b[bOff:], ldb, 0, c[lo:], ldc) })
	}
	wg.Wait()
}

// splitSyrk is C = AᵀA (upper triangle, A r×n) in 4×4 column blocks on
// GOMAXPROCS goroutines: Dsyrk on the diagonal blocks, Dgemm TN above
// them (toolkit/solvers' syrkPar).
func splitSyrk(impl gblas.Float64, r, n int, a, c []float64) {
	const parts = 4
	type task struct{ r0, r1, c0, c1 int }
	var tasks []task
	for bi := range parts {
		for bj := bi; bj < parts; bj++ {
			tasks = append(tasks, task{bi * n / parts, (bi + 1) * n / parts, bj * n / parts, (bj + 1) * n / parts})
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(tasks) {
					return
				}
				t := tasks[i]
				if t.r0 == t.c0 {
					impl.Dsyrk(gblas.Upper, gblas.Trans, t.r1-t.r0, r, 1, a[t.r0:], n, 0, c[t.r0*n+t.r0:], n)
					continue
				}
				impl.Dgemm(gblas.Trans, gblas.NoTrans, t.r1-t.r0, t.c1-t.c0, r, 1, a[t.r0:], n, a[t.c0:], n, 0, c[t.r0*n+t.c0:], n)
			}
		})
	}
	wg.Wait()
}
