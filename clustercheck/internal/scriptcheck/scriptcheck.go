// Package scriptcheck is the script check that the go-redis hook
// (clustercheck) and the argument-list checker of the other clients' hooks
// (clustercheck/rawcheck) share: the sources of the scripts a hook has
// seen, by SHA1, each parsed once, and the check of one call (EVAL,
// EVALSHA, EVAL_RO, EVALSHA_RO) against the script's luacheck summary,
// keeping the findings that a Redis Cluster refuses.
package scriptcheck

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/luacheck"
	"github.com/slotlint/slotlint/ruleset"
)

// MaxScripts bounds the scripts a Cache remembers; a script seen after
// that is still checked when it comes with its source (EVAL), but an
// EVALSHA of it is unseen.
const MaxScripts = 10000

// maxCleanCalls bounds the calls remembered as fine per script.
const maxCleanCalls = 1024

// A Cache holds the scripts a hook has seen, by SHA1. The zero Cache is
// empty and ready; it is safe for concurrent use.
type Cache struct {
	scripts sync.Map // lower-case SHA1 → *Entry
	mu      sync.Mutex
	n       int // under mu
}

// Remember keeps a script's source under its SHA1 and returns its entry.
func (c *Cache) Remember(src string) *Entry {
	sum := sha1.Sum([]byte(src))
	sha := hex.EncodeToString(sum[:])
	if v, ok := c.scripts.Load(sha); ok {
		return v.(*Entry)
	}
	c.mu.Lock()
	full := c.n >= MaxScripts
	if !full {
		c.n++
	}
	c.mu.Unlock()
	e := &Entry{src: src, name: sha[:12]}
	if full {
		return e
	}
	v, _ := c.scripts.LoadOrStore(sha, e)
	return v.(*Entry)
}

// Lookup returns the entry of the script whose SHA1 is sha, in any case,
// or nil when the cache has not seen it.
func (c *Cache) Lookup(sha string) *Entry {
	v, ok := c.scripts.Load(strings.ToLower(sha))
	if !ok {
		return nil
	}
	return v.(*Entry)
}

// An Entry is a script a hook saw, parsed once.
type Entry struct {
	src  string
	name string // the start of its SHA1, to name it in findings

	once   sync.Once
	script *luacheck.Script
	// clean holds the calls (read-only or not, numkeys, keys and
	// arguments) found fine, at most maxCleanCalls of them, so that a call
	// repeated, as tests do, is checked once.
	clean  sync.Map
	nClean atomic.Int32
	// sum is the script's summary for the key specs in use: a call with
	// new keys and arguments only applies them to it.
	sum atomic.Pointer[summary]
}

// A summary is a script's luacheck.Summary, made with the key specs
// identified by id.
type summary struct {
	id any
	m  *luacheck.Summary
}

// Specs are the key specs a script's calls are checked with.
type Specs struct {
	// ID identifies the specs: the summary of a script is made again when
	// it changes (a hook that fetched the server's specs in place of the
	// rules'). It must be comparable.
	ID any
	// Command returns a command's specs by lower-case name, or nil.
	Command func(name string) *ruleset.Command
	// Settled is true when the specs will not change: only then are calls
	// found fine remembered.
	Settled bool
	// KeyspaceWide adds the keyspace-wide findings (KEYS, SCAN inside the
	// script) to Categories.
	KeyspaceWide bool
}

// Categories are the script findings a hook reports: what a cluster
// refuses.
var Categories = map[string]bool{
	luacheck.CategoryCrossSlot:     true,
	luacheck.CategoryUndeclaredKey: true,
	luacheck.CategoryFlags:         true,
}

func (e *Entry) parsed() *luacheck.Script {
	e.once.Do(func() {
		// A script that does not parse still gives a Script, whose Check
		// reports the syntax error among the checks that need no body.
		e.script, _ = luacheck.Parse(e.name, e.src)
	})
	return e.script
}

// summary returns the script's summary for specs, made once, and again
// when specs.ID changes.
func (e *Entry) summary(s *luacheck.Script, specs Specs) *luacheck.Summary {
	if p := e.sum.Load(); p != nil && p.id == specs.ID {
		return p.m
	}
	m := s.Summarize(specs.Command)
	e.sum.Store(&summary{id: specs.ID, m: m})
	return m
}

// Check checks one call of the script, as a cluster runs it: rest is the
// command's argument list after the script or SHA1 (numkeys, the keys, the
// arguments), with numkeys n already checked to fit, and readOnly is true
// for EVAL_RO and EVALSHA_RO. It returns the findings of Categories, nil
// when the call is fine.
func (e *Entry) Check(rest []string, n int, readOnly bool, specs Specs) []luacheck.Finding {
	sig := strings.Join(rest, "\x00")
	if readOnly {
		sig = "ro\x00" + sig
	}
	if specs.KeyspaceWide {
		sig = "kw\x00" + sig
	}
	if _, ok := e.clean.Load(sig); ok {
		return nil
	}
	s := e.parsed()
	if s == nil {
		return nil
	}
	lits := make([]keyspace.Key, len(rest)-1)
	for i, a := range rest[1:] {
		lits[i] = keyspace.Lit(a)
	}
	call := luacheck.Call{
		Keys: lits[:n:n], KnownKeyCount: true,
		Args: lits[n:], KnownArgCount: true,
		Cluster:  true,
		ReadOnly: readOnly,
	}
	var found []luacheck.Finding
	for _, f := range e.summary(s, specs).Check(call) {
		if Categories[f.Category] || specs.KeyspaceWide && f.Category == luacheck.CategoryKeyspaceWide {
			found = append(found, f)
		}
	}
	if len(found) == 0 && specs.Settled && e.nClean.Add(1) <= maxCleanCalls {
		e.clean.Store(sig, struct{}{})
	}
	return found
}

// NumKeys returns the key count of a script call's argument list (the
// command, the script or SHA1, numkeys, the keys, the arguments), and false
// when it is not one the server would run: too short, or numkeys not a
// count that fits.
func NumKeys(argv []string) (int, bool) {
	if len(argv) < 3 {
		return 0, false
	}
	n, err := strconv.Atoi(argv[2])
	if err != nil || n < 0 || 3+n > len(argv) {
		return 0, false
	}
	return n, true
}

// Reason joins the messages of a call's findings, for a hook's error.
func Reason(found []luacheck.Finding) string {
	msgs := make([]string, len(found))
	for i, f := range found {
		msgs[i] = f.Message
	}
	return strings.Join(msgs, "; ")
}
