//go:build amd64 && !purego

package vec

import (
	"fmt"
	"os"

	"github.com/neurogo/neurogo/internal/cpufeat"
)

// level is a set of kernels: the portable Go loops, AVX2 with FMA
// (256-bit vectors), AVX-512 (AVX-512F, 512-bit vectors and mask
// registers). A level includes the ones below it.
type level int

const (
	levelPortable level = iota
	levelAVX2
	levelAVX512
)

func (l level) String() string {
	switch l {
	case levelAVX512:
		return "avx512"
	case levelAVX2:
		return "avx2"
	}
	return "portable"
}

// cpuLevel is what the CPU and the operating system support, lvl what
// runs (cpuLevel or lower: NEUROGO_VEC, setLevel), why the reason when
// lvl is below AVX-512.
var (
	cpuLevel, lvl level
	why           string
)

// Vectorized reports whether the loops use SIMD instructions.
var Vectorized bool

func vzeroupper()

// detect returns the highest level the CPU and the operating system
// support (internal/cpufeat: CPUID, and XGETBV for the vector state the
// OS saves), and why not a higher one.
func detect() (level, string) {
	f := cpufeat.X86
	switch {
	case !f.HasAVX2:
		return levelPortable, "the CPU or OS lacks AVX2"
	case !f.HasFMA:
		return levelPortable, "the CPU lacks FMA"
	case !f.HasAVX512F:
		return levelAVX2, "the CPU or OS lacks AVX-512"
	}
	return levelAVX512, ""
}

func init() {
	cpuLevel, why = detect()
	lvl = cpuLevel
	if env := os.Getenv("NEUROGO_VEC"); env != "" {
		var capped level
		switch env {
		case "portable":
			capped = levelPortable
		case "avx2":
			capped = levelAVX2
		case "avx512":
			capped = levelAVX512
		default:
			// not a panic: a misspelt variable must not stop a run;
			// Kernels() shows it
			why = fmt.Sprintf("NEUROGO_VEC=%q is not portable, avx2 or avx512", env)
			capped = cpuLevel
		}
		if capped < cpuLevel {
			lvl, why = capped, "NEUROGO_VEC="+env
		}
	}
	Vectorized = lvl > levelPortable
}

// setLevel runs the kernels of level l (at most the CPU's) until restore
// is called: the tests force every variant the CPU has in turn.
func setLevel(l level) (restore func()) {
	old, oldWhy := lvl, why
	lvl = min(l, cpuLevel)
	if lvl < cpuLevel {
		why = "forced by a test"
	}
	Vectorized = lvl > levelPortable
	return func() { lvl, why, Vectorized = old, oldWhy, old > levelPortable }
}

// Kernels names the inner loops this binary runs on this CPU, for version
// output and measurement headers (a slow build should be visible).
func Kernels() string {
	name := "portable Go loops"
	switch lvl {
	case levelAVX512:
		name = "AVX-512 assembly"
	case levelAVX2:
		name = "AVX2/FMA assembly"
	}
	if why != "" {
		name += " (" + why + ")"
	}
	return name
}

// ClearUpper executes VZEROUPPER: call it after foreign code (cgo, e.g.
// OpenBLAS's AVX-512 kernels) that may return with dirty upper vector
// halves, before Go's SSE scalar code (math.Exp, …) runs on this thread —
// measured: math.Exp 10× slower after an OpenBLAS product without it.
func ClearUpper() {
	if cpuLevel > levelPortable {
		vzeroupper()
	}
}
