package analyzer

import (
	"fmt"
	"go/ast"
	"slices"

	"github.com/slotlint/slotlint/keyflow"
	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/luacheck"
	"golang.org/x/tools/go/analysis"
)

// The script family glues the key-flow model to package luacheck: each
// script or function run whose source is known is checked with what the
// model knows of its KEYS and ARGV (undeclared-key,
// undeclared-key-same-slot, script-arity, script-flags, lua-syntax); a
// script made with no call in sight is checked for its syntax and flags; a
// function library where it is loaded.
// Findings about the slots of KEYS are the cross-slot family's, which knows
// where each key was built.

// luaState holds the parsed scripts and libraries of one pass.
type luaState struct {
	parsed    map[string]*luacheck.Script
	libParsed map[string]*luacheck.Library
	// reported dedupes findings about one script reported at several calls;
	// texts holds each finding's script and message, wherever reported.
	reported map[string]bool
	texts    map[string]bool
	// exported holds the sources of the scripts the package exports in
	// facts; nil until exportedScript reads them.
	exported map[string]bool
	// ran holds the sources of the scripts checked at a run of the package.
	ran map[string]bool
	// unrun are the undeclared keys of scripts made with no run in sight,
	// reported where they are made unless the package runs them (flush).
	unrun []unrunFinding
}

// An unrunFinding is a finding of luacheck about a script's text, at the
// call that makes the script.
type unrunFinding struct {
	call *ast.CallExpr
	ref  keyflow.ScriptRef
	f    luacheck.Finding
}

// scripts returns the findings of luacheck on the script, function or
// library of one call.
func (c *checker) scripts(site *keyflow.Site) []diag {
	var out []diag
	switch {
	case site.ScriptAtCallers:
		// Its KEYS and ARGV are the function's parameters: checked at each
		// caller, with the caller's values.
	case site.Script != nil && site.Script.Function != "":
		out = c.checkFunction(site.Call, site.Script)
	case site.Script != nil:
		run := site.Script
		c.lua.ran[run.Ref.Src] = true
		out = c.checkLua(site.Call, c.parse(run.Ref), run.Ref, "script", run, nil)
		for _, ref := range run.Alts {
			c.lua.ran[ref.Src] = true
			out = append(out, c.checkLua(site.Call, c.parse(ref), ref, "script", run, nil)...)
		}
	case site.ScriptDef != nil:
		// A script with no call in sight is still checked for what does not
		// depend on a call: its syntax, its flags; and the keys it touches
		// that are not in KEYS, whatever KEYS holds, unless a run checks
		// them with what it passes (flushUnrun).
		only := map[string]bool{luacheck.CategorySyntax: true, luacheck.CategoryFlags: true}
		run := &keyflow.ScriptRun{Ref: *site.ScriptDef, KeysOpen: true, ArgsOpen: true}
		out = c.checkLua(site.Call, c.parse(run.Ref), run.Ref, "script", run, only)
		if !c.exportedScript(run.Ref.Src) {
			// An exported script is checked where other packages run it.
			for _, f := range c.parse(run.Ref).Check(luacheck.CommandsFrom(c.rules), luacheck.Call{}) {
				if f.Category == luacheck.CategoryUndeclaredKey {
					c.lua.unrun = append(c.lua.unrun, unrunFinding{site.Call, run.Ref, f})
				}
			}
		}
	case site.Library != nil:
		out = c.checkLibraryLoad(site.Call, *site.Library)
	}
	return out
}

// flushUnrun returns the undeclared keys of the scripts the package makes
// and never runs where slotlint sees the run (albrow/jobs queues each
// script with its arguments in a struct and sends them all in a loop),
// at the call that makes each script.
func (c *checker) flushUnrun() []diag {
	var out []diag
	for _, u := range c.lua.unrun {
		if c.lua.ran[u.ref.Src] || c.lua.texts[u.ref.Src+"\x00"+u.f.Message] {
			// Run where slotlint sees it, or the same finding reported
			// at a run that reaches the script another way (EVALSHA of
			// its digest).
			continue
		}
		if d, ok := c.once(u.call, u.ref, "script", u.f); ok {
			out = append(out, d)
		}
	}
	return out
}

// exportedScript reports whether the package hands the script to other
// packages in a fact.
func (c *checker) exportedScript(src string) bool {
	if c.lua.exported == nil {
		c.lua.exported = map[string]bool{}
		for _, of := range c.pass.AllObjectFacts() {
			if of.Object.Pkg() != c.pass.Pkg {
				continue
			}
			switch f := of.Fact.(type) {
			case *keyflow.KeyScript:
				c.lua.exported[f.Src] = true
			case *keyflow.KeyScriptFunc:
				for _, sc := range f.Scripts {
					c.lua.exported[sc.Src] = true
				}
			case *keyflow.KeyScriptFS:
				for _, sc := range f.Files {
					c.lua.exported[sc.Src] = true
				}
			}
		}
	}
	return c.lua.exported[src]
}

// parse parses a script once per package.
func (c *checker) parse(ref keyflow.ScriptRef) *luacheck.Script {
	key := ref.Name + "\x00" + ref.Src
	if s := c.lua.parsed[key]; s != nil {
		return s
	}
	s, _ := luacheck.Parse(ref.Name, ref.Src) // a syntax error is reported by Check
	c.lua.parsed[key] = s
	return s
}

// parseLibrary parses a library once per package.
func (c *checker) parseLibrary(ref keyflow.ScriptRef) *luacheck.Library {
	key := ref.Name + "\x00" + ref.Src
	if l := c.lua.libParsed[key]; l != nil {
		return l
	}
	l, _ := luacheck.ParseLibrary(ref.Name, ref.Src) // its problems are reported where it is loaded
	c.lua.libParsed[key] = l
	return l
}

