package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/slotlint/slotlint/ruleset"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/internal/gensection"
)

// Markers delimit the generated section of rules.yaml.
const (
	beginMarker = "# BEGIN GENERATED commands"
	endMarker   = "# END GENERATED commands"
)

// A command is one entry of COMMAND INFO, a subcommand being an entry of its
// own named "parent|sub".
type command struct {
	Name  string
	Arity int
	Flags []string
	Split bool // tips include request_policy:multi_shard
	// Policy is the request policy of the command tips other than
	// multi_shard (which Split records): all_shards, all_nodes, special.
	Policy string
	// KeyspaceWide is true for a command of the ACL category
	// @keyspace, whose request policy is all_shards or special: it reads
	// or changes the keys of the one node it is sent to (KEYS, SCAN).
	KeyspaceWide bool
	Keys         []keySpec
	Unknown      int // key specs whose position COMMAND INFO does not give
	// Origin is where the facts of a command that the live server does
	// not have were read; zero for the server's own commands.
	Origin origin
}

// An origin says where the facts of a command come from: the file of a
// public repository, at a commit, that has its key specs (or the arguments
// they were derived from), and the version that added the command, as that
// file gives it. rules.yaml keeps it in the comment of the command's line,
// so that go generate can write the command again without the file.
type origin struct {
	Repo, Path, Commit string
	Since              string // "" when the file gives none
	// Derived is true when the file has no key specs and the keys'
	// positions were derived from the arguments of type key.
	Derived bool
}

// A keySpec is a key spec in the terms of rules.yaml.
type keySpec struct {
	Index     int // begin_search index; 0 when by keyword
	Keyword   string
	StartFrom int

	IsKeyNum  bool
	LastKey   int // range
	Limit     int // range
	KeyNumIdx int // keynum
	FirstKey  int // keynum
	Step      int

	Flags []string
}

