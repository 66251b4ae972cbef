package widgets

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/neurogo/neurogo/display"
)

// Output shows captured cell output — text and display calls — inside a
// widget (ipywidgets' Output). Its outputs are kept in Go and sent to the
// front end as the model's "outputs" attribute.
type Output struct {
	core
	omu     sync.Mutex
	outputs []any
	ids     map[string]int // display_id → index in outputs
	pending bool           // Clear(true): clear at the next output
}

// NewOutput returns an empty output area.
func NewOutput() *Output {
	o := &Output{core: core{newDOM("OutputModel", "OutputView", nil, map[string]any{
		"_model_module": outputModule, "_model_module_version": outputVersion,
		"_view_module": outputModule, "_view_module_version": outputVersion,
		"msg_id": "", "outputs": []any{},
	})}}
	// JupyterLab's output model sends what it captured itself back; the
	// Go side owns the outputs, but accepts these updates.
	o.m.writable["outputs"] = kAny
	o.m.writable["msg_id"] = kAny
	o.m.describe = func() string {
		o.omu.Lock()
		defer o.omu.Unlock()
		return fmt.Sprintf("Output(%d outputs)", len(o.outputs))
	}
	return o
}

// Clear removes every output.
func (o *Output) Clear() {
	o.omu.Lock()
	o.outputs, o.ids, o.pending = nil, nil, false
	o.omu.Unlock()
	o.sync()
}

// Outputs returns the outputs in the notebook format (output_type
// "stream", "display_data", "error").
func (o *Output) Outputs() []any {
	o.omu.Lock()
	defer o.omu.Unlock()
	return slices.Clone(o.outputs)
}

func (o *Output) sync() {
	o.omu.Lock()
	outs := slices.Clone(o.outputs)
	o.omu.Unlock()
	if outs == nil {
		outs = []any{}
	}
	o.m.set(map[string]any{"outputs": outs})
}

// add appends an output (omu held by the caller's caller: no).
func (o *Output) add(out map[string]any, id string, update bool) {
	o.omu.Lock()
	if o.pending {
		o.outputs, o.ids, o.pending = nil, nil, false
	}
	if update {
		if i, ok := o.ids[id]; ok && i < len(o.outputs) {
			o.outputs[i] = out
		}
		o.omu.Unlock()
		o.sync()
		return
	}
	if id != "" {
		if o.ids == nil {
			o.ids = map[string]int{}
		}
		o.ids[id] = len(o.outputs)
	}
	o.outputs = append(o.outputs, out)
	o.omu.Unlock()
	o.sync()
}

func (o *Output) appendStream(name, text string) {
	if text == "" {
		return
	}
	o.omu.Lock()
	if o.pending {
		o.outputs, o.ids, o.pending = nil, nil, false
	}
	if n := len(o.outputs); n > 0 {
		if last, ok := o.outputs[n-1].(map[string]any); ok && last["output_type"] == "stream" && last["name"] == name {
			merged := map[string]any{"output_type": "stream", "name": name, "text": last["text"].(string) + text}
			o.outputs[n-1] = merged
			o.omu.Unlock()
			o.sync()
			return
		}
	}
	o.outputs = append(o.outputs, map[string]any{"output_type": "stream", "name": name, "text": text})
	o.omu.Unlock()
	o.sync()
}

// Display shows v in the output area (as display.Display would in a cell).
func (o *Output) Display(v any) {
	if v == nil {
		return
	}
	data, md := display.Bundle(v)
	o.add(map[string]any{"output_type": "display_data", "data": data, "metadata": md}, "", false)
}

// Capture runs f with its display calls (display.Display, Show, Update,
// Clear) and what it prints to os.Stdout and os.Stderr going to the output
// area instead of the cell. A panic in f is shown there as an error and
// does not go further. Captures may nest; while one runs, output of other
// goroutines goes to it too (as in ipywidgets). In cells run by the
// interpreter fallback, fmt.Print* of the cell's own code is not captured;
// display calls are.
func (o *Output) Capture(f func()) {
	if f == nil {
		return
	}
	c, err := startCapture(o)
	if err != nil {
		o.appendStream("stderr", fmt.Sprintf("widgets: Output.Capture: %v\n", err))
	}
	defer func() {
		r := recover()
		if c != nil {
			c.stop()
		}
		if r != nil {
			msg := fmt.Sprint(r)
			o.add(map[string]any{"output_type": "error", "ename": "panic", "evalue": msg, "traceback": []any{"\x1b[0;31mpanic\x1b[0m: " + msg}}, "", false)
			logf("widgets: Output.Capture: recovered panic: %s", msg)
		}
	}()
	f()
}

// capture is one running Capture.
type capture struct {
	o          *Output
	outR, errR *os.File
	outW, errW *os.File
	done       sync.WaitGroup

	fmu     sync.Mutex
	seq     int
	waiters map[string]chan struct{} // flush marker → closed when read
}

// flushMarker is written into a capture's pipes; the reader appends what
// came before it and signals the marker's waiter.
const flushMarker = "\x00\x1bNGWFLUSH:"

