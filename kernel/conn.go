package kernel

import (
	"encoding/json"
	"fmt"
	"os"
)

// ConnectionInfo is the content of a Jupyter connection file.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name"`
}

// ReadConnectionFile loads and validates a connection file.
func ReadConnectionFile(path string) (*ConnectionInfo, error) {
	if path == "" {
		return nil, fmt.Errorf("no connection file given (use --connection-file FILE)")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("connection file: %w", err)
	}
	var c ConnectionInfo
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("connection file %s: invalid JSON: %v", path, err)
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("connection file %s: %w", path, err)
	}
	return &c, nil
}

func (c *ConnectionInfo) validate() error {
	if c.Transport == "" {
		c.Transport = "tcp"
	}
	if c.Transport != "tcp" && c.Transport != "ipc" {
		return fmt.Errorf("transport %q is not supported (tcp or ipc)", c.Transport)
	}
	if c.IP == "" {
		return fmt.Errorf("ip is empty")
	}
	for _, p := range []struct {
		name string
		v    int
	}{{"shell_port", c.ShellPort}, {"control_port", c.ControlPort}, {"stdin_port", c.StdinPort}, {"iopub_port", c.IOPubPort}, {"hb_port", c.HBPort}} {
		if p.v <= 0 || p.v > 65535 {
			return fmt.Errorf("%s = %d: must be in 1..65535", p.name, p.v)
		}
	}
	if c.SignatureScheme != "" && c.SignatureScheme != "hmac-sha256" {
		return fmt.Errorf("signature_scheme %q is not supported (hmac-sha256)", c.SignatureScheme)
	}
	return nil
}

func (c *ConnectionInfo) endpoint(port int) string {
	if c.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", c.IP, port)
	}
	return fmt.Sprintf("tcp://%s:%d", c.IP, port)
}
