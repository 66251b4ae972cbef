package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// IDXType is the element type of an IDX file: the third byte of its magic
// number (LeCun et al., "THE MNIST DATABASE", file-format section).
type IDXType byte

// The IDX element types.
const (
	UByte  IDXType = 0x08 // unsigned byte
	Byte   IDXType = 0x09 // signed byte
	Short  IDXType = 0x0B // big-endian int16
	Int    IDXType = 0x0C // big-endian int32
	Float  IDXType = 0x0D // big-endian IEEE 754 float32
	Double IDXType = 0x0E // big-endian IEEE 754 float64
)

// MaxIDXElements caps the number of elements an IDX header may declare
// (2^27, 1 GiB as float64; MNIST's training images are 47 040 000).
// Larger headers are refused before anything is allocated.
const MaxIDXElements = 1 << 27

// maxIDXDims caps the number of dimensions (MNIST uses 1 and 3).
const maxIDXDims = 16

// ErrCorrupt is wrapped by every error about malformed IDX content (bad
// magic, unknown type, absurd sizes, truncated data, trailing bytes, broken
// gzip stream) and by data-set checks (wrong counts, shapes or labels).
var ErrCorrupt = errors.New("corrupt or unexpected data")

// String returns the type's name as the IDX description spells it.
func (t IDXType) String() string {
	switch t {
	case UByte:
		return "ubyte"
	case Byte:
		return "byte"
	case Short:
		return "short"
	case Int:
		return "int"
	case Float:
		return "float"
	case Double:
		return "double"
	}
	return fmt.Sprintf("IDXType(0x%02X)", byte(t))
}

// Size returns the size of one element in bytes, or 0 for an unknown type.
func (t IDXType) Size() int {
	switch t {
	case UByte, Byte:
		return 1
	case Short:
		return 2
	case Int, Float:
		return 4
	case Double:
		return 8
	}
	return 0
}

// IDX is the content of one IDX file: the element type, the shape (the
// header's dimensions, outermost first) and the elements in row-major
// order converted to float64 (exact for every IDX type).
type IDX struct {
	Type  IDXType
	Shape []int
	Data  []float64
}

// ReadIDX reads one IDX array from r, plain or gzip-compressed (detected
// by the gzip magic 0x1f 0x8b, not by a name). It checks the magic number
// (0x00 0x00 type ndims), the type, the declared size (at most
// MaxIDXElements) and that exactly the declared number of data bytes
// follows. Errors wrap ErrCorrupt, or the reader's own error.
func ReadIDX(r io.Reader) (*IDX, error) {
	return readIDX(r, "IDX data")
}

// LoadIDX reads the IDX file at path (plain or gzip); errors name the file.
func LoadIDX(path string) (*IDX, error) {
	x, _, err := loadIDX(path, -1)
	return x, err
}

// LoadIDXPrefix reads the header of the IDX file at path (plain or gzip)
// and only the first n entries along its outermost dimension: the result's
// Shape[0] is n and Data holds n×(the product of the other dimensions)
// elements; the rest of the file is not read (so trailing bytes are not
// looked for). n must be in [0, the declared Shape[0]]; the header is
// checked as by ReadIDX, and a file shorter than the prefix is corrupt.
// Reading the first 1000 of MNIST's 60 000 training images reads 784 kB,
// not 47 MB.
func LoadIDXPrefix(path string, n int) (*IDX, error) {
	if n < 0 {
		return nil, fmt.Errorf("data: LoadIDXPrefix(%s, %d): n must be ≥ 0", path, n)
	}
	x, _, err := loadIDX(path, n)
	return x, err
}

// loadIDX reads the file at path, the first limit entries of its
// outermost dimension when limit ≥ 0 (all when limit < 0), and returns the
// header's declared outermost size too.
func loadIDX(path string, limit int) (*IDX, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("data: %w", err)
	}
	defer f.Close()
	return readIDXPrefix(f, path, limit)
}

func readIDX(r io.Reader, name string) (*IDX, error) {
	x, _, err := readIDXPrefix(r, name, -1)
	return x, err
}

