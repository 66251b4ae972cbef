package kernel

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// The kernel process and its executor process talk over one stream
// socket (a Unix socketpair; the executor's end is its file descriptor 3).
// Each message is a frame: a 4-byte big-endian length, then that many
// bytes of JSON encoding one ipcMsg. Both directions use the same framing.
// The executor's other descriptors: 0 is /dev/null, 1 and 2 are pipes the
// kernel reads (streams.go), 4 is a pipe for the Go runtime's crash output
// (debug.SetCrashOutput), whose first byte tells the kernel it is dying.
//
// Kernel → executor:
//
//	run            Code, AllowStdin, Silent, UserExpressions   (ID)
//	complete       Code, CursorPos                             (ID)
//	inspect        Code, CursorPos, DetailLevel                (ID)
//	input_reply    Value, or Err when the front end gave none
//	interrupt      cancel the running cell, set the process's interrupt flag
//	comm_open      CommID, Target, Data, Metadata, Buffers     (Ref)
//	comm_msg       CommID, Data, Metadata, Buffers             (Ref)
//	comm_close     CommID, Data                                (Ref)
//	shutdown       exit now
//
// Executor → kernel:
//
//	ready          the interpreter is set up (Err if it could not be)
//	display        Data, Metadata, DisplayID, Update           (Sync)
//	clear          Wait                                        (Sync)
//	input_request  Prompt, Password                            (Sync)
//	result         HasValue, Data, Metadata, UserExprs         (ID, Sync)
//	error          EName, EValue, Traceback                    (ID, Sync)
//	complete_reply Matches, Kinds, Signatures, Start, End      (ID)
//	inspect_reply  Text, Found                                 (ID)
//	memory         Used: the Go heap is above the memory limit
//	log            Text: a line for the kernel's log (never a cell's output)
//	comm_open      CommID, Target, Data, Metadata, Buffers     (Ref)
//	comm_msg       CommID, Data, Metadata, Buffers             (Ref)
//	comm_close     CommID, Data                                (Ref)
//	comm_done      the front end's comm message Ref was handled (Ref, Sync)
//
// Comm messages (the Jupyter comm protocol; package widgets is its user in
// the executor) cross in both directions at any time, while a cell runs
// too. The kernel numbers each front-end comm message it forwards (Ref);
// the executor handles them one at a time, outside the cell, tags the comm
// messages it sends while handling one with its Ref (the kernel publishes
// them with that front-end message as parent, which echo_update needs), and
// answers comm_done after the callbacks' output.
//
// Ordering: standard output and error of the executor are its file
// descriptors 1 and 2, pipes the kernel reads. Before an event that must
// follow the output written so far (Sync > 0), the executor writes sync
// marker Sync into both pipes; the kernel acts on the event only after both
// pipe readers have passed that marker (see streams.go).
type ipcMsg struct {
	Type string `json:"t"`
	ID   uint64 `json:"id,omitempty"`
	Sync int    `json:"sync,omitempty"`

	// run, complete, inspect
	Code            string            `json:"code,omitempty"`
	AllowStdin      bool              `json:"allow_stdin,omitempty"`
	Silent          bool              `json:"silent,omitempty"`
	UserExpressions map[string]string `json:"user_expressions,omitempty"`
	CursorPos       int               `json:"cursor_pos,omitempty"`
	DetailLevel     int               `json:"detail_level,omitempty"`

	// display, clear, result
	Data      map[string]any `json:"data,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	DisplayID string         `json:"display_id,omitempty"`
	Update    bool           `json:"update,omitempty"`
	Wait      bool           `json:"wait,omitempty"`
	HasValue  bool           `json:"has_value,omitempty"`
	UserExprs map[string]any `json:"user_exprs,omitempty"`

	// input_request, input_reply
	Prompt   string `json:"prompt,omitempty"`
	Password bool   `json:"password,omitempty"`
	Value    string `json:"value,omitempty"`

	// error
	EName     string   `json:"ename,omitempty"`
	EValue    string   `json:"evalue,omitempty"`
	Traceback []string `json:"traceback,omitempty"`

	// complete_reply, inspect_reply
	Matches []string `json:"matches,omitempty"`
	Kinds   []string `json:"kinds,omitempty"`
	Sigs    []string `json:"sigs,omitempty"`
	Start   int      `json:"start,omitempty"`
	End     int      `json:"end,omitempty"`
	Text    string   `json:"text,omitempty"`
	Found   bool     `json:"found,omitempty"`

	// comm_open, comm_msg, comm_close, comm_done (Data and Metadata above)
	CommID  string   `json:"comm_id,omitempty"`
	Target  string   `json:"target,omitempty"`
	Buffers [][]byte `json:"buffers,omitempty"`
	Ref     uint64   `json:"ref,omitempty"`

	// ready, input_reply: a failure; memory: bytes in use
	Err  string `json:"err,omitempty"`
	Used int64  `json:"used,omitempty"`
}

// maxFrame bounds one frame (a PNG in a display bundle is the largest
// thing that crosses); the kernel's own wire limit is 100 MB.
const maxFrame = 256 << 20

var errFrameTooLarge = errors.New("ipc: frame larger than 256 MiB")

// writeFrame writes one length-prefixed frame.
func writeFrame(w io.Writer, b []byte) error {
	if len(b) > maxFrame {
		return errFrameTooLarge
	}
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(b)))
	// One write for small frames: the socket then never carries half a
	// header when the writer dies.
	if len(b) <= 64<<10 {
		buf := make([]byte, 0, 4+len(b))
		buf = append(append(buf, hdr[:]...), b...)
		_, err := w.Write(buf)
		return err
	}
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(b)
	return err
}

// readFrame reads one frame. A clean end of stream between frames is
// io.EOF; one inside a frame is io.ErrUnexpectedEOF.
func readFrame(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return nil, fmt.Errorf("%w (%d bytes announced)", errFrameTooLarge, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}

// ipcConn sends and receives ipcMsg frames; Send is safe for concurrent
// use, Recv is called from one goroutine.
type ipcConn struct {
	wmu sync.Mutex
	w   io.Writer
	r   *bufio.Reader
	c   io.Closer
}

func newIPCConn(rw io.ReadWriteCloser) *ipcConn {
	return &ipcConn{w: rw, r: bufio.NewReaderSize(rw, 64<<10), c: rw}
}

// Send encodes and writes m.
func (c *ipcConn) Send(m *ipcMsg) error {
	b, err := encodeMsg(m)
	if err != nil {
		return err
	}
	return c.SendEncoded(b)
}

// encodeMsg encodes m for SendEncoded.
func encodeMsg(m *ipcMsg) ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("ipc: encode %s: %w", m.Type, err)
	}
	if len(b) > maxFrame {
		return nil, fmt.Errorf("ipc: encode %s: %w", m.Type, errFrameTooLarge)
	}
	return b, nil
}

// SendEncoded writes a message encoded by encodeMsg.
func (c *ipcConn) SendEncoded(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return writeFrame(c.w, b)
}

// Recv reads and decodes the next message.
func (c *ipcConn) Recv() (*ipcMsg, error) {
	b, err := readFrame(c.r)
	if err != nil {
		return nil, err
	}
	m := new(ipcMsg)
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("ipc: decode: %w", err)
	}
	return m, nil
}

// Close closes the underlying connection.
func (c *ipcConn) Close() error { return c.c.Close() }
