package npz

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/sbinet/npyio/npy"
	snpz "github.com/sbinet/npyio/npz"
)

// Array is an n-dimensional float64 array in row-major (C) order: the
// element at index (i0, …, ik) is Data[((i0·d1 + i1)·d2 + …)·dk + ik] for
// Shape (d0, …, dk). A 0-d array (a NumPy scalar) has an empty Shape and
// one element. len(Data) is always the product of Shape.
type Array struct {
	Shape []int
	Data  []float64
}

// At returns the element at the given index, one coordinate per axis
// (none for a 0-d array). Like a slice index it panics when the index has
// the wrong number of coordinates or is out of range: that is a bug in the
// caller, not bad input.
func (a Array) At(idx ...int) float64 {
	if len(idx) != len(a.Shape) {
		panic(fmt.Sprintf("npz: At%v: %d-d array needs %d indices", idx, len(a.Shape), len(a.Shape)))
	}
	off := 0
	for k, i := range idx {
		if i < 0 || i >= a.Shape[k] {
			panic(fmt.Sprintf("npz: At%v: index out of range for shape %v", idx, a.Shape))
		}
		off = off*a.Shape[k] + i
	}
	return a.Data[off]
}

// Rows returns the rows of a 2-D array. The rows share memory with Data
// (each has its capacity capped at its length, so appending to one does
// not overwrite the next). It panics if the array is not 2-D.
func (a Array) Rows() [][]float64 {
	if len(a.Shape) != 2 {
		panic(fmt.Sprintf("npz: Rows of a %d-d array (shape %v)", len(a.Shape), a.Shape))
	}
	n, m := a.Shape[0], a.Shape[1]
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = a.Data[i*m : (i+1)*m : (i+1)*m]
	}
	return rows
}

// validate checks the invariant len(Data) == product(Shape) with every
// dimension non-negative.
func (a Array) validate() error {
	n, err := numElems(a.Shape)
	if err != nil {
		return err
	}
	if n != len(a.Data) {
		return fmt.Errorf("shape %v needs %d values, Data has %d", a.Shape, n, len(a.Data))
	}
	return nil
}

// numElems is the product of shape, or an error for a negative dimension
// or a product that does not fit in an int.
func numElems(shape []int) (int, error) {
	n := uint64(1)
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("shape %v: negative dimension", shape)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > math.MaxInt {
			return 0, fmt.Errorf("shape %v: too many elements", shape)
		}
		n = lo
	}
	return int(n), nil
}

// Read reads every array of the .npz archive at path. Keys are the archive
// member names without their ".npy" suffix, as numpy.load reports them.
func Read(path string) (map[string]Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("npz: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("npz: %w", err)
	}
	return read(fmt.Sprintf("npz: read %q", path), f, st.Size())
}

// ReadFrom reads every array of a .npz archive of size bytes held by r.
func ReadFrom(r io.ReaderAt, size int64) (map[string]Array, error) {
	return read("npz: read", r, size)
}

// errInternal marks a panic inside npyio that the checks in checkHeader
// failed to prevent; it is returned (never raised) and FuzzRead fails on it.
var errInternal = errors.New("internal error (please report)")

func read(where string, r io.ReaderAt, size int64) (map[string]Array, error) {
	zr, err := snpz.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	out := make(map[string]Array, len(zr.Keys()))
	for _, name := range zr.Keys() {
		if strings.HasSuffix(name, "/") {
			continue // a directory entry, not an array
		}
		key := strings.TrimSuffix(name, ".npy")
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s: key %q: appears twice in the archive", where, key)
		}
		a, err := readMember(zr, name)
		if err != nil {
			return nil, fmt.Errorf("%s: key %q: %w", where, key, err)
		}
		out[key] = a
	}
	return out, nil
}

// Bounds on what a member may claim before any of its data is read.
const (
	maxHeaderLen = 1 << 16 // numpy itself refuses headers over 10000 bytes
	chunkBytes   = 1 << 16 // data is read and converted this many bytes at a time
)