// parseCommands parses a RESP2 reply to COMMAND (or COMMAND INFO): an array
// of commands, each an array of name, arity, flags, first key, last key,
// step, ACL categories, tips, key specs and subcommands, where key specs
// are flat arrays of alternating field names and values. The result is
// sorted by name.
func parseCommands(reply []any) ([]command, error) {
	var cmds []command
	var walk func(entries []any) error
	walk = func(entries []any) error {
		for _, e := range entries {
			if e == nil { // COMMAND INFO of an unknown name
				continue
			}
			c, subs, err := parseCommand(e)
			if err != nil {
				return err
			}
			cmds = append(cmds, c)
			if err := walk(subs); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(reply); err != nil {
		return nil, err
	}
	slices.SortFunc(cmds, func(a, b command) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(cmds); i++ {
		if cmds[i].Name == cmds[i-1].Name {
			return nil, fmt.Errorf("command %q appears twice", cmds[i].Name)
		}
	}
	return cmds, nil
}

func parseCommand(e any) (c command, subs []any, err error) {
	a, ok := e.([]any)
	if !ok || len(a) < 7 {
		return c, nil, fmt.Errorf("command entry %v is not an array of at least 7 elements", e)
	}
	name, ok := a[0].(string)
	if !ok || name == "" {
		return c, nil, fmt.Errorf("command entry has name %v", a[0])
	}
	c.Name = strings.ToLower(name)
	fail := func(format string, args ...any) (command, []any, error) {
		return c, nil, fmt.Errorf("command %s: %s", c.Name, fmt.Sprintf(format, args...))
	}
	arity, ok := a[1].(int64)
	if !ok {
		return fail("arity %v is not an integer", a[1])
	}
	c.Arity = int(arity)
	if c.Flags, err = strings_(a[2]); err != nil {
		return fail("flags: %v", err)
	}
	for i, f := range c.Flags {
		c.Flags[i] = strings.ToLower(f)
	}
	if len(a) > 7 {
		tips, err := strings_(a[7])
		if err != nil {
			return fail("tips: %v", err)
		}
		acl, err := strings_(a[6])
		if err != nil {
			return fail("ACL categories: %v", err)
		}
		c.setTips(tips, acl)
	}
	if len(a) > 8 {
		specs, ok := a[8].([]any)
		if !ok {
			return fail("key specs %v are not an array", a[8])
		}
		for i, s := range specs {
			ks, known, err := parseKeySpec(s)
			if err != nil {
				return fail("key spec %d: %v", i, err)
			}
			if known {
				c.Keys = append(c.Keys, ks)
			} else {
				c.Unknown++
			}
		}
	}
	if len(a) > 9 {
		if subs, ok = a[9].([]any); !ok {
			return fail("subcommands %v are not an array", a[9])
		}
	}
	return c, subs, nil
}

// parseKeySpec parses one key spec. known is false when its begin_search or
// find_keys is of type unknown.
func parseKeySpec(v any) (ks keySpec, known bool, err error) {
	m, err := fieldMap(v)
	if err != nil {
		return ks, false, err
	}
	if ks.Flags, err = strings_(m["flags"]); err != nil {
		return ks, false, fmt.Errorf("flags: %v", err)
	}
	// Redis 7.0 gives the access flags in lower case ("access"), 7.2 and
	// later in upper case; rules.yaml has them all in upper case.
	for i, f := range ks.Flags {
		ks.Flags[i] = strings.ToUpper(f)
	}
	bsType, bs, err := typedSpec(m["begin_search"])
	if err != nil {
		return ks, false, fmt.Errorf("begin_search: %v", err)
	}
	fkType, fk, err := typedSpec(m["find_keys"])
	if err != nil {
		return ks, false, fmt.Errorf("find_keys: %v", err)
	}
	if bsType == "unknown" || fkType == "unknown" {
		return ks, false, nil
	}
	ints := func(spec map[string]any, names ...string) ([]int, error) {
		out := make([]int, len(names))
		for i, n := range names {
			x, ok := spec[n].(int64)
			if !ok {
				return nil, fmt.Errorf("%s is %v, not an integer", n, spec[n])
			}
			out[i] = int(x)
		}
		return out, nil
	}
	switch bsType {
	case "index":
		v, err := ints(bs, "index")
		if err != nil {
			return ks, false, fmt.Errorf("begin_search: %v", err)
		}
		ks.Index = v[0]
	case "keyword":
		kw, ok := bs["keyword"].(string)
		if !ok || kw == "" {
			return ks, false, fmt.Errorf("begin_search: keyword is %v", bs["keyword"])
		}
		v, err := ints(bs, "startfrom")
		if err != nil {
			return ks, false, fmt.Errorf("begin_search: %v", err)
		}
		ks.Keyword, ks.StartFrom = kw, v[0]
	default:
		return ks, false, fmt.Errorf("begin_search of type %q", bsType)
	}
	switch fkType {
	case "range":
		v, err := ints(fk, "lastkey", "keystep", "limit")
		if err != nil {
			return ks, false, fmt.Errorf("find_keys: %v", err)
		}
		ks.LastKey, ks.Step, ks.Limit = v[0], v[1], v[2]
	case "keynum":
		v, err := ints(fk, "keynumidx", "firstkey", "keystep")
		if err != nil {
			return ks, false, fmt.Errorf("find_keys: %v", err)
		}
		ks.IsKeyNum = true
		ks.KeyNumIdx, ks.FirstKey, ks.Step = v[0], v[1], v[2]
	default:
		return ks, false, fmt.Errorf("find_keys of type %q", fkType)
	}
	return ks, true, nil
}

// typedSpec parses {type: T, spec: {...}}.
func typedSpec(v any) (string, map[string]any, error) {
	m, err := fieldMap(v)
	if err != nil {
		return "", nil, err
	}
	typ, ok := m["type"].(string)
	if !ok {
		return "", nil, fmt.Errorf("type is %v", m["type"])
	}
	spec, err := fieldMap(m["spec"])
	if err != nil {
		return "", nil, fmt.Errorf("spec: %v", err)
	}
	return typ, spec, nil
}

// fieldMap turns a RESP2 flat array of names and values into a map. A RESP3
// map, as go-redis gives it, is accepted too.
func fieldMap(v any) (map[string]any, error) {
	switch v := v.(type) {
	case nil:
		return map[string]any{}, nil
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("field name %v is not a string", k)
			}
			m[ks] = x
		}
		return m, nil
	case []any:
		if len(v)%2 != 0 {
			return nil, fmt.Errorf("odd number of elements in %v", v)
		}
		m := make(map[string]any, len(v)/2)
		for i := 0; i < len(v); i += 2 {
			k, ok := v[i].(string)
			if !ok {
				return nil, fmt.Errorf("field name %v is not a string", v[i])
			}
			m[k] = v[i+1]
		}
		return m, nil
	}
	return nil, fmt.Errorf("%v is not a map", v)
}

// strings_ converts an array of strings (or a RESP3 set) to a []string.
func strings_(v any) ([]string, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case []any:
		if len(v) == 0 {
			return nil, nil
		}
		out := make([]string, len(v))
		for i, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%v is not a string", x)
			}
			out[i] = s
		}
		return out, nil
	case map[any]bool: // RESP3 set
		out := make([]string, 0, len(v))
		for x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%v is not a string", x)
			}
			out = append(out, s)
		}
		slices.Sort(out)
		return out, nil
	}
	return nil, fmt.Errorf("%v is not an array of strings", v)
}

