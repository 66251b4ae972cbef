//go:build unix && !linux

package kernel

import "syscall"

func executorAttrOS() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