// readMember decodes one .npy member (NEP 1: the .npy format, versions 1.0
// and 2.0). The header is parsed by npyio; the data is read here, in
// bounded chunks, so that a corrupt header cannot make us allocate more
// than the member really holds, and truncation is an error.
func readMember(zr *snpz.Reader, name string) (a Array, err error) {
	defer func() {
		if p := recover(); p != nil {
			a, err = Array{}, fmt.Errorf("%w: %v", errInternal, p)
		}
	}()
	rc, err := zr.Open(name)
	if err != nil {
		return Array{}, err
	}
	defer rc.Close()

	pre, err := readPreamble(rc)
	if err != nil {
		return Array{}, err
	}
	hdr, err := parseHeader(pre)
	if err != nil {
		return Array{}, err
	}
	if hdr.Descr.Type == "" {
		return Array{}, errors.New("empty dtype")
	}
	dec, size, order, err := decoderFor(hdr.Descr.Type)
	if err != nil {
		return Array{}, err
	}
	shape := append([]int(nil), hdr.Descr.Shape...)
	n, err := numElems(shape)
	if err != nil {
		return Array{}, err
	}
	if n > math.MaxInt/size {
		return Array{}, fmt.Errorf("shape %v: too many bytes", shape)
	}

	data := make([]float64, 0, min(n, chunkBytes))
	buf := make([]byte, min(n*size, chunkBytes))
	for left := n * size; left > 0; {
		b := buf[:min(left, len(buf))]
		if k, err := io.ReadFull(rc, b); err != nil {
			got := n*size - left + k
			return Array{}, fmt.Errorf("data truncated: dtype %s shape %v needs %d bytes, member has %d: %w",
				hdr.Descr.Type, shape, n*size, got, err)
		}
		for i := 0; i < len(b); i += size {
			data = append(data, dec(order, b[i:i+size]))
		}
		left -= len(b)
	}
	// Reading to the end makes archive/zip verify the member's CRC-32.
	extra, err := io.Copy(io.Discard, rc)
	if err != nil {
		return Array{}, err
	}
	if extra != 0 {
		return Array{}, fmt.Errorf("%d bytes after the data of dtype %s shape %v", extra, hdr.Descr.Type, shape)
	}
	if hdr.Descr.Fortran {
		data = fromFortran(data, shape)
	}
	return Array{Shape: shape, Data: data}, nil
}

// readPreamble reads the magic string, version, header length and header
// of a .npy stream and returns them as one byte slice.
func readPreamble(r io.Reader) ([]byte, error) {
	var fixed [8]byte // "\x93NUMPY", major, minor
	if _, err := io.ReadFull(r, fixed[:]); err != nil {
		return nil, fmt.Errorf("not a .npy member: %w", err)
	}
	if !bytes.Equal(fixed[:6], npy.Magic[:]) {
		return nil, errors.New("not a .npy member: bad magic string")
	}
	var lenBytes []byte
	switch major := fixed[6]; major {
	case 1:
		lenBytes = make([]byte, 2)
	case 2:
		lenBytes = make([]byte, 4)
	default:
		return nil, fmt.Errorf("unsupported .npy format version %d.%d", major, fixed[7])
	}
	if _, err := io.ReadFull(r, lenBytes); err != nil {
		return nil, fmt.Errorf("header length: %w", err)
	}
	var hlen uint64
	for i := len(lenBytes) - 1; i >= 0; i-- {
		hlen = hlen<<8 | uint64(lenBytes[i])
	}
	if hlen > maxHeaderLen {
		return nil, fmt.Errorf("header of %d bytes exceeds %d", hlen, maxHeaderLen)
	}
	pre := make([]byte, 0, len(fixed)+len(lenBytes)+int(hlen))
	pre = append(append(pre, fixed[:]...), lenBytes...)
	hdr := make([]byte, hlen)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, fmt.Errorf("header truncated: %w", err)
	}
	return append(pre, hdr...), nil
}

// parseHeader parses a preamble with npyio after checking that its header
// dictionary has numpy's canonical layout,
//
//	{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }
//
// (keys sorted, ", " separators, then padding and '\n'), which is what
// numpy.lib.format writes and the only layout npyio's parser slices
// correctly; anything else is an error rather than a misparse.
func parseHeader(pre []byte) (npy.Header, error) {
	dict := pre[8:]
	if pre[6] == 1 {
		dict = dict[2:]
	} else {
		dict = dict[4:]
	}
	if err := checkHeader(dict); err != nil {
		return npy.Header{}, err
	}
	rd, err := npy.NewReader(bytes.NewReader(pre))
	if err != nil {
		return npy.Header{}, fmt.Errorf("npy header %q: %w", dict, err)
	}
	return rd.Header, nil
}

