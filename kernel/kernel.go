package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"
)

// Version is the kernel implementation version.
const Version = "0.1.0"

// Options configure a kernel.
type Options struct {
	// Conn is the parsed connection file.
	Conn *ConnectionInfo
	// Log receives the kernel's own log lines (never the notebook: cells
	// run in another process, whose output the kernel reads from pipes).
	// Defaults to the process's standard error.
	Log io.Writer
	// MemoryLimit, if > 0, is the most memory (bytes) the executor process
	// may use; a cell that goes beyond it is stopped with an error and the
	// executor restarted. DefaultMemoryLimit gives the command line's
	// default.
	MemoryLimit int64
	// ExecutorCommand starts the executor process; by default this
	// executable with the argument "executor".
	ExecutorCommand []string
}

// Kernel is a running Jupyter kernel.
type Kernel struct {
	opt     Options
	conn    *ConnectionInfo
	sign    *signer
	log     *log.Logger
	session string

	shell, control, stdin, iopub, hb zmq4.Socket

	iopubMu sync.Mutex
	stdinMu sync.Mutex

	sup     *supervisor
	history *history

	execCount int

	// parent is the request whose outputs are being produced (for iopub
	// parent_header); shellIDs are its routing identities (for stdin).
	parent   atomic.Pointer[Message]
	inputRep chan *Message

	// running is set while a cell runs: comm messages of the front end
	// then go to the executor at once instead of waiting in the shell
	// queue (widget callbacks run during long cells).
	running atomic.Bool
	comms   commTable

	ctx      context.Context
	shutdown context.CancelFunc
	restart  bool
}

// errInterrupted is the cancellation cause of an interrupted cell.
var errInterrupted = errors.New("interrupted")

// New binds the kernel's sockets. Call Run to serve.
func New(opt Options) (*Kernel, error) {
	if opt.Conn == nil {
		return nil, errors.New("kernel: no connection info")
	}
	if opt.Log == nil {
		opt.Log = os.Stderr
	}
	sg, err := newSigner(opt.Conn.SignatureScheme, opt.Conn.Key)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	k := &Kernel{
		opt:      opt,
		conn:     opt.Conn,
		sign:     sg,
		log:      log.New(opt.Log, "neurogo kernel: ", log.LstdFlags|log.Lmicroseconds),
		session:  newID(),
		inputRep: make(chan *Message, 1),
		ctx:      ctx,
		shutdown: cancel,
		history:  newHistory(),
	}
	k.shell = zmq4.NewRouter(ctx, zmq4.WithID(zmq4.SocketIdentity("shell-"+k.session)))
	k.control = zmq4.NewRouter(ctx, zmq4.WithID(zmq4.SocketIdentity("control-"+k.session)))
	k.stdin = zmq4.NewRouter(ctx, zmq4.WithID(zmq4.SocketIdentity("stdin-"+k.session)))
	k.iopub = zmq4.NewPub(ctx)
	k.hb = zmq4.NewRep(ctx)
	for _, s := range []struct {
		sock zmq4.Socket
		port int
		name string
	}{{k.shell, k.conn.ShellPort, "shell"}, {k.control, k.conn.ControlPort, "control"}, {k.stdin, k.conn.StdinPort, "stdin"}, {k.iopub, k.conn.IOPubPort, "iopub"}, {k.hb, k.conn.HBPort, "heartbeat"}} {
		if err := s.sock.Listen(k.conn.endpoint(s.port)); err != nil {
			k.closeSockets()
			cancel()
			return nil, fmt.Errorf("kernel: bind %s socket on %s: %w", s.name, k.conn.endpoint(s.port), err)
		}
	}
	// Cells run in an executor process, started now while the front end
	// connects (the interpreter takes a few hundred milliseconds to set
	// up), so that kernel_info is answered at once; requests that need it
	// wait.
	k.sup = newSupervisor(supervisorOptions{
		Command:     opt.ExecutorCommand,
		MemoryLimit: opt.MemoryLimit,
		Log:         k.log,
		Stream:      k.sendStream,
		Display:     k.display,
		Clear:       k.clearOutput,
		Input:       k.requestInput,
		Comm:        k.commFromExecutor,
		CommsLost:   k.commsLost,
	})
	go k.sup.start()
	return k, nil
}

