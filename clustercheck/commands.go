package clustercheck

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
	"github.com/slotlint/slotlint/clustercheck/rawcheck"
	"github.com/slotlint/slotlint/ruleset"
)

// A cmdInfo is a command's key specs with what the hook precomputes.
type cmdInfo struct {
	*ruleset.Command
	// atMostOneKey: the command never has more than one key, so it cannot
	// span slots by itself.
	atMostOneKey bool
	// container: the table has subcommands "name|sub" of it.
	container bool
	// oneIndex is the place of the command's one key when it has exactly
	// one key spec, a single key at a fixed index; 0 otherwise.
	oneIndex int
}

func newCmdInfo(c *ruleset.Command) *cmdInfo {
	one := len(c.Keys) == 0
	if len(c.Keys) == 1 {
		ks := c.Keys[0]
		one = !ks.IsKeyNum && ks.Keyword == "" && ks.LastKey == 0
	}
	ci := &cmdInfo{Command: c, atMostOneKey: one}
	if one && len(c.Keys) == 1 && c.Keys[0].Index > 0 {
		ci.oneIndex = c.Keys[0].Index
	}
	return ci
}

// cmdMap is a table of commands by lower-case name, subcommands as
// "parent|sub".
type cmdMap map[string]*cmdInfo

func newCmdMap(cmds map[string]*ruleset.Command) cmdMap {
	m := make(cmdMap, len(cmds))
	for name, c := range cmds {
		m[name] = newCmdInfo(c)
	}
	for name := range cmds {
		if parent, _, ok := strings.Cut(name, "|"); ok {
			if p := m[parent]; p != nil {
				p.container = true
			} else {
				m[parent] = &cmdInfo{Command: &ruleset.Command{Name: parent}, atMostOneKey: true, container: true}
			}
		}
	}
	return m
}

// lookup returns the entry of a command, argv[0] its lower-case name.
func (m cmdMap) lookup(name string, argv []any) *cmdInfo {
	c := m[name]
	if c == nil || !c.container || len(argv) < 2 {
		return c
	}
	if sub := m[name+"|"+lower(argString(argv[1]))]; sub != nil {
		return sub
	}
	return c
}

// A cmdTable gives the key specs of commands: the server's, from COMMAND,
// fetched once, and the rules' commands table until then, or when the
// server does not answer.
type cmdTable struct {
	local  cmdMap
	server atomic.Pointer[cmdMap]
	// state: 0 the server's table was not asked for, 1 it is being fetched,
	// 2 done (fetched, failed, or not wanted).
	state atomic.Int32

	mu       sync.Mutex
	fetchErr error
}

func newCmdTable(rules *ruleset.Rules, askServer bool) *cmdTable {
	t := &cmdTable{local: newCmdMap(rules.Commands)}
	if !askServer {
		t.state.Store(2)
	}
	return t
}

// lookup returns a command's entry, or nil for a command neither table
// knows.
func (t *cmdTable) lookup(name string, argv []any) *cmdInfo {
	if m := t.server.Load(); m != nil {
		if c := m.lookup(name, argv); c != nil {
			return c
		}
	}
	return t.local.lookup(name, argv)
}

// command returns a command's key specs by its lower-case name, for
// luacheck.
func (t *cmdTable) command(name string) *ruleset.Command {
	var c *cmdInfo
	if m := t.server.Load(); m != nil {
		c = (*m)[name]
	}
	if c == nil {
		c = t.local[name]
	}
	if c == nil {
		return nil
	}
	return c.Command
}

// needFetch reports whether the caller should fetch the server's table, and
// if so marks the fetch as under way. Only one caller fetches; the others go
// on with the local table meanwhile, so a hook that reenters itself through
// the fetch cannot deadlock.
func (t *cmdTable) needFetch() bool {
	return t.state.Load() == 0 && t.state.CompareAndSwap(0, 1)
}

// fetch asks the server for COMMAND through send, a process function below
// the hook, and installs the table.
func (t *cmdTable) fetch(ctx context.Context, send func(context.Context, redis.Cmder) error) {
	defer t.state.Store(2)
	cmd := redis.NewSliceCmd(ctx, "command")
	if err := send(ctx, cmd); err != nil {
		t.setErr(fmt.Errorf("COMMAND: %w", err))
		return
	}
	cmds, err := parseCommandReply(cmd.Val())
	if err != nil {
		t.setErr(fmt.Errorf("COMMAND: %w", err))
		return
	}
	m := newCmdMap(cmds)
	t.server.Store(&m)
}