func checkHeader(h []byte) error {
	bad := func(why string) error {
		return fmt.Errorf("npy header %q: %s (want numpy's {'descr': …, 'fortran_order': …, 'shape': (…), })", h, why)
	}
	nl := bytes.LastIndexByte(h, '\n')
	if nl < 0 {
		return bad("no terminating newline")
	}
	h = h[:nl]
	const (
		kd = "{'descr': '"
		ko = "', 'fortran_order': "
		ks = ", 'shape': ("
		ke = "), }"
	)
	if !bytes.HasPrefix(h, []byte(kd)) {
		return bad("does not start with {'descr': '")
	}
	o := bytes.Index(h, []byte(ko))
	s := bytes.Index(h, []byte(ks))
	e := bytes.IndexByte(h, '}')
	switch {
	case o < len(kd):
		return bad("no 'fortran_order' after 'descr'")
	case s < o+len(ko):
		return bad("no 'shape' after 'fortran_order'")
	case e < 0 || e < s+len(ks) || !bytes.Equal(h[e-len(ke)+1:e+1], []byte(ke)):
		return bad("shape tuple not closed by \"), }\"")
	case bytes.Contains(h[len(kd):o], []byte("'")):
		return bad("dtype is not a plain string")
	case strings.TrimRight(string(h[e+1:]), " ") != "":
		return bad("text after the closing brace")
	}
	if f := string(h[o+len(ko) : s]); f != "True" && f != "False" {
		return bad("fortran_order is neither True nor False")
	}
	if strings.Trim(string(h[s+len(ks):e-len(ke)+1]), "0123456789, ") != "" {
		return bad("shape is not a tuple of integers")
	}
	return nil
}

// decoderFor maps a dtype string to a converter to float64, the item size
// and the byte order. Real numeric and boolean dtypes are accepted;
// complex, string, object and structured dtypes are not.
func decoderFor(descr string) (func(binary.ByteOrder, []byte) float64, int, binary.ByteOrder, error) {
	var order binary.ByteOrder = binary.NativeEndian
	switch descr[0] {
	case '<':
		order = binary.LittleEndian
	case '>':
		order = binary.BigEndian
	}
	unsupported := fmt.Errorf("unsupported dtype %q (want a real number or boolean dtype)", descr)
	t := npy.TypeFrom(descr)
	if t == nil {
		return nil, 0, nil, unsupported
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(_ binary.ByteOrder, b []byte) float64 {
			if b[0] != 0 {
				return 1
			}
			return 0
		}, 1, order, nil
	case reflect.Int8:
		return func(_ binary.ByteOrder, b []byte) float64 { return float64(int8(b[0])) }, 1, order, nil
	case reflect.Uint8:
		return func(_ binary.ByteOrder, b []byte) float64 { return float64(b[0]) }, 1, order, nil
	case reflect.Int16:
		return func(o binary.ByteOrder, b []byte) float64 { return float64(int16(o.Uint16(b))) }, 2, order, nil
	case reflect.Uint16:
		return func(o binary.ByteOrder, b []byte) float64 { return float64(o.Uint16(b)) }, 2, order, nil
	case reflect.Int32:
		return func(o binary.ByteOrder, b []byte) float64 { return float64(int32(o.Uint32(b))) }, 4, order, nil
	case reflect.Uint32:
		return func(o binary.ByteOrder, b []byte) float64 { return float64(o.Uint32(b)) }, 4, order, nil
	case reflect.Int64:
		return func(o binary.ByteOrder, b []byte) float64 { return float64(int64(o.Uint64(b))) }, 8, order, nil
	case reflect.Uint64:
		return func(o binary.ByteOrder, b []byte) float64 { return float64(o.Uint64(b)) }, 8, order, nil
	case reflect.Float32:
		return func(o binary.ByteOrder, b []byte) float64 {
			return float64(math.Float32frombits(o.Uint32(b)))
		}, 4, order, nil
	case reflect.Float64:
		return func(o binary.ByteOrder, b []byte) float64 { return math.Float64frombits(o.Uint64(b)) }, 8, order, nil
	}
	return nil, 0, nil, unsupported
}

