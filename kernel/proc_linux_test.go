package kernel

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCgroupLimit(t *testing.T) {
	cases := []struct {
		name   string
		cgroup string
		files  map[string]string // path under the root → content
		want   int64
	}{
		{"v2 limited", "0::/user.slice/app\n", map[string]string{"sys/fs/cgroup/user.slice/app/memory.max": "1073741824\n"}, 1 << 30},
		{"v2 unlimited", "0::/\n", map[string]string{"sys/fs/cgroup/memory.max": "max\n"}, 0},
		{"v2 limit on a parent", "0::/a/b\n", map[string]string{"sys/fs/cgroup/a/b/memory.max": "max\n", "sys/fs/cgroup/a/memory.max": "2147483648\n"}, 2 << 30},
		{"v2 container root", "0::/\n", map[string]string{"sys/fs/cgroup/memory.max": "536870912\n"}, 512 << 20},
		{"v1 limited", "4:memory:/docker/x\n0::/\n", map[string]string{"sys/fs/cgroup/memory/docker/x/memory.limit_in_bytes": "3221225472\n"}, 3 << 30},
		{"v1 unlimited", "4:memory:/\n", map[string]string{"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"}, 0},
		{"v1 path not visible, root seen", "4:cpu,memory:/process_api/abc\n", map[string]string{"sys/fs/cgroup/memory/memory.limit_in_bytes": "4294967296\n"}, 4 << 30},
		{"none", "", nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(rel, content string) {
				p := filepath.Join(root, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("proc/self/cgroup", c.cgroup)
			for rel, content := range c.files {
				write(rel, content)
			}
			if got := cgroupLimit(root); got != c.want {
				t.Errorf("cgroupLimit = %d, want %d", got, c.want)
			}
		})
	}
}

func TestDefaultMemoryLimit(t *testing.T) {
	avail := memoryAvailable()
	if avail <= 0 {
		t.Fatal("no memory size found (cgroup or /proc/meminfo)")
	}
	if got := DefaultMemoryLimit(); got != avail/4*3 {
		t.Errorf("DefaultMemoryLimit = %d, want 75%% of %d", got, avail)
	}
	if rss, ok := residentBytes(os.Getpid()); !ok || rss <= 0 {
		t.Errorf("residentBytes of this process: %d %v", rss, ok)
	}
}
