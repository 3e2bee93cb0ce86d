package keymap_test

import (
	"path/filepath"
	"testing"

	"github.com/slotlint/slotlint/internal/flowtest"
	"github.com/slotlint/slotlint/internal/testmod"
	"github.com/slotlint/slotlint/keymap"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestFacts checks the Analyzer's facts on a module of its own under
// testdata, which requires the real go-redis: kmkeys builds keys (the
// key-flow engine's facts), kmapp uses them with go-redis (its part of the
// map, a package fact, names the families kmkeys builds).
func TestFacts(t *testing.T) {
	if testing.Short() {
		t.Skip("loads go-redis")
	}
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	testmod.Require(t, dir)
	analysistest.Run(t, dir, flowtest.Hosted(keymap.Analyzer), "./kmkeys", "./kmapp")
}
