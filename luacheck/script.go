package luacheck

import (
	"sort"
	"strings"

	"github.com/yuin/gopher-lua/parse"
)

// A Script is a parsed Lua script with what the analysis found in it. Parse
// it once and Check it for every call: it does not change after Parse, so
// any number of goroutines may Check it at once.
type Script struct {
	Name   string // how messages call the script: "enqueueScript"
	Source string // the script as given to Parse, shebang included

	// Shebang is the script's "#!" line, nil without one.
	Shebang *Shebang
	// Syntax is the script's syntax error, nil when it parses.
	Syntax *SyntaxError

	shebangProblems []problem

	sites     []*site
	keyReads  []*keyRead
	keysWhole bool
	keysLen   bool
	keysRead  map[int]bool // the i of the KEYS[i] in keyReads
	numReads  []*numRead

	fn *function // set for a function of a library
}

// Parse parses a script with gopher-lua's parser (Lua 5.1, as Redis runs)
// and analyses it. name is how messages call the script, such as the Go
// constant or variable that holds it.
//
// A script that does not parse gives a *SyntaxError, and a Script whose
// Check reports it as a "lua-syntax" finding besides the checks that do not
// need the script's body: callers may keep the Script and ignore the error.
// A "#!" line is read as Redis 7 reads it and left out of what Lua parses;
// what Redis would reject in it is reported by Check, not by Parse.
func Parse(name, src string) (*Script, error) {
	s := &Script{Name: name, Source: src}
	var body string
	s.Shebang, body, s.shebangProblems = parseShebang(src)
	toks, bad := tokenize(body, name)
	chunk, err := parse.Parse(strings.NewReader(body), name)
	if err != nil {
		s.Syntax = syntaxError(name, body, err, toks, bad)
		return s, s.Syntax
	}
	a := newAnalyzer(identColumns(chunk, toks))
	a.run(chunk)
	s.collect(a)
	return s, nil
}

// collect keeps what an analysis found, in the order of the source.
func (s *Script) collect(a *analyzer) {
	s.sites = a.siteList
	sort.SliceStable(s.sites, func(i, j int) bool {
		if s.sites[i].line != s.sites[j].line {
			return s.sites[i].line < s.sites[j].line
		}
		return s.sites[i].col < s.sites[j].col
	})
	s.keyReads = a.readList
	sort.SliceStable(s.keyReads, func(i, j int) bool {
		if s.keyReads[i].line != s.keyReads[j].line {
			return s.keyReads[i].line < s.keyReads[j].line
		}
		return s.keyReads[i].col < s.keyReads[j].col
	})
	s.keysWhole, s.keysLen, s.numReads = a.keysWhole, a.keysLen, a.numReads
	s.keysRead = map[int]bool{}
	for _, r := range s.keyReads {
		s.keysRead[r.idx] = true
	}
}

// MaxKeyIndex returns the largest constant i of the KEYS[i] the script
// reads (0 when it reads none), and whether that tells how many keys the
// script reads: ok is false when the script indexes KEYS with a variable,
// iterates over it, takes #KEYS or hands KEYS on, and when it does not parse.
func (s *Script) MaxKeyIndex() (n int, ok bool) {
	for _, r := range s.keyReads {
		n = max(n, r.idx)
	}
	return n, s.Syntax == nil && !s.keysWhole
}

// Commands returns the names of the commands the script may call through
// redis.call, redis.pcall, server.call or server.pcall, lower case, sorted,
// each once. A command whose name the script computes is not among them.
func (s *Script) Commands() []string {
	seen := map[string]bool{}
	var out []string
	for _, st := range s.sites {
		for _, name := range st.commandNames() {
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// commandNames returns the constant names the site's command may have.
func (st *site) commandNames() []string {
	var out []string
	for _, v := range st.cmd {
		if v.kind == kLit && v.text != "" {
			out = append(out, strings.ToLower(v.text))
		}
	}
	return out
}