func (t *cmdTable) setErr(err error) {
	t.mu.Lock()
	t.fetchErr = err
	t.mu.Unlock()
}

// parseCommandReply reads the reply of COMMAND (or COMMAND INFO) in RESP2 or
// RESP3 form: per command its name, arity, flags, first key, last key, step,
// ACL categories, tips, key specs and subcommands. Key specs whose search is
// of type unknown are left out.
func parseCommandReply(reply []any) (map[string]*ruleset.Command, error) {
	out := map[string]*ruleset.Command{}
	var add func(v any) error
	add = func(v any) error {
		e, ok := v.([]any)
		if !ok {
			if v == nil {
				return nil // COMMAND INFO of an unknown command
			}
			return fmt.Errorf("command entry is %T, not an array", v)
		}
		if len(e) < 2 {
			return fmt.Errorf("short command entry %v", e)
		}
		c := &ruleset.Command{Name: lower(argString(e[0]))}
		c.Arity = int(toInt(e[1]))
		if len(e) > 2 {
			c.Flags = toStrings(e[2])
		}
		if len(e) > 7 {
			c.SetTips(toStrings(e[7]), toStrings(e[6]))
		}
		if len(e) > 8 {
			specs, _ := e[8].([]any)
			for _, s := range specs {
				if ks, ok := parseKeySpec(s); ok {
					c.Keys = append(c.Keys, ks)
				}
			}
		}
		out[c.Name] = c
		if len(e) > 9 {
			subs, _ := e[9].([]any)
			for _, s := range subs {
				if err := add(s); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, v := range reply {
		if err := add(v); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no commands in the reply")
	}
	return out, nil
}

// parseKeySpec reads one key spec; ok is false for a spec of unknown type.
func parseKeySpec(v any) (ks ruleset.KeySpec, ok bool) {
	f := fields(v)
	for _, fl := range toStrings(f["flags"]) {
		ks.Flags = append(ks.Flags, strings.ToUpper(fl))
	}
	bs := fields(f["begin_search"])
	bspec := fields(bs["spec"])
	switch argString(bs["type"]) {
	case "index":
		ks.Index = int(toInt(bspec["index"]))
	case "keyword":
		ks.Keyword = argString(bspec["keyword"])
		ks.StartFrom = int(toInt(bspec["startfrom"]))
	default:
		return ks, false
	}
	fk := fields(f["find_keys"])
	fspec := fields(fk["spec"])
	switch argString(fk["type"]) {
	case "range":
		ks.LastKey = int(toInt(fspec["lastkey"]))
		ks.Step = int(toInt(fspec["keystep"]))
		ks.Limit = int(toInt(fspec["limit"]))
	case "keynum":
		ks.IsKeyNum = true
		ks.KeyNumIdx = int(toInt(fspec["keynumidx"]))
		ks.FirstKey = int(toInt(fspec["firstkey"]))
		ks.Step = int(toInt(fspec["keystep"]))
	default:
		return ks, false
	}
	return ks, true
}

// fields reads a map: a RESP3 map, or a RESP2 array of names and values.
func fields(v any) map[string]any {
	out := map[string]any{}
	switch m := v.(type) {
	case map[any]any:
		for k, x := range m {
			out[argString(k)] = x
		}
	case map[string]any:
		return m
	case []any:
		for i := 0; i+1 < len(m); i += 2 {
			out[argString(m[i])] = m[i+1]
		}
	}
	return out
}

func toInt(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case string:
		i, _ := strconv.ParseInt(n, 10, 64)
		return i
	}
	return 0
}

func toStrings(v any) []string {
	var list []any
	switch s := v.(type) {
	case []any:
		list = s
	case map[any]bool: // a RESP3 set, should a client give one
		for k := range s {
			list = append(list, k)
		}
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, argString(x))
	}
	return out
}

// argString returns a command argument as the text go-redis sends.
func argString(v any) string { return rawcheck.Arg(v) }

// lower returns s in lower case, without allocating when it already is.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}
