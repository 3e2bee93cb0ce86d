package keymap

import (
	"fmt"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// A Config says which packages to map.
type Config struct {
	// Dir is the directory to run the go command in; "" is the current one.
	Dir string
	// Tests maps the packages' tests too.
	Tests bool
}

// Load maps the packages that patterns match: it runs the Analyzer over
// them and their dependencies with x/tools' checker and joins the parts
// of the packages of the patterns' modules (the program's own code,
// not the libraries it imports). Failures are the packages that did not
// load, type-check or analyse, one line each; the map holds the others.
func Load(cfg Config, patterns ...string) (*Map, []string, error) {
	rules, err := Rules()
	if err != nil {
		return nil, nil, err
	}
	pcfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: cfg.Dir, Tests: cfg.Tests}
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, nil, err
	}
	if len(pkgs) == 0 {
		return nil, nil, fmt.Errorf("%v matched no packages", patterns)
	}
	var failures []string
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if line := e.Error(); !seen[line] {
				seen[line] = true
				failures = append(failures, line)
			}
		}
	})
	modules := map[string]bool{}
	roots := map[*packages.Package]bool{}
	for _, p := range pkgs {
		roots[p] = true
		if p.Module != nil {
			modules[p.Module.Path] = true
		}
	}
	g, err := checker.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
	if err != nil {
		return nil, nil, err
	}
	var parts []*Part
	for act := range g.All() {
		if act.Analyzer != Analyzer {
			continue
		}
		mine := roots[act.Package] || act.Package.Module != nil && modules[act.Package.Module.Path]
		if !mine {
			continue
		}
		if act.Err != nil {
			if line := act.Package.ID + ": " + act.Err.Error(); !seen[line] {
				seen[line] = true
				failures = append(failures, line)
			}
			continue
		}
		if p, ok := act.Result.(*Part); ok && p != nil {
			parts = append(parts, p)
		}
	}
	sort.Strings(failures)
	return Build(parts, rules), failures, nil
}
