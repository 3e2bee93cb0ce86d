package luacheck

import (
	"github.com/slotlint/slotlint/ruleset"
)

// A Summary is what Check finds in a script whatever the call, worked out
// once for one command lookup, so that checking a call applies only the
// call's keys and arguments to it. Summary.Check(call) gives exactly what
// Script.Check(cmds, call) gives; it is cheaper for scripts called many
// times with other keys, as a runtime hook sees them.
//
// A Summary does not change after Summarize: any number of goroutines may
// Check it at once. It holds the Script, and its size is that of the
// script's command calls.
type Summary struct {
	s     *Script
	cmds  func(string) *ruleset.Command
	sites []siteSummary
}

// siteSummary says which calls a command call of the script may give a
// finding for.
type siteSummary struct {
	st *site
	// quiet: the site gives no finding for any call; roOnly: it gives one
	// only for a call with EVAL_RO (a write in a script without shebang).
	quiet, roOnly bool
	// uses are how its commands take the KEYS[i], for a site that is
	// quiet or roOnly: the same for every call.
	uses []keyUses
}

// Summarize works out what checking the script needs that does not depend
// on the call. cmds is the command lookup that Check takes; the Summary
// keeps it, and holds only while cmds answers as it did.
func (s *Script) Summarize(cmds func(name string) *ruleset.Command) *Summary {
	m := &Summary{s: s, cmds: cmds}
	if s.Syntax != nil {
		return m
	}
	m.sites = make([]siteSummary, len(s.sites))
	for i, st := range s.sites {
		m.sites[i] = m.summarize(st)
	}
	return m
}

// summarize decides whether a site's findings depend on the call. A site is
// quiet when, for every command it may call, the key positions in its
// arguments do not depend on the call and none of those arguments may be
// an undeclared key, no flag makes its writes wrong, and it calls no
// keyspace-wide command (KEYS, SCAN), which a cluster client's call
// makes wrong. It follows
// checker.site: any site it cannot prove quiet is checked in full.
func (m *Summary) summarize(st *site) siteSummary {
	out := siteSummary{st: st}
	if st.tail != nil {
		return out // a spread of KEYS or ARGV: as many arguments as the call passes
	}
	c := &checker{s: m.s, cmds: m.cmds, call: &Call{}}
	roOnly := false
	var uses []keyUses
	names := st.commandNames()
	if len(names) < len(st.cmd) {
		uses = append(uses, usesOf(st, nil, nil))
	}
	for _, name := range names {
		cmd := c.lookup(name, st)
		if cmd == nil {
			uses = append(uses, usesOf(st, nil, nil))
			continue
		}
		if cmd.KeyspaceWide {
			return out // reported on a cluster client: the call says
		}
		if cmd.IsWrite() {
			switch {
			case m.s.Shebang.NoWrites():
				return out
			case m.s.Shebang == nil:
				roOnly = true
			}
		}
		argv := make([]string, len(st.args)+1)
		argv[0] = name
		if !rangeSpecs(cmd) {
			// Keywords and key counts are read from the arguments:
			// they must not depend on the call.
			for i, vals := range st.args {
				if len(vals) == 1 && vals[0].stringish() && !callFree(vals[0]) {
					return out
				}
				argv[i+1] = c.literal(vals)
			}
		}
		pos, ok := cmd.KeyPositions(argv)
		for _, p := range pos {
			if p < 1 || p > len(st.args) {
				continue
			}
			for _, v := range st.args[p-1] {
				if v.kind != kKey && v.stringish() {
					return out // an undeclared key: the verdict needs the call's keys
				}
			}
		}
		slots := c.expand(st)
		if !ok || isPubSub(cmd) {
			slots = nil
		}
		uses = append(uses, usesOf(st, slots, pos))
	}
	out.quiet, out.roOnly, out.uses = !roOnly, roOnly, uses
	return out
}

// rangeSpecs reports whether the command's key positions depend only on the
// number of its arguments: no keyword search, no key count.
func rangeSpecs(cmd *ruleset.Command) bool {
	for _, ks := range cmd.Keys {
		if ks.Keyword != "" || ks.IsKeyNum {
			return false
		}
	}
	return true
}

// callFree reports whether a value's text does not depend on the call's keys
// and arguments (see keyOf).
func callFree(v *value) bool {
	switch v.kind {
	case kKey, kArg:
		return false
	case kConcat:
		for _, p := range v.parts {
			if !callFree(p) {
				return false
			}
		}
	}
	return true
}

// Check checks the script for one call of it, as Script.Check does with the
// command lookup the Summary was made with, and gives the same findings.
func (m *Summary) Check(call Call) []Finding {
	s := m.s
	c := &checker{s: s, cmds: m.cmds, call: &call}
	return c.check(func() {
		for _, ss := range m.sites {
			if ss.quiet || ss.roOnly && !call.ReadOnly {
				for _, u := range ss.uses {
					c.note(ss.st, u)
				}
				continue
			}
			c.site(ss.st)
		}
	})
}