// formatSection renders the generated section of rules.yaml, markers
// included, for commands from the given Redis version and then those of the
// spec sources, each source under a comment that says where it comes from.
func formatSection(version string, cmds []command, sources []specSource) string {
	var b strings.Builder
	b.WriteString(beginMarker + "\n")
	fmt.Fprintf(&b, "# Generated by go generate (internal/gencommands) from the COMMAND INFO of\n")
	fmt.Fprintf(&b, "# Redis %s. Do not edit this section by hand: run go generate again.\n", version)
	if len(sources) > 0 {
		gensection.WrapComment(&b, "", "The commands that Redis "+version+" does not have, newer ones and module commands, "+
			"come after it, each group under a comment naming its source. The comment of each of these commands "+
			"gives the version that added it, as its file says (Redis's, or the module's for a module's file), "+
			"and the repository, path and commit of the file its facts were read from. go generate writes them "+
			"again as recorded here; gencommands -specs DIR reads them from copies of those files instead "+
			"(internal/gencommands/README.md says how).")
	}
	b.WriteString("commands:\n")
	for _, c := range cmds {
		b.WriteString("  " + formatCommand(c) + "\n")
	}
	for _, s := range sources {
		if len(s.Commands) == 0 {
			continue
		}
		gensection.WrapComment(&b, "  ", sourceComment(s))
		for _, c := range s.Commands {
			b.WriteString("  " + formatCommand(c) + "\n")
		}
	}
	b.WriteString(endMarker + "\n")
	return b.String()
}

// sourceComment is the comment over a source's commands. It names the
// source's directory in a -specs folder in a form that readRecords finds
// again (sourceDirRE).
func sourceComment(s specSource) string {
	text := "From " + s.What + ", in " + s.Repo + " (" + s.Dir + " in a -specs directory)."
	var derived []string
	withKeys, noFlags := 0, true
	for _, c := range s.Commands {
		if c.Origin.Derived {
			derived = append(derived, strings.ToUpper(strings.ReplaceAll(c.Name, "|", " ")))
		}
		if len(c.Keys) > 0 {
			withKeys++
		}
		noFlags = noFlags && len(c.Flags) == 0
	}
	switch {
	case len(derived) == 0:
	case len(derived) == withKeys:
		text += " It has no key specs: the generator derived the keys' positions from the arguments of type \"key\", " +
			"so these key specs have no flags."
	default:
		list := derived[len(derived)-1]
		if len(derived) > 1 {
			list = strings.Join(derived[:len(derived)-1], ", ") + " and " + list
		}
		text += " The files of " + list + " have no key specs: for these the generator derived " +
			"the keys' positions from the arguments of type \"key\", so their key specs have no flags."
	}
	if noFlags {
		text += " It gives no command flags, so slotlint does not know which of these commands write."
	}
	return text
}

var sourceDirRE = regexp.MustCompile(`\((\S+) in a -specs directory\)\.`)

// formatCommand renders one command as "name: {field: value, ...}".
func formatCommand(c command) string {
	var fields []string
	fields = append(fields, "arity: "+strconv.Itoa(c.Arity))
	if len(c.Flags) > 0 {
		fields = append(fields, "flags: "+flowList(c.Flags))
	}
	if c.Split {
		fields = append(fields, "split: true")
	}
	if c.Policy != "" {
		fields = append(fields, "policy: "+c.Policy)
	}
	if c.KeyspaceWide {
		fields = append(fields, "keyspace-wide: true")
	}
	if len(c.Keys) > 0 {
		specs := make([]string, len(c.Keys))
		for i, ks := range c.Keys {
			specs[i] = formatKeySpec(ks)
		}
		fields = append(fields, "keys: ["+strings.Join(specs, ", ")+"]")
	}
	line := scalar(c.Name) + ": {" + strings.Join(fields, ", ") + "}"
	var notes []string
	if c.Unknown > 0 {
		specs := "key specs"
		if c.Unknown == 1 {
			specs = "key spec"
		}
		notes = append(notes, fmt.Sprintf("and %d %s of unknown position", c.Unknown, specs))
	}
	if o := c.Origin; o.Repo != "" {
		if o.Since != "" {
			notes = append(notes, "since "+o.Since)
		}
		if o.Derived {
			notes = append(notes, derivedNote)
		}
		notes = append(notes, "from "+o.Repo+" "+o.Path+"@"+o.Commit)
	}
	if len(notes) > 0 {
		line += "  # " + strings.Join(notes, "; ")
	}
	return line
}