// fromFortran reorders column-major data of the given shape into row-major
// order.
func fromFortran(src []float64, shape []int) []float64 {
	if len(shape) < 2 || len(src) == 0 {
		return src
	}
	// Column-major strides.
	stride := make([]int, len(shape))
	s := 1
	for k, d := range shape {
		stride[k] = s
		s *= d
	}
	dst := make([]float64, len(src))
	idx := make([]int, len(shape))
	off := 0 // column-major offset of idx
	for i := range dst {
		dst[i] = src[off]
		// Advance idx in row-major order (last axis fastest).
		for k := len(shape) - 1; k >= 0; k-- {
			idx[k]++
			off += stride[k]
			if idx[k] < shape[k] {
				break
			}
			off -= idx[k] * stride[k]
			idx[k] = 0
		}
	}
	return dst
}

// Write writes arrays to a new .npz archive at path (replacing any file
// there) as numpy.savez_compressed does: one deflated "<key>.npy" member
// per array, dtype '<f8', C order. Members are written in sorted key order
// with zero timestamps, so the same arrays give the same bytes. Nothing is
// written if an array is invalid.
func Write(path string, arrays map[string]Array) error {
	where := fmt.Sprintf("npz: write %q", path)
	if err := validateAll(where, arrays); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("npz: %w", err)
	}
	err = write(where, f, arrays)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%s: %w", where, cerr)
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// WriteTo writes arrays to w as a .npz archive; see Write.
func WriteTo(w io.Writer, arrays map[string]Array) error {
	const where = "npz: write"
	if err := validateAll(where, arrays); err != nil {
		return err
	}
	return write(where, w, arrays)
}

func validateAll(where string, arrays map[string]Array) error {
	for _, key := range sortedKeys(arrays) {
		if key == "" {
			return fmt.Errorf("%s: empty key", where)
		}
		if err := arrays[key].validate(); err != nil {
			return fmt.Errorf("%s: key %q: %w", where, key, err)
		}
	}
	return nil
}

func sortedKeys(arrays map[string]Array) []string {
	keys := make([]string, 0, len(arrays))
	for k := range arrays {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func write(where string, w io.Writer, arrays map[string]Array) error {
	zw := zip.NewWriter(w)
	for _, key := range sortedKeys(arrays) {
		fh := &zip.FileHeader{Name: key + ".npy", Method: zip.Deflate}
		fh.SetMode(0o644)
		mw, err := zw.CreateHeader(fh)
		if err != nil {
			return fmt.Errorf("%s: key %q: %w", where, key, err)
		}
		if err := writeNpy(mw, arrays[key]); err != nil {
			return fmt.Errorf("%s: key %q: %w", where, key, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}

// writeNpy writes a in the .npy format 1.0 with exactly the header bytes
// numpy.lib.format.write_array produces for a C-ordered float64 array:
// sorted dictionary, spare room for the first axis to grow to 21 digits,
// space padding and '\n' to a multiple of 64 bytes.
func writeNpy(w io.Writer, a Array) error {
	var dict strings.Builder
	dict.WriteString("{'descr': '<f8', 'fortran_order': False, 'shape': ")
	dict.WriteString(shapeRepr(a.Shape))
	dict.WriteString(", }")
	if len(a.Shape) > 0 {
		const growthAxisMaxDigits = 21 // numpy.lib.format.GROWTH_AXIS_MAX_DIGITS
		dict.WriteString(strings.Repeat(" ", growthAxisMaxDigits-len(strconv.Itoa(a.Shape[0]))))
	}
	const align, prefix = 64, 10 // magic (6) + version (2) + uint16 length (2)
	hlen := dict.Len() + 1       // + '\n'
	pad := align - (prefix+hlen)%align
	hlen += pad
	if hlen > math.MaxUint16 {
		return fmt.Errorf("shape %v: header too long", a.Shape)
	}
	bw := bufio.NewWriterSize(w, chunkBytes)
	bw.Write(npy.Magic[:])
	bw.Write([]byte{1, 0, byte(hlen), byte(hlen >> 8)})
	bw.WriteString(dict.String())
	bw.WriteString(strings.Repeat(" ", pad))
	bw.WriteByte('\n')
	var b [8]byte
	for _, v := range a.Data {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		bw.Write(b[:])
	}
	return bw.Flush()
}

// shapeRepr formats shape as Python's repr of a tuple: (), (3,), (2, 3).
func shapeRepr(shape []int) string {
	switch len(shape) {
	case 0:
		return "()"
	case 1:
		return "(" + strconv.Itoa(shape[0]) + ",)"
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
