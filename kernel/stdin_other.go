//go:build !linux

package kernel

// stdinPump is Linux-only (it watches /proc for a blocked read); elsewhere
// compiled cells read standard input from the executor's own.
type stdinPump struct{}

func startStdinPump(*Executor) *stdinPump { return nil }

func (*stdinPump) run(<-chan struct{}) func() { return func() {} }
