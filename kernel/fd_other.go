//go:build !linux

package kernel

import (
	"errors"
	"os"
)

func redirectFDs(out, errw *os.File) (func(), error) {
	return nil, errors.New("capturing file descriptors is supported on Linux only")
}

func dupStderr() (*os.File, error) { return os.Stderr, nil }
