package keymap

import (
	"fmt"
	"slices"

	"github.com/slotlint/slotlint/internal/driver"
	"github.com/slotlint/slotlint/keyflow/flowpass"
)

// A Config says which packages to map, and how.
type Config struct {
	// Dir is the directory to run the go command in; "" is the current one.
	Dir string
	// Tests maps the packages' tests too.
	Tests bool
	// CacheDir holds the driver's cache of each package's part; "" runs
	// without one.
	CacheDir string
}

// Load maps the packages that patterns match. It runs the Analyzer over
// them and their dependencies with slotlint's driver, one package at a
// time from export data, as the standalone linter does, and joins the
// parts of the packages of the patterns' modules (the program's own code,
// not the libraries it imports). Failures are the packages that did not
// load, type-check or analyse, one line each; the map holds the others.
func Load(cfg Config, patterns ...string) (*Map, []string, error) {
	rules, err := flowpass.Rules()
	if err != nil {
		return nil, nil, err
	}
	data, err := flowpass.RulesFile()
	if err != nil {
		return nil, nil, err
	}
	salt := fmt.Appendf([]byte("keymap\x00"), "rules %d\n%s", len(data), data)
	res, err := driver.Run(&driver.Config{Analyzer: Analyzer, Dir: cfg.Dir, Tests: cfg.Tests, CacheDir: cfg.CacheDir, Salt: salt}, patterns...)
	if err != nil {
		return nil, nil, err
	}
	failures := slices.Clone(res.Failures)
	for _, p := range res.Packages {
		if p.Err != nil {
			line := p.ID + ": " + p.Err.Error()
			if !slices.Contains(failures, line) {
				failures = append(failures, line)
			}
		}
	}
	modules := map[string]bool{}
	for _, m := range res.RootModules() {
		modules[m] = true
	}
	mine := func(f driver.PackageFact) bool { return f.Root || f.Module != "" && modules[f.Module] }
	var parts []*Part
	for _, f := range res.PackageFacts(Analyzer, mine) {
		if p, ok := f.Fact.(*Part); ok {
			parts = append(parts, p)
		}
	}
	return Build(parts, rules), failures, nil
}
