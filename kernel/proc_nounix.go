//go:build !unix

package kernel

import (
	"errors"
	"os"
	"syscall"
)

func socketPair() (a, b *os.File, err error) {
	return nil, nil, errors.New("the executor process needs a Unix system")
}

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

func signalName(st *os.ProcessState) (string, bool) { return "", false }

func executorAttrOS() *syscall.SysProcAttr { return nil }
