package kernel

import (
	"fmt"
	"os"
	"syscall"
)

// redirectFDs points file descriptors 1 and 2 at the given files and
// returns a function that restores them.
func redirectFDs(out, errw *os.File) (func(), error) {
	saved1, err := syscall.Dup(1)
	if err != nil {
		return nil, fmt.Errorf("dup stdout: %w", err)
	}
	saved2, err := syscall.Dup(2)
	if err != nil {
		return nil, fmt.Errorf("dup stderr: %w", err)
	}
	if err := syscall.Dup3(int(out.Fd()), 1, 0); err != nil {
		return nil, fmt.Errorf("redirect stdout: %w", err)
	}
	if err := syscall.Dup3(int(errw.Fd()), 2, 0); err != nil {
		return nil, fmt.Errorf("redirect stderr: %w", err)
	}
	return func() {
		_ = syscall.Dup3(saved1, 1, 0)
		_ = syscall.Dup3(saved2, 2, 0)
	}, nil
}

// dupStderr returns a file for the process's current standard error that
// stays valid after redirectFDs, for the kernel's own log.
func dupStderr() (*os.File, error) {
	fd, err := syscall.Dup(2)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "kernel-log"), nil
}