func corrupt(name, format string, args ...any) error {
	return fmt.Errorf("data: %s: %s: %w", name, fmt.Sprintf(format, args...), ErrCorrupt)
}

// readIDXPrefix reads an IDX array, or (limit ≥ 0) the first limit
// entries of its outermost dimension, and returns the declared outermost
// size (0 for a zero-dimensional array).
func readIDXPrefix(r io.Reader, name string, limit int) (*IDX, int, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var src io.Reader = br
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, 0, corrupt(name, "gzip header: %v", err)
		}
		defer zr.Close()
		src = zr
		name += " (gzip)"
	}
	var magic [4]byte
	if n, err := io.ReadFull(src, magic[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, 0, corrupt(name, "magic number: got %d of 4 bytes (the file is empty or truncated)", n)
		}
		return nil, 0, fmt.Errorf("data: %s: magic number: %w", name, err)
	}
	if magic[0] != 0 || magic[1] != 0 {
		return nil, 0, corrupt(name, "magic number % X: the first two bytes must be 00 00 (not an IDX file)", magic[:])
	}
	typ := IDXType(magic[2])
	if typ.Size() == 0 {
		return nil, 0, corrupt(name, "magic number % X: unknown element type 0x%02X (want 08 ubyte, 09 byte, 0B short, 0C int, 0D float or 0E double)", magic[:], magic[2])
	}
	ndims := int(magic[3])
	if ndims > maxIDXDims {
		return nil, 0, corrupt(name, "magic number % X: %d dimensions, at most %d allowed", magic[:], ndims, maxIDXDims)
	}
	dimBytes := make([]byte, 4*ndims)
	if n, err := io.ReadFull(src, dimBytes); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, 0, corrupt(name, "dimensions: header declares %d dimensions (%d bytes) but only %d bytes follow", ndims, 4*ndims, n)
		}
		return nil, 0, fmt.Errorf("data: %s: dimensions: %w", name, err)
	}
	shape := make([]int, ndims)
	elems := 1
	for i := range shape {
		d := binary.BigEndian.Uint32(dimBytes[4*i:])
		shape[i] = int(d)
		if d != 0 && elems > MaxIDXElements/int(d) {
			return nil, 0, corrupt(name, "dimensions %v: more than MaxIDXElements (%d) elements; refusing to allocate", dimsOf(dimBytes), MaxIDXElements)
		}
		elems *= int(d)
	}
	if elems > MaxIDXElements {
		return nil, 0, corrupt(name, "dimensions %v: %d elements, more than MaxIDXElements (%d); refusing to allocate", shape, elems, MaxIDXElements)
	}
	declared := 0
	if ndims > 0 {
		declared = shape[0]
	}
	if limit >= 0 {
		if ndims == 0 {
			return nil, 0, corrupt(name, "a prefix of %d entries asked of a zero-dimensional array", limit)
		}
		if limit > declared {
			return nil, 0, fmt.Errorf("data: %s: the first %d entries asked for, the file holds %d", name, limit, declared)
		}
		if declared > 0 {
			elems = elems / declared * limit
		}
		shape[0] = limit
	}
	want := int64(elems) * int64(typ.Size())
	// Read into a buffer that grows with what actually arrives, so a forged
	// header on a short file cannot make us allocate the declared size.
	var buf bytes.Buffer
	buf.Grow(int(min(want, 1<<20)))
	got, err := buf.ReadFrom(io.LimitReader(src, want))
	if err != nil {
		return nil, 0, corrupt(name, "data: read %d of %d bytes, then: %v (a truncated or damaged stream)", got, want, err)
	}
	if got != want {
		return nil, 0, corrupt(name, "data truncated: shape %v of %s needs %d bytes after the %d-byte header, got %d", shape, typ, want, 4+4*ndims, got)
	}
	if limit >= 0 {
		return &IDX{Type: typ, Shape: shape, Data: decode(typ, buf.Bytes(), elems)}, declared, nil
	}
	var extra [1]byte
	if n, err := io.ReadFull(src, extra[:]); n > 0 {
		const countMax = 1 << 20 // count trailing bytes only so far
		rest, _ := io.Copy(io.Discard, io.LimitReader(src, countMax))
		more := ""
		if rest == countMax {
			more = "at least "
		}
		return nil, 0, corrupt(name, "%s%d trailing bytes after the %d data bytes of shape %v", more, 1+rest, want, shape)
	} else if err != nil && !errors.Is(err, io.EOF) {
		// gzip reports a checksum or length mismatch here, at the end.
		return nil, 0, corrupt(name, "after the data: %v", err)
	}
	return &IDX{Type: typ, Shape: shape, Data: decode(typ, buf.Bytes(), elems)}, declared, nil
}

