package redistest

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
)

var shared struct {
	mu      sync.Mutex
	started bool
	c       *Cluster
	dir     string
	err     error
}

// Shared returns a cluster shared by every test of the test binary, started
// by the first call. Tests that use it should leave it as they found it:
// they may read and write keys (with names of their own, or FlushAll), but
// should start their own cluster to stop nodes or move slots. Shared starts
// again any node that a test left stopped, and waits for the cluster to be
// healthy, before returning it.
//
// The cluster is stopped and its directory removed by Main, which the
// package's TestMain should call. Without Main, its processes still die with
// the test binary (on Linux), but its directory, named
// slotlint-redistest-*, is left in the system's temporary directory.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	path := Require(t)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.started {
		shared.started = true
		shared.err = startShared(path)
	}
	if shared.err != nil {
		t.Fatalf("shared cluster: %v", shared.err)
	}
	c := shared.c
	for _, n := range c.all() {
		if err := n.Start(); err != nil {
			t.Fatalf("shared cluster: %v", err)
		}
	}
	if err := c.WaitHealthy(); err != nil {
		t.Fatalf("shared cluster: %v", err)
	}
	return c
}

func startShared(path string) error {
	dir, err := os.MkdirTemp("", "slotlint-redistest-")
	if err != nil {
		return err
	}
	c := &Cluster{}
	if err := c.start(path, dir, config{}); err != nil {
		return errors.Join(err, c.stop(), removeAll(dir))
	}
	shared.c, shared.dir = c, dir
	return nil
}

// Main runs the tests of a test binary that uses Shared and then stops the
// shared cluster:
//
//	func TestMain(m *testing.M) { redistest.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	if err := closeShared(); err != nil {
		fmt.Fprintln(os.Stderr, "redistest:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

func closeShared() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.c == nil {
		return nil
	}
	err := errors.Join(shared.c.stop(), removeAll(shared.dir))
	shared.c, shared.dir, shared.started, shared.err = nil, "", false, nil
	return err
}
