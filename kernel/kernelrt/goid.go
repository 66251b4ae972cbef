package kernelrt

import (
	"runtime"
	"strconv"
	"strings"
)

// goid returns the current goroutine's id, read from the first line of its
// stack trace ("goroutine 12 [running]:"). It is called once per Exit and
// once per cell, never in a hot path.
func goid() int64 {
	var buf [64]byte
	s := string(buf[:runtime.Stack(buf[:], false)])
	s = strings.TrimPrefix(s, "goroutine ")
	if i := strings.IndexByte(s, ' '); i > 0 {
		id, err := strconv.ParseInt(s[:i], 10, 64)
		if err == nil {
			return id
		}
	}
	return -1
}
