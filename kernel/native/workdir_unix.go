//go:build unix

package native

import (
	"errors"
	"syscall"
)

// processAlive reports whether pid runs; a process of another user
// counts as running (signal 0 answers EPERM).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}