// flush waits until what was written to the capture's pipes so far has
// been appended to the output (so that a display call comes after the
// text printed before it).
func (c *capture) flush() {
	c.fmu.Lock()
	c.seq++
	var chans []chan struct{}
	var marks []string
	for _, name := range []string{"o", "e"} {
		mk := fmt.Sprintf("%s%s%d\x00", flushMarker, name, c.seq)
		ch := make(chan struct{})
		if c.waiters == nil {
			c.waiters = map[string]chan struct{}{}
		}
		c.waiters[mk] = ch
		chans = append(chans, ch)
		marks = append(marks, mk)
	}
	c.fmu.Unlock()
	if _, err := c.outW.Write([]byte(marks[0])); err != nil {
		return
	}
	if _, err := c.errW.Write([]byte(marks[1])); err != nil {
		return
	}
	for _, ch := range chans {
		select {
		case <-ch:
		case <-time.After(2 * time.Second):
		}
	}
}

// release signals the waiter of marker mk.
func (c *capture) release(mk string) {
	c.fmu.Lock()
	ch := c.waiters[mk]
	delete(c.waiters, mk)
	c.fmu.Unlock()
	if ch != nil {
		close(ch)
	}
}

var capState struct {
	sync.Mutex
	stack          []*capture
	stdout, stderr *os.File
	restoreDisplay func()
}

// captureSink routes display calls to the innermost capture.
type captureSink struct{}

func (captureSink) Display(data, metadata map[string]any, id string, update bool) error {
	if c := topCaptureC(); c != nil {
		c.flush() // what was printed before comes first
		o := c.o
		o.add(map[string]any{"output_type": "display_data", "data": data, "metadata": metadata}, id, update)
	}
	return nil
}

func (captureSink) Clear(wait bool) error {
	if o := topCapture(); o != nil {
		if wait {
			o.omu.Lock()
			o.pending = true
			o.omu.Unlock()
		} else {
			o.Clear()
		}
	}
	return nil
}

func topCapture() *Output {
	if c := topCaptureC(); c != nil {
		return c.o
	}
	return nil
}

func topCaptureC() *capture {
	capState.Lock()
	defer capState.Unlock()
	if n := len(capState.stack); n > 0 {
		return capState.stack[n-1]
	}
	return nil
}

func startCapture(o *Output) (*capture, error) {
	c := &capture{o: o}
	var err error
	if c.outR, c.outW, err = os.Pipe(); err != nil {
		return nil, err
	}
	if c.errR, c.errW, err = os.Pipe(); err != nil {
		c.outR.Close()
		c.outW.Close()
		return nil, err
	}
	c.done.Add(2)
	go c.copy(c.outR, "stdout")
	go c.copy(c.errR, "stderr")
	capState.Lock()
	if len(capState.stack) == 0 {
		capState.stdout, capState.stderr = os.Stdout, os.Stderr
		capState.restoreDisplay = display.Redirect(captureSink{})
	}
	capState.stack = append(capState.stack, c)
	os.Stdout, os.Stderr = c.outW, c.errW
	capState.Unlock()
	return c, nil
}

func (c *capture) copy(r *os.File, name string) {
	defer c.done.Done()
	buf := make([]byte, 8<<10)
	var pending string
	for {
		n, err := r.Read(buf)
		pending += string(buf[:n])
		for {
			i := strings.Index(pending, flushMarker)
			if i < 0 {
				break
			}
			end := strings.IndexByte(pending[i+len(flushMarker):], 0)
			if end < 0 {
				break // the rest of the marker is still to come
			}
			c.o.appendStream(name, pending[:i])
			mk := pending[i : i+len(flushMarker)+end+1]
			pending = pending[i+len(flushMarker)+end+1:]
			c.release(mk)
		}
		// Keep what may be the start of a marker.
		keep := 0
		if j := strings.Index(pending, flushMarker); j >= 0 {
			keep = len(pending) - j
		} else {
			for k := min(len(flushMarker)-1, len(pending)); k > 0; k-- {
				if strings.HasSuffix(pending, flushMarker[:k]) {
					keep = k
					break
				}
			}
		}
		if len(pending) > keep {
			c.o.appendStream(name, pending[:len(pending)-keep])
			pending = pending[len(pending)-keep:]
		}
		if err != nil {
			c.o.appendStream(name, pending)
			if err != io.EOF {
				logf("widgets: capture %s: %v", name, err)
			}
			r.Close()
			return
		}
	}
}

func (c *capture) stop() {
	capState.Lock()
	if i := slices.Index(capState.stack, c); i >= 0 {
		capState.stack = slices.Delete(capState.stack, i, i+1)
	}
	if n := len(capState.stack); n > 0 {
		os.Stdout, os.Stderr = capState.stack[n-1].outW, capState.stack[n-1].errW
	} else {
		os.Stdout, os.Stderr = capState.stdout, capState.stderr
		if capState.restoreDisplay != nil {
			capState.restoreDisplay()
			capState.restoreDisplay = nil
		}
	}
	capState.Unlock()
	c.outW.Close()
	c.errW.Close()
	c.done.Wait()
}
