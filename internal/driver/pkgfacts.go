package driver

import (
	"bytes"
	"encoding/gob"

	"golang.org/x/tools/go/analysis"
)

// A PackageFact is a package fact that a package of a run exported.
type PackageFact struct {
	ID, PkgPath string
	// Module is the path of the package's module, "" outside one.
	Module string
	// Root is true for a package that the patterns matched.
	Root bool
	Fact analysis.Fact
}

// RootModules returns the paths of the modules of the root packages.
func (r *Result) RootModules() []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range r.run.order {
		if n.root && n.lp.Module != nil && !seen[n.lp.Module.Path] {
			seen[n.lp.Module.Path] = true
			out = append(out, n.lp.Module.Path)
		}
	}
	return out
}

// PackageFacts returns the package facts that analyzer a exported for the
// packages of the run, roots and dependencies, in dependency order, from
// the cache or from this run's analysis. keep, when not nil, is asked
// first about each package (Fact nil): the facts of a package it turns
// down are not read. It is how a driver's user reads what an analyzer
// computes for a whole program, as "slotlint keys" reads each package's
// part of the keyspace map. Packages that failed have none.
func (r *Result) PackageFacts(a *analysis.Analyzer, keep func(PackageFact) bool) []PackageFact {
	d := r.run
	register(d.analyzers)
	var out []PackageFact
	for _, n := range d.order {
		if n.fail != "" || n.lp.ImportPath == "unsafe" {
			continue
		}
		pf := PackageFact{ID: n.lp.ImportPath, PkgPath: n.lp.pkgPath, Root: n.root}
		if n.lp.Module != nil {
			pf.Module = n.lp.Module.Path
		}
		if keep != nil && !keep(pf) {
			continue
		}
		e := d.entryOf(n)
		if e == nil || len(e.Facts) == 0 {
			continue
		}
		var list []gobFact
		if err := gob.NewDecoder(bytes.NewReader(e.Facts)).Decode(&list); err != nil {
			continue
		}
		for _, gf := range list {
			if gf.Analyzer != a.Name || gf.Object != "" || gf.Fact == nil {
				continue
			}
			pf.Fact = gf.Fact
			out = append(out, pf)
		}
	}
	return out
}
