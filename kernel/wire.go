package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"sync"
	"time"
)

// protocolVersion is the Jupyter messaging protocol version this kernel
// speaks (https://jupyter-client.readthedocs.io/en/stable/messaging.html).
const protocolVersion = "5.4"

// delimiter separates routing identities from the signed message frames.
var delimiter = []byte("<IDS|MSG>")

// maxMessageBytes bounds one incoming message (all frames together). Larger
// messages are refused with a log line.
const maxMessageBytes = 100 << 20

// Header is a message header. Fields are kept in the wire order of the spec.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one Jupyter message. ParentHeader, Metadata and Content are kept
// as raw JSON on the way in so that the parent header is echoed verbatim.
type Message struct {
	Identities   [][]byte
	Header       Header
	RawHeader    json.RawMessage
	ParentHeader json.RawMessage
	Metadata     json.RawMessage
	Content      json.RawMessage
	Buffers      [][]byte
}

// signer computes HMAC-SHA256 signatures with the connection key. An empty
// key disables signing (allowed by the spec, used by some test harnesses).
type signer struct {
	mu  sync.Mutex
	mac hash.Hash
}

func newSigner(scheme, key string) (*signer, error) {
	if key == "" {
		return &signer{}, nil
	}
	if scheme != "" && scheme != "hmac-sha256" {
		return nil, fmt.Errorf("signature_scheme %q is not supported (only hmac-sha256)", scheme)
	}
	return &signer{mac: hmac.New(sha256.New, []byte(key))}, nil
}

func (s *signer) sign(frames ...[]byte) []byte {
	if s.mac == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mac.Reset()
	for _, f := range frames {
		s.mac.Write(f)
	}
	sum := s.mac.Sum(nil)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// verify checks sig against the frames in constant time.
func (s *signer) verify(sig []byte, frames ...[]byte) bool {
	if s.mac == nil {
		return true
	}
	want := s.sign(frames...)
	return hmac.Equal(want, sig)
}

var (
	errNoDelimiter = errors.New("no <IDS|MSG> delimiter")
	errTooFew      = errors.New("fewer than 5 frames after the delimiter")
	errSignature   = errors.New("missing or invalid signature")
	errTooLarge    = fmt.Errorf("message larger than %d bytes", maxMessageBytes)
)

// decode parses and authenticates the frames of one message.
func decode(frames [][]byte, s *signer) (*Message, error) {
	total := 0
	for _, f := range frames {
		total += len(f)
	}
	if total > maxMessageBytes {
		return nil, errTooLarge
	}
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], delimiter) {
		i++
	}
	if i == len(frames) {
		return nil, errNoDelimiter
	}
	rest := frames[i+1:]
	if len(rest) < 5 {
		return nil, errTooFew
	}
	if !s.verify(rest[0], rest[1], rest[2], rest[3], rest[4]) {
		return nil, errSignature
	}
	m := &Message{Identities: frames[:i]}
	if err := json.Unmarshal(rest[1], &m.Header); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if m.Header.MsgType == "" {
		return nil, errors.New("header: msg_type is empty")
	}
	m.RawHeader = json.RawMessage(rest[1])
	for _, p := range []struct {
		dst  *json.RawMessage
		src  []byte
		name string
	}{{&m.ParentHeader, rest[2], "parent_header"}, {&m.Metadata, rest[3], "metadata"}, {&m.Content, rest[4], "content"}} {
		if !json.Valid(p.src) {
			return nil, fmt.Errorf("%s: invalid JSON", p.name)
		}
		*p.dst = json.RawMessage(p.src)
	}
	if len(rest) > 5 {
		m.Buffers = rest[5:]
	}
	return m, nil
}

// newID returns a random message id.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// outMsg is a message the kernel sends.
type outMsg struct {
	identities [][]byte
	header     Header
	parent     json.RawMessage // verbatim parent header, or {}
	metadata   any
	content    any
}

// encode serialises and signs an outgoing message.
func (o *outMsg) encode(s *signer) ([][]byte, error) {
	h, err := json.Marshal(o.header)
	if err != nil {
		return nil, err
	}
	parent := o.parent
	if len(parent) == 0 {
		parent = json.RawMessage("{}")
	}
	md := o.metadata
	if md == nil {
		md = map[string]any{}
	}
	mdb, err := json.Marshal(md)
	if err != nil {
		return nil, err
	}
	cb, err := json.Marshal(o.content)
	if err != nil {
		return nil, fmt.Errorf("content of %s: %w", o.header.MsgType, err)
	}
	frames := make([][]byte, 0, len(o.identities)+6)
	frames = append(frames, o.identities...)
	frames = append(frames, delimiter, s.sign(h, parent, mdb, cb), h, parent, mdb, cb)
	if frames[len(o.identities)+1] == nil {
		frames[len(o.identities)+1] = []byte{}
	}
	return frames, nil
}

func timestamp() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000000Z") }