func (k *Kernel) closeSockets() {
	for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.iopub, k.hb} {
		if s != nil {
			_ = s.Close()
		}
	}
}

// Run serves requests until a shutdown_request. It reports whether a
// restart was requested.
func (k *Kernel) Run() (restart bool, err error) {
	defer k.closeSockets()
	defer k.sup.close()

	// Ctrl-C in the terminal that started the notebook server reaches the
	// kernel too; treat it as an interrupt of the running cell, as ipykernel does.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for {
			select {
			case <-sigs:
				k.interrupt()
			case <-k.ctx.Done():
				return
			}
		}
	}()

	go k.heartbeat()
	shellCh := make(chan *Message, 64)
	controlCh := make(chan *Message, 16)
	go k.readLoop(k.shell, "shell", shellCh)
	go k.readLoop(k.control, "control", controlCh)
	go k.readLoop(k.stdin, "stdin", nil)

	// zmq PUB drops messages sent before a subscriber connects; the
	// starting status is informational only.
	k.publish(nil, "status", map[string]any{"execution_state": "starting"})

	go k.serveControl(controlCh)
	k.serveShell(shellCh)
	return k.restart, nil
}

func (k *Kernel) heartbeat() {
	for {
		msg, err := k.hb.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return
			}
			k.log.Printf("heartbeat: %v", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err := k.hb.Send(msg); err != nil && k.ctx.Err() == nil {
			k.log.Printf("heartbeat send: %v", err)
		}
	}
}

// readLoop decodes messages from a ROUTER socket. Bad messages are logged
// and dropped; they never stop the kernel.
func (k *Kernel) readLoop(s zmq4.Socket, name string, out chan<- *Message) {
	for {
		raw, err := s.Recv()
		if err != nil {
			if k.ctx.Err() != nil {
				return
			}
			k.log.Printf("%s: receive: %v", name, err)
			time.Sleep(5 * time.Millisecond)
			continue
		}
		m, err := decode(raw.Frames, k.sign)
		if err != nil {
			k.log.Printf("%s: dropped message: %v", name, err)
			continue
		}
		if name == "shell" && isComm(m.Header.MsgType) && k.running.Load() {
			// A cell runs: the executor handles it meanwhile.
			k.handleComm(m, false)
			continue
		}
		if name == "stdin" {
			if m.Header.MsgType == "input_reply" {
				select {
				case k.inputRep <- m:
				default:
					k.log.Printf("stdin: unexpected input_reply dropped")
				}
			} else {
				k.log.Printf("stdin: unexpected %s dropped", m.Header.MsgType)
			}
			continue
		}
		select {
		case out <- m:
		case <-k.ctx.Done():
			return
		}
	}
}

func (k *Kernel) serveControl(ch <-chan *Message) {
	for {
		select {
		case m := <-ch:
			k.handleControl(m)
		case <-k.ctx.Done():
			return
		}
	}
}

func (k *Kernel) serveShell(ch chan *Message) {
	for {
		select {
		case m := <-ch:
			k.handleShell(m, ch)
		case <-k.ctx.Done():
			return
		}
	}
}

// send writes a reply on a ROUTER socket.
func (k *Kernel) send(s zmq4.Socket, req *Message, msgType string, content any, metadata any) {
	o := &outMsg{
		identities: req.Identities,
		header:     k.header(msgType),
		parent:     req.RawHeader,
		metadata:   metadata,
		content:    content,
	}
	frames, err := o.encode(k.sign)
	if err != nil {
		k.log.Printf("encode %s: %v", msgType, err)
		return
	}
	if s == k.stdin {
		k.stdinMu.Lock()
		defer k.stdinMu.Unlock()
	}
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		k.log.Printf("send %s: %v", msgType, err)
	}
}

func (k *Kernel) header(msgType string) Header {
	return Header{MsgID: newID(), Session: k.session, Username: "neurogo", Date: timestamp(), MsgType: msgType, Version: protocolVersion}
}

// publish sends on iopub with the given parent (nil for none).
func (k *Kernel) publish(parent *Message, msgType string, content any) {
	k.publishMD(parent, msgType, content, nil)
}

func (k *Kernel) publishMD(parent *Message, msgType string, content any, metadata any) {
	k.publishBuffers(parent, msgType, content, metadata, nil)
}

