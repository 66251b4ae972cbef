//go:build amd64 && !purego

package vec

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestVariants runs the comparisons with the reference Go loops once for
// every level of kernels this CPU has (AVX-512, AVX2/FMA, the portable
// loops), each forced in turn.
func TestVariants(t *testing.T) {
	tests := []struct {
		name string
		f    func(*testing.T)
	}{
		{"MatchesPortable", TestMatchesPortable},
		{"ReluNaN", TestReluNaN},
		{"LowpassFlushesSubnormals", TestLowpassFlushesSubnormals},
		{"LIFMatchesPortable", TestLIFMatchesPortable},
		{"EnsOct", TestEnsOct},
		{"DotRows", TestDotRows},
		{"DotRowsLanes", TestDotRowsLanes},
		{"FirstNaN", TestFirstNaN},
		{"VecMat", TestVecMat},
		{"Kernels", TestKernels},
	}
	for l := cpuLevel; l >= levelPortable; l-- {
		t.Run(l.String(), func(t *testing.T) {
			restore := setLevel(l)
			defer restore()
			if lvl != l {
				t.Fatalf("setLevel(%v) runs %v", l, lvl)
			}
			for _, tc := range tests {
				t.Run(tc.name, tc.f)
			}
		})
	}
	if cpuLevel < levelAVX512 {
		t.Logf("not tested here: the kernels above %v (%s)", cpuLevel, why)
	}
}

// TestKernelsLevel: Kernels names the level that runs and why it is not
// the highest.
func TestKernelsLevel(t *testing.T) {
	for l := cpuLevel; l >= levelPortable; l-- {
		restore := setLevel(l)
		k := Kernels()
		restore()
		want := map[level]string{levelAVX512: "AVX-512 assembly", levelAVX2: "AVX2/FMA assembly",
			levelPortable: "portable Go loops"}[l]
		if !strings.HasPrefix(k, want) {
			t.Errorf("level %v: Kernels() = %q, want %q…", l, k, want)
		}
		if l < cpuLevel && !strings.Contains(k, "(") {
			t.Errorf("level %v below the CPU's: Kernels() = %q gives no reason", l, k)
		}
	}
}

// TestEnvCap: NEUROGO_VEC caps the level at init (checked in a child
// process, since init has run here).
func TestEnvCap(t *testing.T) {
	if os.Getenv("NEUROGO_VEC_CHILD") != "" {
		want := map[string]level{"portable": levelPortable, "avx2": min(levelAVX2, cpuLevel),
			"avx512": cpuLevel}[os.Getenv("NEUROGO_VEC")]
		if lvl != want {
			t.Fatalf("NEUROGO_VEC=%s: level %v, want %v (%s)", os.Getenv("NEUROGO_VEC"), lvl, want, Kernels())
		}
		return
	}
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	for _, env := range []string{"portable", "avx2", "avx512"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestEnvCap$", "-test.count=1")
		cmd.Env = append(os.Environ(), "NEUROGO_VEC_CHILD=1", "NEUROGO_VEC="+env)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("NEUROGO_VEC=%s: %v\n%s", env, err, out)
		}
	}
}
