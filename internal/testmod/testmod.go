// Package testmod fetches the modules that a test module of this
// repository requires (analyzer/testdata, keymap/testdata), so that the
// tests that load it with the network off find them in the module cache.
//
// analysistest loads a testdata directory that has a go.mod in module
// mode with GOPROXY=off, and the vet and driver tests do the same on
// purpose: on a new machine, whose module cache holds only what the
// repository's own go.mod needs, every package of the test module would
// fail to import its client. Require runs "go mod download" there first,
// once per directory and test binary, through the user's own proxy
// settings.
package testmod

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

var downloads sync.Map // dir -> *download

type download struct {
	once sync.Once
	err  error
	out  []byte
}

// Require fetches what the module in dir requires, or fails the test with
// the go command's output.
func Require(t testing.TB, dir string) {
	t.Helper()
	v, _ := downloads.LoadOrStore(dir, &download{})
	d := v.(*download)
	d.once.Do(func() {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		d.out, d.err = cmd.CombinedOutput()
	})
	if d.err != nil {
		t.Fatalf("go mod download in %s (the test module's requirements, which the test loads with the network off): %v\n%s\nrun it by hand where the module proxy can be reached, or fill the module cache another way",
			dir, d.err, strings.TrimSpace(string(d.out)))
	}
}