// publishBuffers publishes with binary buffers after the content (comm
// messages of widgets; buffers are not part of the signature).
func (k *Kernel) publishBuffers(parent *Message, msgType string, content any, metadata any, buffers [][]byte) {
	o := &outMsg{header: k.header(msgType), metadata: metadata, content: content}
	if parent != nil {
		o.parent = parent.RawHeader
	}
	topic := "kernel." + k.session + "." + msgType
	o.identities = [][]byte{[]byte(topic)}
	frames, err := o.encode(k.sign)
	if err != nil {
		k.log.Printf("encode %s: %v", msgType, err)
		return
	}
	frames = append(frames, buffers...)
	k.iopubMu.Lock()
	defer k.iopubMu.Unlock()
	if err := k.iopub.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil && k.ctx.Err() == nil {
		k.log.Printf("iopub %s: %v", msgType, err)
	}
}

func (k *Kernel) status(parent *Message, state string) {
	k.publish(parent, "status", map[string]any{"execution_state": state})
}

// sendStream publishes captured output for the current parent.
func (k *Kernel) sendStream(name, text string) {
	k.publish(k.parent.Load(), "stream", map[string]any{"name": name, "text": text})
}

// waitSubscriber waits (bounded) until a front end has subscribed to iopub.
// ZeroMQ drops what a PUB socket sends before a subscription arrives, and
// clients check that the status messages around their first kernel_info
// reach them before they call the kernel ready; without this wait each
// early kernel_info costs the client a 0.2 s retry.
func (k *Kernel) waitSubscriber(timeout time.Duration) {
	t, ok := k.iopub.(interface{ Topics() []string })
	if !ok {
		return
	}
	deadline := time.Now().Add(timeout)
	for len(t.Topics()) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}

func (k *Kernel) kernelInfo() map[string]any {
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       protocolVersion,
		"implementation":         "neurogo",
		"implementation_version": Version,
		"language_info": map[string]any{
			"name":            "go",
			"version":         strings.TrimPrefix(runtime.Version(), "go"),
			"mimetype":        "text/x-go",
			"file_extension":  ".go",
			"codemirror_mode": "go",
			"pygments_lexer":  "go",
		},
		"banner":   fmt.Sprintf("neurogo %s — Go %s kernel with the neurogo toolkit", Version, runtime.Version()),
		"debugger": false,
		"help_links": []map[string]string{
			{"text": "Go standard library", "url": "https://pkg.go.dev/std"},
			{"text": "neurogo", "url": "https://pkg.go.dev/github.com/neurogo/neurogo"},
		},
	}
}

func (k *Kernel) handleControl(m *Message) {
	if m.Header.MsgType == "kernel_info_request" {
		k.waitSubscriber(500 * time.Millisecond)
	}
	k.status(m, "busy")
	defer k.status(m, "idle")
	switch m.Header.MsgType {
	case "kernel_info_request":
		k.send(k.control, m, "kernel_info_reply", k.kernelInfo(), nil)
	case "interrupt_request":
		k.interrupt()
		k.send(k.control, m, "interrupt_reply", map[string]any{"status": "ok"}, nil)
	case "shutdown_request":
		var c struct {
			Restart bool `json:"restart"`
		}
		_ = json.Unmarshal(m.Content, &c)
		k.interrupt()
		k.send(k.control, m, "shutdown_reply", map[string]any{"status": "ok", "restart": c.Restart}, nil)
		k.status(m, "idle")
		k.restart = c.Restart
		// Let the reply leave before closing the sockets.
		time.Sleep(50 * time.Millisecond)
		k.shutdown()
	default:
		k.unknown(k.control, m)
	}
}

// unknown answers a message type the kernel does not implement with an
// error reply, so that no client waits forever.
func (k *Kernel) unknown(s zmq4.Socket, m *Message) {
	t := m.Header.MsgType
	k.log.Printf("unknown message type %q", t)
	reply := strings.TrimSuffix(t, "_request") + "_reply"
	k.send(s, m, reply, map[string]any{
		"status":    "error",
		"ename":     "UnknownMessageType",
		"evalue":    fmt.Sprintf("neurogo does not handle %q messages", t),
		"traceback": []string{},
	}, nil)
}

// interrupt stops the running cell, if any (see supervisor.interrupt).
func (k *Kernel) interrupt() { k.sup.interrupt() }