// derivedNote marks, in a command's comment, keys derived from the
// arguments' types.
const derivedNote = "keys from its arguments"

func formatKeySpec(ks keySpec) string {
	var f []string
	if ks.Keyword != "" {
		f = append(f, "keyword: "+scalar(ks.Keyword), "startfrom: "+strconv.Itoa(ks.StartFrom))
	} else {
		f = append(f, "index: "+strconv.Itoa(ks.Index))
	}
	if ks.IsKeyNum {
		f = append(f, "keynum: "+strconv.Itoa(ks.KeyNumIdx), "firstkey: "+strconv.Itoa(ks.FirstKey), "step: "+strconv.Itoa(ks.Step))
	} else {
		f = append(f, "lastkey: "+strconv.Itoa(ks.LastKey), "step: "+strconv.Itoa(ks.Step))
		if ks.Limit != 0 {
			f = append(f, "limit: "+strconv.Itoa(ks.Limit))
		}
	}
	if len(ks.Flags) > 0 {
		f = append(f, "flags: "+flowList(ks.Flags))
	}
	return "{" + strings.Join(f, ", ") + "}"
}

func flowList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = scalar(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

var plainRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_|.-]*$`)

// scalar renders s as a YAML scalar: plain when that reads back as the same
// string in flow context, double-quoted otherwise.
func scalar(s string) string {
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return strconv.Quote(s)
	}
	if plainRE.MatchString(s) {
		return s
	}
	return strconv.Quote(s)
}

// replaceSection returns file with the text between the begin and end
// markers, markers included, replaced by section. Everything else is left
// byte for byte as it was.
func replaceSection(file []byte, section string) ([]byte, error) {
	begin, end, err := findSection(file)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(file[:begin])
	out.WriteString(section)
	out.Write(file[end:])
	return out.Bytes(), nil
}

// findSection returns the bounds of the generated section: from the start
// of the begin marker's line to the end of the end marker's line, its
// newline included.
func findSection(file []byte) (begin, end int, err error) {
	begin, err = markerLine(file, beginMarker, 0)
	if err != nil {
		return 0, 0, err
	}
	endStart, err := markerLine(file, endMarker, begin)
	if err != nil {
		return 0, 0, err
	}
	end = endStart + len(endMarker)
	if end < len(file) && file[end] == '\r' {
		end++
	}
	if end < len(file) && file[end] == '\n' {
		end++
	}
	if _, err := markerLine(file[end:], beginMarker, 0); err == nil {
		return 0, 0, fmt.Errorf("more than one %q line", beginMarker)
	}
	return begin, end, nil
}

// markerLine returns the offset of the first line, at or after from, that
// is exactly marker.
func markerLine(file []byte, marker string, from int) (int, error) {
	for i := from; i < len(file); {
		j := bytes.IndexByte(file[i:], '\n')
		line := file[i:]
		if j >= 0 {
			line = file[i : i+j]
		}
		if string(bytes.TrimRight(line, "\r")) == marker {
			return i, nil
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	return 0, errors.New("no line " + strconv.Quote(marker))
}

// sectionVersion returns the Redis version recorded in a generated section.
func sectionVersion(section string) string {
	m := versionRE.FindStringSubmatch(section)
	if m == nil {
		return ""
	}
	return m[1]
}

var versionRE = regexp.MustCompile(`(?m)^# Redis (\S+)\. Do not edit`)

// setTips reads the request policy of a command's tips, and from it and the
// ACL categories whether the command is keyspace-wide, as ruleset does.
func (c *command) setTips(tips, acl []string) {
	var rc ruleset.Command
	rc.SetTips(tips, acl)
	c.Split, c.Policy, c.KeyspaceWide = rc.Split, rc.Policy, rc.KeyspaceWide
}
