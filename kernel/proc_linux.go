package kernel

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// executorAttr puts the executor in its own process group (Ctrl-C in the
// terminal reaches the kernel, which forwards it as a message; killing the
// group also ends processes a cell started) and kills it when the kernel
// process dies.
func executorAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// residentBytes returns the resident set size of process pid
// (/proc/PID/statm, field 2, in pages).
func residentBytes(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// memoryAvailable returns the memory this process may use: the smallest
// of its cgroup's limit (v2 memory.max or v1 memory.limit_in_bytes, of its
// own cgroup and the ones above) and the machine's MemTotal; 0 if unknown.
func memoryAvailable() int64 {
	total := memTotal()
	if lim := cgroupLimit("/"); lim > 0 && (total == 0 || lim < total) {
		return lim
	}
	return total
}

func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if n, _ := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); n == 1 {
			return kb << 10
		}
	}
	return 0
}

// cgroupLimit reads the memory limit of this process's cgroup; 0 for none.
// root is the file system root ("/"; a directory in tests).
func cgroupLimit(root string) int64 {
	b, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return 0
	}
	var best int64
	take := func(path string) {
		v, err := os.ReadFile(path)
		if err != nil {
			return
		}
		s := strings.TrimSpace(string(v))
		if s == "max" {
			return
		}
		n, err := strconv.ParseInt(s, 10, 64)
		// cgroup v1 reports "no limit" as a huge number near 2^63.
		if err != nil || n <= 0 || n >= 1<<60 {
			return
		}
		if best == 0 || n < best {
			best = n
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		ctrls, path := parts[1], parts[2]
		var base, file string
		switch {
		case ctrls == "": // v2
			base, file = filepath.Join(root, "sys/fs/cgroup"), "memory.max"
		case strings.Contains(","+ctrls+",", ",memory,"):
			base, file = filepath.Join(root, "sys/fs/cgroup/memory"), "memory.limit_in_bytes"
		default:
			continue
		}
		// The cgroup and its ancestors (a container sees its own cgroup
		// as the root).
		for p := path; ; p = filepath.Dir(p) {
			take(filepath.Join(base, p, file))
			if p == "/" || p == "." || p == "" {
				break
			}
		}
	}
	return best
}
