//go:build !linux

package kernel

import "syscall"

func executorAttr() *syscall.SysProcAttr { return executorAttrOS() }

// residentBytes is unknown outside Linux: the executor's own Go heap
// watcher enforces the memory limit there.
func residentBytes(pid int) (int64, bool) { return 0, false }

// memoryAvailable is unknown outside Linux: no default memory limit.
func memoryAvailable() int64 { return 0 }
