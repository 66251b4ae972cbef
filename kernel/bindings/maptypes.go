package bindings

import (
	"bufio"
	"encoding"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"reflect"
)

// Binary functions that check whether an argument implements an interface
// (fmt's Stringer and Formatter, json's Marshaler, ...) cannot see methods
// declared in interpreted code unless yaegi wraps the value in the matching
// wrapper type. MapTypes lists, per function, the interfaces to try. This
// mirrors what yaegi's own stdlib package sets up.
func init() {
	printing := []reflect.Type{
		reflect.TypeOf((*fmt.Formatter)(nil)).Elem(),
		reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
	}
	for _, f := range []any{
		fmt.Errorf, fmt.Fprint, fmt.Fprintf, fmt.Fprintln, fmt.Print, fmt.Printf, fmt.Println,
		fmt.Sprint, fmt.Sprintf, fmt.Sprintln, fmt.Append, fmt.Appendf, fmt.Appendln,
		log.Fatal, log.Fatalf, log.Fatalln, log.Panic, log.Panicf, log.Panicln,
		log.Print, log.Printf, log.Println,
	} {
		MapTypes[reflect.ValueOf(f)] = printing
	}

	scanning := []reflect.Type{reflect.TypeOf((*fmt.Scanner)(nil)).Elem()}
	for _, f := range []any{fmt.Scan, fmt.Scanf, fmt.Scanln, fmt.Fscan, fmt.Fscanf, fmt.Fscanln, fmt.Sscan, fmt.Sscanf, fmt.Sscanln} {
		MapTypes[reflect.ValueOf(f)] = scanning
	}

	marshal := []reflect.Type{
		reflect.TypeOf((*json.Marshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem(),
	}
	MapTypes[reflect.ValueOf(json.Marshal)] = marshal
	MapTypes[reflect.ValueOf(json.MarshalIndent)] = marshal
	MapTypes[reflect.ValueOf(json.Unmarshal)] = []reflect.Type{
		reflect.TypeOf((*json.Unmarshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem(),
	}
	MapTypes[reflect.ValueOf(xml.Marshal)] = []reflect.Type{
		reflect.TypeOf((*xml.Marshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem(),
	}
	MapTypes[reflect.ValueOf(xml.Unmarshal)] = []reflect.Type{
		reflect.TypeOf((*xml.Unmarshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem(),
	}

	// Composed interfaces: the generated wrapper of an interface only has
	// that interface's methods; these add the optional ones the standard
	// library looks for (each list sorted by number of methods).
	MapTypes[reflect.ValueOf((*_io_Reader)(nil))] = []reflect.Type{reflect.TypeOf(readerWriteTo{})}
	MapTypes[reflect.ValueOf((*_io_Writer)(nil))] = []reflect.Type{reflect.TypeOf(writerReadFrom{})}
	MapTypes[reflect.ValueOf((*_net_http_ResponseWriter)(nil))] = []reflect.Type{reflect.TypeOf(responseWriterHijacker{})}
}

// readerWriteTo wraps an interpreted io.Reader that also has WriteTo (used
// by io.Copy).
type readerWriteTo struct {
	IValue   any
	WRead    func(p []byte) (int, error)
	WWriteTo func(w io.Writer) (int64, error)
}

func (w readerWriteTo) Read(p []byte) (int, error)          { return w.WRead(p) }
func (w readerWriteTo) WriteTo(wr io.Writer) (int64, error) { return w.WWriteTo(wr) }

// writerReadFrom wraps an interpreted io.Writer that also has ReadFrom.
type writerReadFrom struct {
	IValue    any
	WWrite    func(p []byte) (int, error)
	WReadFrom func(r io.Reader) (int64, error)
}

func (w writerReadFrom) Write(p []byte) (int, error)         { return w.WWrite(p) }
func (w writerReadFrom) ReadFrom(r io.Reader) (int64, error) { return w.WReadFrom(r) }

// responseWriterHijacker wraps an interpreted http.ResponseWriter that
// also implements http.Hijacker.
type responseWriterHijacker struct {
	IValue       any
	WHeader      func() http.Header
	WWrite       func(p []byte) (int, error)
	WWriteHeader func(statusCode int)
	WHijack      func() (net.Conn, *bufio.ReadWriter, error)
}

func (w responseWriterHijacker) Header() http.Header         { return w.WHeader() }
func (w responseWriterHijacker) Write(p []byte) (int, error) { return w.WWrite(p) }
func (w responseWriterHijacker) WriteHeader(statusCode int)  { w.WWriteHeader(statusCode) }
func (w responseWriterHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return w.WHijack()
}
