package luacheck

import (
	"fmt"
	"strings"

	"github.com/slotlint/slotlint/internal/editdist"
)

// Shebang flags that Redis 7 knows.
const (
	FlagNoWrites           = "no-writes"
	FlagAllowOOM           = "allow-oom"
	FlagAllowStale         = "allow-stale"
	FlagNoCluster          = "no-cluster"
	FlagAllowCrossSlotKeys = "allow-cross-slot-keys"
)

// knownFlags are the shebang flags Redis 7 accepts, in the order its
// documentation lists them.
var knownFlags = []string{FlagNoWrites, FlagAllowOOM, FlagAllowStale, FlagNoCluster, FlagAllowCrossSlotKeys}

// A Shebang is a script's first line when it starts with "#!", as in
// "#!lua flags=no-writes,allow-stale". Redis 7 reads it before running the
// script, and from Redis's point of view a script with one, even with no
// flags, is no longer a legacy script.
type Shebang struct {
	Text   string   // the whole line, without its line break
	Engine string   // what follows "#!": "lua" for a valid shebang
	Flags  []string // the flags listed in flags=..., in order, unknown ones included
	Line   int      // always 1

	flagCols []int // the column of each flag
}

// Has reports whether the shebang lists flag.
func (sh *Shebang) Has(flag string) bool {
	if sh == nil {
		return false
	}
	for _, f := range sh.Flags {
		if f == flag {
			return true
		}
	}
	return false
}

// NoCluster reports whether the shebang has flags=no-cluster: Redis 7 refuses
// to run the script on a cluster.
func (sh *Shebang) NoCluster() bool { return sh.Has(FlagNoCluster) }

// AllowCrossSlot reports whether the shebang has flags=allow-cross-slot-keys:
// the script may touch keys of other slots than its first key, as long as
// they are on the node that runs it.
func (sh *Shebang) AllowCrossSlot() bool { return sh.Has(FlagAllowCrossSlotKeys) }

// NoWrites reports whether the shebang has flags=no-writes: the script may
// not call a write command.
func (sh *Shebang) NoWrites() bool { return sh.Has(FlagNoWrites) }

// flagCol returns the column of the first occurrence of flag, or 1.
func (sh *Shebang) flagCol(flag string) int {
	for i, f := range sh.Flags {
		if f == flag {
			return sh.flagCols[i]
		}
	}
	return 1
}

// A problem is something Redis rejects in a shebang, at a column of line 1.
type problem struct {
	col int
	msg string
}

// parseShebang splits a script into its shebang, if it has one, and the
// body that Lua parses. As Redis does, it keeps the shebang's line break in
// the body, so the body's line numbers are the script's. It follows
// evalExtractShebangFlags in Redis's eval.c.
func parseShebang(src string) (sh *Shebang, body string, problems []problem) {
	if !strings.HasPrefix(src, "#!") {
		return nil, src, nil
	}
	end := strings.IndexByte(src, '\n')
	line := src
	if end < 0 {
		problems = append(problems, problem{1, `the shebang line has no line break after it, so Redis 7 rejects the script ("Invalid script shebang")`})
		body = ""
	} else {
		line, body = src[:end], src[end:]
	}
	sh = &Shebang{Text: strings.TrimRight(line, "\r"), Line: 1}
	// Redis splits the line with sdssplitargs: on white space.
	type field struct {
		text string
		col  int
	}
	var fields []field
	for i := 0; i < len(line); {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		if j > i {
			fields = append(fields, field{line[i:j], i + 1})
		}
		i = j
	}
	sh.Engine = strings.TrimPrefix(fields[0].text, "#!")
	if fields[0].text != "#!lua" {
		problems = append(problems, problem{1, fmt.Sprintf("the shebang names the engine %q, so Redis 7 rejects the script (\"Unexpected engine in script shebang\"); start it with #!lua", sh.Engine)})
	}
	for _, f := range fields[1:] {
		rest, ok := strings.CutPrefix(f.text, "flags=")
		if !ok {
			problems = append(problems, problem{f.col, fmt.Sprintf("unknown shebang option %q, so Redis 7 rejects the script (\"Unknown lua shebang option\"); the only option is flags=", f.text)})
			continue
		}
		if rest == "" {
			continue
		}
		col := f.col + len("flags=")
		for _, name := range strings.Split(rest, ",") {
			sh.Flags = append(sh.Flags, name)
			sh.flagCols = append(sh.flagCols, col)
			if !isKnownFlag(name) {
				msg := fmt.Sprintf("unknown shebang flag %q, so Redis 7 rejects the script (\"Unexpected flag in script shebang\")", name)
				if near := nearestFlag(name); near != "" {
					msg += "; did you mean " + near + "?"
				} else {
					msg += "; the flags are " + strings.Join(knownFlags, ", ")
				}
				problems = append(problems, problem{col, msg})
			}
			col += len(name) + 1
		}
	}
	return sh, body, problems
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func isKnownFlag(name string) bool {
	for _, f := range knownFlags {
		if f == name {
			return true
		}
	}
	return false
}

// nearestFlag returns the known flag that name most likely misspells: one
// that differs from it only in case, or contains it, or lies within a few
// edits of it.
func nearestFlag(name string) string {
	if name == "" {
		return ""
	}
	best, bestD := "", 4
	for _, f := range knownFlags {
		if strings.EqualFold(f, name) || strings.Contains(f, strings.ToLower(name)) && len(name) > 4 {
			return f
		}
		if d := editdist.Levenshtein(strings.ToLower(name), f); d < bestD {
			best, bestD = f, d
		}
	}
	return best
}

// joinAnd joins items as a, b and c.
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
