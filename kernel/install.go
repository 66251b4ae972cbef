package kernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Kernelspec is the kernel.json written by Install.
type Kernelspec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata"`
}

// KernelspecDir returns the kernels directory for an install location:
// "user" (Jupyter's user data directory), "sys-prefix" (the current Python's
// sys.prefix) or a prefix directory.
func KernelspecDir(where, prefix string) (string, error) {
	switch where {
	case "user", "":
		if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
			return filepath.Join(d, "kernels"), nil
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("user install: %w", err)
		}
		if xdg := os.Getenv("XDG_DATA_HOME"); xdg != "" {
			return filepath.Join(xdg, "jupyter", "kernels"), nil
		}
		return filepath.Join(home, ".local", "share", "jupyter", "kernels"), nil
	case "sys-prefix":
		out, err := exec.Command("python3", "-c", "import sys; print(sys.prefix)").Output()
		if err != nil {
			return "", fmt.Errorf("--sys-prefix needs python3 on PATH: %w", err)
		}
		return filepath.Join(strings.TrimSpace(string(out)), "share", "jupyter", "kernels"), nil
	case "prefix":
		if prefix == "" {
			return "", fmt.Errorf("--prefix needs a directory")
		}
		abs, err := filepath.Abs(prefix)
		if err != nil {
			return "", err
		}
		return filepath.Join(abs, "share", "jupyter", "kernels"), nil
	}
	return "", fmt.Errorf("unknown install location %q", where)
}

// Install writes the "neurogo" kernelspec into kernelsDir and returns the
// spec's directory. binary is the absolute path of the neurogo executable.
func Install(kernelsDir, binary string, extraArgs []string) (string, error) {
	abs, err := filepath.Abs(binary)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(kernelsDir, "neurogo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	argv := append([]string{abs, "kernel"}, extraArgs...)
	argv = append(argv, "--connection-file", "{connection_file}")
	spec := Kernelspec{
		Argv:          argv,
		DisplayName:   "Go (neurogo)",
		Language:      "go",
		InterruptMode: "message",
		Metadata:      map[string]any{"debugger": false},
	}
	if root := moduleRoot(); root != "" {
		spec.Env = map[string]string{"NEUROGO_ROOT": root}
	}
	b, _ := json.MarshalIndent(spec, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), append(b, '\n'), 0o644); err != nil {
		return "", err
	}
	for _, size := range []int{32, 64} {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("logo-%dx%d.png", size, size)), logoPNG(size), 0o644); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "logo-svg.svg"), []byte(logoSVG), 0o644); err != nil {
		return "", err
	}
	return dir, nil
}

// logoSVG is neurogo's logo: a spike raster on Go's blue.
const logoSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
<rect width="64" height="64" rx="12" fill="#00ADD8"/>
<g stroke="#fff" stroke-width="4" stroke-linecap="round">
<line x1="14" y1="16" x2="14" y2="48"/><line x1="26" y1="24" x2="26" y2="48"/>
<line x1="38" y1="12" x2="38" y2="48"/><line x1="50" y1="30" x2="50" y2="48"/>
</g></svg>
`

func logoPNG(size int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	blue := color.NRGBA{0x00, 0xAD, 0xD8, 0xff}
	white := color.NRGBA{0xff, 0xff, 0xff, 0xff}
	s := float64(size) / 64
	bars := [][3]float64{{14, 16, 48}, {26, 24, 48}, {38, 12, 48}, {50, 30, 48}}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			c := blue
			fx, fy := float64(x)/s, float64(y)/s
			for _, b := range bars {
				if fx >= b[0]-2 && fx <= b[0]+2 && fy >= b[1] && fy <= b[2] {
					c = white
				}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}
