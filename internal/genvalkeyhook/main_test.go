package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestUpToDate fails when clustercheck/valkeyhook differs from what
// genvalkeyhook writes from clustercheck/rueidishook.
func TestUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	gen, err := generateAll(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		have, err := os.ReadFile(filepath.Join(root, dstDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, gen[name]) {
			t.Errorf("%s/%s is out of date: run go run ./internal/genvalkeyhook from the repository root", dstDir, name)
		}
	}
}
