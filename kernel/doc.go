// Package kernel is neurogo's Jupyter kernel: the messaging protocol 5.4
// over ZeroMQ (github.com/go-zeromq/zmq4, pure Go), cell execution with
// state in an embedded Go interpreter (github.com/traefik/yaegi) that calls
// the compiled toolkit at native speed, rich display, completion and
// inspection, the kernelspec installer and headless notebook execution.
//
// Invariants:
//   - every request on shell and control is framed by status busy … idle
//     with the request as parent; replies copy the parent header verbatim;
//   - messages with a missing or wrong HMAC-SHA256 signature, malformed
//     frames or JSON, or more than 100 MB are dropped with a log line and
//     never stop the kernel; unknown request types get an error reply;
//   - one cell runs at a time; interrupt_request (control) cancels it and
//     keeps the interpreter's state; panics, os.Exit and runaway memory in
//     a cell become error replies;
//   - output of cells (fmt, os.Stdout, compiled code, goroutines) is sent
//     in order before the cell's execute_reply.
//
// See README.md in this directory for the file map.
//
//	conn, _ := kernel.ReadConnectionFile(path)
//	k, _ := kernel.New(kernel.Options{Conn: conn, CaptureFDs: true})
//	restart, err := k.Run()
package kernel
