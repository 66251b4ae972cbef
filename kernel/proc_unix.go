//go:build unix

package kernel

import (
	"os"
	"syscall"
)

// socketPair returns the two ends of a Unix stream socket pair, both
// close-on-exec (os/exec passes the child's end explicitly).
func socketPair() (a, b *os.File, err error) {
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, os.NewSyscallError("socketpair", err)
	}
	return os.NewFile(uintptr(fds[0]), "neurogo-control"), os.NewFile(uintptr(fds[1]), "neurogo-control-executor"), nil
}

// killGroup sends SIGKILL to the process group of pid (the executor is
// the leader of its own group, so processes a cell started go too).
func killGroup(pid int) {
	if pid <= 0 {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// signalName names the signal that ended a process, if one did.
func signalName(st *os.ProcessState) (string, bool) {
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return "", false
	}
	s := ws.Signal()
	name := map[syscall.Signal]string{syscall.SIGKILL: "SIGKILL", syscall.SIGSEGV: "SIGSEGV", syscall.SIGABRT: "SIGABRT", syscall.SIGTERM: "SIGTERM", syscall.SIGBUS: "SIGBUS", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT"}[s]
	if name == "" {
		name = s.String()
	}
	return name, true
}