// checkLua reports what luacheck finds in a script or a function of a
// library (what names it in messages) for one run, through once.
func (c *checker) checkLua(call *ast.CallExpr, script *luacheck.Script, ref keyflow.ScriptRef, what string, run *keyflow.ScriptRun, only map[string]bool) []diag {
	var out []diag
	for _, f := range script.Check(luacheck.CommandsFrom(c.rules), luaCall(run)) {
		if f.Category == luacheck.CategoryCrossSlot || f.Category == luacheck.CategoryMaybeCrossSlot || only != nil && !only[f.Category] {
			continue
		}
		if d, ok := c.once(call, ref, what, f); ok {
			out = append(out, d)
		}
	}
	return out
}

// luaCall is what luacheck is told of a run.
func luaCall(run *keyflow.ScriptRun) luacheck.Call {
	lc := luacheck.Call{
		KnownKeyCount: !run.KeysOpen,
		KnownArgCount: !run.ArgsOpen,
		Cluster:       run.Cluster,
		ReadOnly:      run.ReadOnly,
	}
	for _, g := range run.Keys {
		lc.Keys = append(lc.Keys, oneKey(g, true))
	}
	for _, g := range run.Args {
		lc.Args = append(lc.Args, oneKey(g, false))
	}
	return lc
}

// valuesInKeys returns the indexes in site.Keys of the values a script
// run passes in KEYS, which each script it may run reports (script-arity,
// luacheck.Script.ValuesInKeys): the site's keys are judged without them.
func (c *checker) valuesInKeys(site *keyflow.Site) []int {
	run := site.Script
	if run == nil || run.Function != "" || run.KeysOpen || len(run.Keys) != len(site.Keys) {
		return nil
	}
	lc := luaCall(run)
	var values []int
	for i, ref := range append([]keyflow.ScriptRef{run.Ref}, run.Alts...) {
		v := c.parse(ref).ValuesInKeys(luacheck.CommandsFrom(c.rules), lc)
		if i > 0 {
			v = slices.DeleteFunc(values, func(j int) bool { return !slices.Contains(v, j) })
		}
		if values = v; len(values) == 0 {
			return nil
		}
	}
	return values
}

// once is a finding about a script or library at a call, unless it was
// reported at another call already. A finding about the script's text
// alone (its syntax, its flags) is reported once, where the script is
// first met. One that fails a run (a key the script touches undeclared,
// compared with that run's KEYS; the KEYS and ARGV it passes) is reported
// at each run that makes it: each is a command that fails on a cluster.
func (c *checker) once(call *ast.CallExpr, ref keyflow.ScriptRef, what string, f luacheck.Finding) (diag, bool) {
	key := ref.Src + "\x00" + f.Message
	c.lua.texts[key] = true
	if f.Category != luacheck.CategorySyntax && f.Category != luacheck.CategoryFlags {
		key += "\x00" + c.pass.Fset.Position(call.Pos()).String()
	}
	if c.lua.reported[key] {
		return diag{}, false
	}
	c.lua.reported[key] = true
	d := diag{pos: call.Pos(), end: call.End(), category: f.Category, message: f.Message}
	if ref.Pos.IsValid() && (ref.Pos < call.Pos() || ref.Pos >= call.End()) {
		d.related = []analysis.RelatedInformation{{Pos: ref.Pos, Message: fmt.Sprintf("%s %s is defined here", what, ref.Name)}}
	}
	return d, true
}

// oneKey returns the key that stands for an element of KEYS (keys true)
// or ARGV whose Go value may be one of several: the value when there is
// one, or the first when all share one slot; for KEYS, leaving out the
// empty string, which callers pass for a key they do not use (scripts test
// for it before they touch the key).
// Else it is a key of unknown text and slot, rather than one of the values
// picked at random: a script's key compared with it may be in another slot,
// never provably so.
func oneKey(g keyflow.Group, keys bool) keyspace.Key {
	if len(g) == 0 {
		return keyspace.Unknown("", "?", false)
	}
	if keys {
		g = g.WithoutPlaceholders()
	}
	if len(g) == 1 {
		return g[0].Key
	}
	alts := make([]keyspace.Key, len(g))
	for i, v := range g {
		alts[i] = v.Key
	}
	if keyspace.Colocate(alts...).Verdict == keyspace.Same {
		return alts[0]
	}
	return keyspace.Unknown("", fmt.Sprintf("one of %d values", len(alts)), false)
}

// checkLibraryLoad reports, where a library is loaded, what makes Redis 7
// refuse it: a syntax error, a missing "#!lua name=" line, a bad
// registration.
func (c *checker) checkLibraryLoad(call *ast.CallExpr, ref keyflow.ScriptRef) []diag {
	var out []diag
	for _, f := range c.parseLibrary(ref).Problems() {
		if d, ok := c.once(call, ref, "library", f); ok {
			out = append(out, d)
		}
	}
	return out
}

// checkFunction runs the Lua checks of the function an FCALL names, when
// exactly one library of the package registers it.
func (c *checker) checkFunction(call *ast.CallExpr, run *keyflow.ScriptRun) []diag {
	var lib keyflow.ScriptRef
	var fn *luacheck.Script
	for _, ref := range c.flow.Libraries() {
		if f, ok := c.parseLibrary(ref).Function(run.Function); ok {
			if fn != nil {
				return nil // which of the libraries Redis runs is not known
			}
			lib, fn = ref, f
		}
	}
	if fn == nil {
		return nil
	}
	return c.checkLua(call, fn, lib, "library", run, nil)
}
