package native

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// workDirPrefix starts the name of every directory that holds a session's
// generated sources, archives and plugins (a few hundred megabytes for a
// long notebook).
const workDirPrefix = "neurogo-cells-"

// NewWorkDir creates a directory for a session's files in the system's
// temporary directory, named after the process that removes it
// (neurogo-cells-p<owner>-…). A process that is killed cannot remove its
// directory, so NewWorkDir first removes the directories whose owners no
// longer run.
func NewWorkDir(owner int) (string, error) {
	SweepWorkDirs(os.TempDir())
	dir, err := os.MkdirTemp("", fmt.Sprintf("%sp%d-", workDirPrefix, owner))
	if err != nil {
		return "", fmt.Errorf("creating the directory for compiled cells: %w", err)
	}
	return dir, nil
}

// SweepWorkDirs removes the session directories in tmp whose owning
// process is gone, and reports how many it removed. Directories of
// running processes, of other users and of unknown shape stay.
func SweepWorkDirs(tmp string) int {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		pid, ok := workDirOwner(e.Name())
		if !ok || !e.IsDir() || processAlive(pid) {
			continue
		}
		if os.RemoveAll(filepath.Join(tmp, e.Name())) == nil {
			n++
		}
	}
	return n
}

// workDirOwner parses neurogo-cells-p<pid>-<random>.
func workDirOwner(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, workDirPrefix+"p")
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}
