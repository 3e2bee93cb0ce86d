package keyspace

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoHeavyDeps keeps the key model light: code that builds keys with
// templates must not pull in a YAML parser, go/analysis or a Redis client.
func TestNoHeavyDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"yaml", "golang.org/x/tools", "redis"} {
			if strings.Contains(dep, bad) {
				t.Errorf("keyspace depends on %s", dep)
			}
		}
	}
}
