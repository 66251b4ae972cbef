// Package kernel is neurogo's Jupyter kernel: the messaging protocol 5.4
// over ZeroMQ (github.com/go-zeromq/zmq4, pure Go), cell execution with
// state — cells compiled by the Go toolchain into plugins (package
// native), or, where plugins are unavailable, an embedded Go interpreter
// (github.com/traefik/yaegi) — rich display, completion and inspection,
// the kernelspec installer and headless notebook execution.
//
// Two processes: the kernel process owns the sockets and the protocol and
// supervises an executor process (the same binary, `neurogo executor`)
// that runs the cells. The executor's standard output and error are pipes
// the kernel reads; requests, display calls, input requests and results
// cross a socketpair as length-prefixed JSON.
//
// Invariants:
//   - every request on shell and control is framed by status busy … idle
//     with the request as parent; replies copy the parent header verbatim;
//   - messages with a missing or wrong HMAC-SHA256 signature, malformed
//     frames or JSON, or more than 100 MB are dropped with a log line and
//     never stop the kernel; unknown request types get an error reply;
//   - one cell runs at a time; interrupt_request (control) cancels it and
//     keeps the executor's state, a second one while the cell still runs
//     restarts the executor; a cell is never reported interrupted while
//     its code runs on;
//   - panics and os.Exit in a cell become error replies; whatever kills
//     the executor (runaway recursion, fatal runtime errors, unrecovered
//     panics in goroutines, exits that cannot be intercepted, memory
//     beyond the limit) becomes an error reply naming the cause within
//     seconds, the executor restarts and the state of earlier cells is
//     lost; the kernel process and the execution count go on;
//   - output of cells (fmt, os.Stdout, compiled code, goroutines) is sent
//     in order with display calls and before the cell's execute_reply; the
//     kernel's own log lines never reach a cell's output.
//
// See README.md in this directory for the file map.
//
//	conn, _ := kernel.ReadConnectionFile(path)
//	k, _ := kernel.New(kernel.Options{Conn: conn, MemoryLimit: kernel.DefaultMemoryLimit()})
//	restart, err := k.Run()
package kernel
