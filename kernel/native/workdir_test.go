package native

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSweepWorkDirs: directories of processes that are gone are removed;
// those of running processes and names of other shapes stay.
func TestSweepWorkDirs(t *testing.T) {
	tmp := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	deadPID := gone.Process.Pid
	if processAlive(deadPID) {
		t.Fatalf("pid %d of an exited process counts as running", deadPID)
	}
	dirs := map[string]bool{ // name → kept
		fmt.Sprintf("neurogo-cells-p%d-123", deadPID):     false,
		fmt.Sprintf("neurogo-cells-p%d-456", os.Getpid()): true,
		"neurogo-cells-p1-789":                            true, // init runs
		"neurogo-cells-12345":                             true, // no owner in the name
		fmt.Sprintf("other-p%d-1", deadPID):               true,
	}
	for name := range dirs {
		if err := os.MkdirAll(filepath.Join(tmp, name, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, name, "sub", "c1.so"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if n := SweepWorkDirs(tmp); n != 1 {
		t.Errorf("removed %d directories, want 1", n)
	}
	for name, kept := range dirs {
		_, err := os.Stat(filepath.Join(tmp, name))
		if exists := err == nil; exists != kept {
			t.Errorf("%s: exists=%v, want %v", name, exists, kept)
		}
	}
}

func TestNewWorkDirNamesOwner(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir, err := NewWorkDir(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	pid, ok := workDirOwner(filepath.Base(dir))
	if !ok || pid != os.Getpid() {
		t.Fatalf("%s: owner %d (%v), want %d", dir, pid, ok, os.Getpid())
	}
}