func dimsOf(b []byte) []uint32 {
	d := make([]uint32, len(b)/4)
	for i := range d {
		d[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	return d
}

func decode(t IDXType, b []byte, n int) []float64 {
	out := make([]float64, n)
	switch t {
	case UByte:
		for i, v := range b[:n] {
			out[i] = float64(v)
		}
	case Byte:
		for i, v := range b[:n] {
			out[i] = float64(int8(v))
		}
	case Short:
		for i := range out {
			out[i] = float64(int16(binary.BigEndian.Uint16(b[2*i:])))
		}
	case Int:
		for i := range out {
			out[i] = float64(int32(binary.BigEndian.Uint32(b[4*i:])))
		}
	case Float:
		for i := range out {
			out[i] = float64(math.Float32frombits(binary.BigEndian.Uint32(b[4*i:])))
		}
	case Double:
		for i := range out {
			out[i] = math.Float64frombits(binary.BigEndian.Uint64(b[8*i:]))
		}
	}
	return out
}

// WriteIDX writes x to w as a plain IDX file. The shape's product must
// equal len(x.Data) and every element must be representable in x.Type
// (integers in range for the integer types; Float rounds to float32).
func WriteIDX(w io.Writer, x *IDX) error {
	if x == nil {
		return errors.New("data: WriteIDX: nil IDX")
	}
	if x.Type.Size() == 0 {
		return fmt.Errorf("data: WriteIDX: unknown type %s", x.Type)
	}
	if len(x.Shape) > maxIDXDims {
		return fmt.Errorf("data: WriteIDX: %d dimensions, at most %d allowed", len(x.Shape), maxIDXDims)
	}
	n := 1
	for i, d := range x.Shape {
		if d < 0 || uint64(d) > math.MaxUint32 {
			return fmt.Errorf("data: WriteIDX: Shape[%d] = %d: must be in [0, 2^32)", i, d)
		}
		n *= d
	}
	if n != len(x.Data) {
		return fmt.Errorf("data: WriteIDX: shape %v holds %d elements, Data has %d", x.Shape, n, len(x.Data))
	}
	b := make([]byte, 4+4*len(x.Shape), 4+4*len(x.Shape)+n*x.Type.Size())
	b[2], b[3] = byte(x.Type), byte(len(x.Shape))
	for i, d := range x.Shape {
		binary.BigEndian.PutUint32(b[4+4*i:], uint32(d))
	}
	lo, hi := 0.0, 0.0
	switch x.Type {
	case UByte:
		lo, hi = 0, math.MaxUint8
	case Byte:
		lo, hi = math.MinInt8, math.MaxInt8
	case Short:
		lo, hi = math.MinInt16, math.MaxInt16
	case Int:
		lo, hi = math.MinInt32, math.MaxInt32
	}
	for i, v := range x.Data {
		if hi != 0 && (v != math.Trunc(v) || v < lo || v > hi) {
			return fmt.Errorf("data: WriteIDX: Data[%d] = %v: not an integer in [%v, %v] for type %s", i, v, lo, hi, x.Type)
		}
		switch x.Type {
		case UByte:
			b = append(b, byte(v))
		case Byte:
			b = append(b, byte(int8(v)))
		case Short:
			b = binary.BigEndian.AppendUint16(b, uint16(int16(v)))
		case Int:
			b = binary.BigEndian.AppendUint32(b, uint32(int32(v)))
		case Float:
			b = binary.BigEndian.AppendUint32(b, math.Float32bits(float32(v)))
		case Double:
			b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	_, err := w.Write(b)
	if err != nil {
		return fmt.Errorf("data: WriteIDX: %w", err)
	}
	return nil
}
