package ruleset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/slotlint/slotlint/keyspace"
	"go.yaml.in/yaml/v3"
)

// SchemaVersion is the version of the rules file format that this package
// reads. Every rules file starts with "version: 1".
const SchemaVersion = 1

// A Fault is one fault in a rules file, at the position it was found.
type Fault struct {
	Pos Pos
	Msg string
}

func (f *Fault) Error() string {
	if f.Pos == (Pos{}) {
		return f.Msg
	}
	return f.Pos.String() + ": " + f.Msg
}

// RulesError lists every fault found in rules files. Its Error method prints
// one fault a line, each as file:line:col: message.
type RulesError struct {
	Faults []*Fault
}

func (e *RulesError) Error() string {
	lines := make([]string, len(e.Faults))
	for i, f := range e.Faults {
		lines[i] = f.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the faults, for errors.As.
func (e *RulesError) Unwrap() []error {
	errs := make([]error, len(e.Faults))
	for i, f := range e.Faults {
		errs[i] = f
	}
	return errs
}

// err returns e, or nil when it holds no fault.
func (e *RulesError) err() error {
	if len(e.Faults) == 0 {
		return nil
	}
	return e
}

var (
	topFields     = []string{"version", "target", "checks", "families", "groups", "wrappers", "safe-writes", "member-replies", "clients", "commands"}
	clientFields  = []string{"packages", "methods", "types", "split-with", "options", "cluster-urls", "node-clients", "every-master", "flattens"}
	optionFields  = []string{"db", "addrs", "cluster", "sentinel", "constructor"}
	methodFields  = []string{"command", "kind", "keys", "patterns", "args", "script", "fn", "db", "reply", "needs-keys", "value"}
	commandFields = []string{"arity", "flags", "split", "policy", "keyspace-wide", "keys"}
	policies      = []string{"all_shards", "all_nodes", "special"}
	keySpecFields = []string{"index", "keyword", "startfrom", "lastkey", "step", "limit", "keynum", "firstkey", "flags"}
	severities    = []Severity{SeverityError, SeverityWarning, SeverityOff}
)

// kindRule says which fields of a method a kind requires and which it takes.
type kindRule struct {
	required []string
	allowed  []string // besides kind and command, which every kind takes
}

var kindRules = map[MethodKind]kindRule{
	KindCommand:     {nil, []string{"keys", "patterns", "db", "needs-keys"}},
	KindScript:      {[]string{"script", "keys"}, []string{"script", "keys", "args"}},
	KindScriptSHA:   {[]string{"script", "keys"}, []string{"script", "keys", "args"}},
	KindScriptLoad:  {[]string{"script"}, []string{"script"}},
	KindNewScript:   {[]string{"script"}, []string{"script"}},
	KindFunction:    {[]string{"keys"}, []string{"keys", "args"}},
	KindRaw:         {[]string{"args"}, []string{"args", "reply", "value"}},
	KindWatch:       {[]string{"fn", "keys"}, []string{"fn", "keys", "needs-keys"}},
	KindTxPipelined: {[]string{"fn"}, []string{"fn"}},
	KindPipelined:   {[]string{"fn"}, []string{"fn"}},
	KindTxPipeline:  {nil, nil},
	KindPipeline:    {nil, nil},
	KindExec:        {nil, nil},
}

// kindOrder lists the kinds in the order messages show them.
var kindOrder = []MethodKind{
	KindCommand, KindScript, KindScriptSHA, KindScriptLoad, KindNewScript, KindFunction, KindRaw,
	KindWatch, KindTxPipelined, KindTxPipeline, KindPipelined, KindPipeline, KindExec,
}

var fieldMeaning = map[string]string{
	"command":    "the Redis command the method sends, such as RENAME",
	"keys":       "a list of selectors for the key parameters",
	"args":       "a selector for the script or command arguments",
	"script":     "the parameter with the script source or SHA1, or receiver",
	"fn":         "the parameter with the function to run",
	"reply":      "the parameter a raw command's reply is written into",
	"needs-keys": "true when the client refuses a call that gives none of the keys the method may leave out (Watch's keys, GeoRadiusStore's Store and StoreDist)",
	"value":      "true when the function only builds the raw command as a value that a send method sends",
}

var (
	nameRE       = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)
	typeNameRE   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	methodNameRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$`)
	commandRE    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*( [A-Za-z][A-Za-z0-9_.-]*)?$`)
	cmdNameRE    = regexp.MustCompile(`^[a-z][a-z0-9_.-]*(\|[a-z][a-z0-9_.-]*)?$`)
	// A wrapper's name as go/types prints it: "path/pkg.Func",
	// "(*path/pkg.Type).Method" or "(path/pkg.Type).Method".
	wrapperRE = regexp.MustCompile(`^(\(\*?[^()\s*]+\.[A-Za-z_][A-Za-z0-9_]*\)|[^()\s*]+)\.[A-Za-z_][A-Za-z0-9_]*$`)
)

// ParseRules parses a rules file. Every fault it finds, not only the first, is
// returned in one *RulesError, each with the file, line and column, and what
// was expected there. ParseRules checks what one file can check alone: the
// schema, field names and types, templates, selectors and method kinds.
// Checks that span files, such as a group naming a family of another file or
// a method naming a command of the commands table, are Validate's, to be run
// on the merged rule set.
func ParseRules(filename string, data []byte) (*Rules, error) {
	l := &loader{file: filename, data: data}
	l.splitLines()
	if bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")) {
		return nil, &RulesError{Faults: []*Fault{{Pos: Pos{File: filename, Line: 1, Col: 1},
			Msg: "the rules file is in UTF-16 (it starts with a byte order mark); save it as UTF-8"}}}
	}
	docs, err := parseDocs(data)
	if err != nil {
		return nil, &RulesError{Faults: []*Fault{l.syntaxFault(err)}}
	}
	doc := &yaml.Node{}
	if len(docs) > 0 {
		doc = docs[0]
	}
	for _, d := range docs[min(1, len(docs)):] {
		if len(d.Content) > 0 && !isNull(d.Content[0]) {
			l.errf(d, "a second YAML document; a rules file is one document, so merge this one into the first")
		}
	}
	r := &Rules{Checks: map[string]Severity{}, Commands: map[string]*Command{}}
	l.rules(r, doc)
	sort.SliceStable(l.faults, func(i, j int) bool {
		a, b := l.faults[i].Pos, l.faults[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	if err := (&RulesError{Faults: l.faults}).err(); err != nil {
		return nil, err
	}
	return r, nil
}

// parseDocs parses every YAML document of data. yaml.Unmarshal reads the
// first one only, and would hide what follows, faults included.
func parseDocs(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		doc := &yaml.Node{}
		if err := dec.Decode(doc); err == io.EOF {
			return docs, nil
		} else if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
}

type loader struct {
	file       string
	data       []byte
	lineStarts []int // byte offsets where lines begin
	lineEnds   []int // byte offsets where they end, before the line break
	faults     []*Fault
}

// pos returns the position of a node, its column counted in bytes (the YAML
// parser counts characters).
func (l *loader) pos(n *yaml.Node) Pos {
	if n == nil || n.Line == 0 {
		return Pos{File: l.file, Line: 1, Col: 1}
	}
	if n.Line > len(l.lineStarts) {
		// The parser puts an empty document's null past the last line.
		last := len(l.lineStarts)
		return Pos{File: l.file, Line: last, Col: len(l.line(last)) + 1}
	}
	return Pos{File: l.file, Line: n.Line, Col: l.byteCol(n.Line, n.Column)}
}

// splitLines finds the lines of the file as YAML counts them: a line ends at
// "\r\n", "\r", "\n", or a NEL, LS or PS character.
func (l *loader) splitLines() {
	l.lineStarts = append(l.lineStarts[:0], 0)
	l.lineEnds = l.lineEnds[:0]
	d := l.data
	for i := 0; i < len(d); i++ {
		n := 0 // the length of the line break at i
		switch {
		case d[i] == '\r' && i+1 < len(d) && d[i+1] == '\n':
			n = 2
		case d[i] == '\r' || d[i] == '\n':
			n = 1
		case d[i] == 0xc2 && i+1 < len(d) && d[i+1] == 0x85:
			n = 2
		case d[i] == 0xe2 && i+2 < len(d) && d[i+1] == 0x80 && (d[i+2] == 0xa8 || d[i+2] == 0xa9):
			n = 3
		default:
			continue
		}
		l.lineEnds = append(l.lineEnds, i)
		i += n - 1
		l.lineStarts = append(l.lineStarts, i+1)
	}
	l.lineEnds = append(l.lineEnds, len(d))
}

func (l *loader) line(line int) []byte {
	if line < 1 || line > len(l.lineStarts) {
		return nil
	}
	return l.data[l.lineStarts[line-1]:l.lineEnds[line-1]]
}

// byteCol turns a 1-based character column of a line into a byte column.
func (l *loader) byteCol(line, col int) int {
	text := l.line(line)
	off := 0
	for i := 1; i < col && off < len(text); i++ {
		_, size := utf8.DecodeRune(text[off:])
		off += size
	}
	return off + 1
}

func (l *loader) errf(n *yaml.Node, format string, args ...any) {
	l.faults = append(l.faults, &Fault{Pos: l.pos(n), Msg: fmt.Sprintf(format, args...)})
}

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing"
		}
		return strconv.Quote(n.Value)
	}
	return "something else"
}

// entry is one key and value of a mapping.
type entry struct {
	key, val *yaml.Node
}

// mapping returns the entries of a mapping node, reporting duplicate keys and
// non-scalar keys. A null node is an empty mapping. what names the mapping in
// messages; expect describes its entries.
func (l *loader) mapping(n *yaml.Node, what, expect string) []entry {
	n = resolve(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		l.errf(n, "%s must be a mapping of %s, not %s", what, expect, kindName(n))
		return nil
	}
	seen := map[string]*yaml.Node{}
	var out []entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			l.errf(k, "%s has a key that is %s; expected %s", what, kindName(k), expect)
			continue
		}
		if k.Value == "<<" && k.Tag == "!!merge" {
			l.errf(k, "merge keys (<<) are not supported in rules files; write the entries out")
			continue
		}
		if first := seen[k.Value]; first != nil {
			l.errf(k, "%s has %q twice; the first is at %s", what, k.Value, l.pos(first))
			continue
		}
		seen[k.Value] = k
		out = append(out, entry{k, v})
	}
	return out
}

// fields returns a mapping's entries by name, reporting unknown ones.
func (l *loader) fields(n *yaml.Node, what string, known []string) map[string]entry {
	entries := l.mapping(n, what, "fields "+strings.Join(known, ", "))
	out := map[string]entry{}
	for _, e := range entries {
		if !slices.Contains(known, e.key.Value) {
			l.errf(e.key, "unknown field %q in %s; expected one of %s", e.key.Value, what, strings.Join(known, ", "))
			continue
		}
		out[e.key.Value] = e
	}
	return out
}

// str returns a scalar's text.
func (l *loader) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		l.errf(n, "%s must be a string, not %s", what, kindName(n))
		return "", false
	}
	return n.Value, true
}

// integer returns a scalar's integer value.
func (l *loader) integer(n *yaml.Node, what string) (int, bool) {
	if n.Kind == yaml.ScalarNode && !isNull(n) {
		if v, err := strconv.Atoi(n.Value); err == nil {
			return v, true
		}
	}
	l.errf(n, "%s must be an integer, not %s", what, kindName(n))
	return 0, false
}

// param returns a parameter index: an integer from 0.
func (l *loader) param(n *yaml.Node, what string) (int, bool) {
	v, ok := l.integer(n, what)
	if ok && v < 0 {
		l.errf(n, "%s must be a parameter number from 0 (ctx is parameter 0), not %d", what, v)
		return 0, false
	}
	return v, ok
}

func (l *loader) boolean(n *yaml.Node, what string) (bool, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		var b bool
		if err := n.Decode(&b); err == nil {
			return b, true
		}
	}
	l.errf(n, "%s must be true or false, not %s", what, kindName(n))
	return false, false
}

// strings returns the scalars of a list.
func (l *loader) strList(n *yaml.Node, what string) ([]string, []*yaml.Node) {
	n = resolve(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		l.errf(n, "%s must be a list, not %s", what, kindName(n))
		return nil, nil
	}
	var out []string
	var nodes []*yaml.Node
	for _, c := range n.Content {
		c = resolve(c)
		if s, ok := l.str(c, "each element of "+what); ok {
			out = append(out, s)
			nodes = append(nodes, c)
		}
	}
	return out, nodes
}

func (l *loader) rules(r *Rules, doc *yaml.Node) {
	if doc.Kind == 0 || len(doc.Content) == 0 {
		l.errf(nil, "the rules file is empty; it must be a mapping that starts with \"version: %d\"", SchemaVersion)
		return
	}
	root := resolve(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		l.errf(root, "a rules file must be a mapping that starts with \"version: %d\", not %s", SchemaVersion, kindName(root))
		return
	}
	f := l.fields(root, "the rules file", topFields)
	if e, ok := f["version"]; ok {
		if v, ok := l.integer(e.val, "version"); ok {
			if v != SchemaVersion {
				l.errf(e.val, "version %d is not supported; this slotlint reads rules files of version %d", v, SchemaVersion)
			}
			r.Version = v
		}
	} else {
		l.errf(root, "missing \"version: %d\"; every rules file starts with the schema version", SchemaVersion)
	}
	if e, ok := f["target"]; ok {
		if v, ok := l.str(e.val, "target"); ok {
			if !slices.Contains(Targets, Target(v)) {
				l.errf(e.val, "target %q is not one of %s; it names the server the code runs against", v, targetList())
			} else {
				r.Target = Target(v)
			}
		}
	}
	if e, ok := f["checks"]; ok {
		l.checks(r, e.val)
	}
	if e, ok := f["families"]; ok {
		l.families(r, e.val)
	}
	if e, ok := f["groups"]; ok {
		l.groups(r, e.val)
	}
	if e, ok := f["wrappers"]; ok {
		l.wrappers(r, e.val)
	}
	if e, ok := f["member-replies"]; ok {
		l.memberReplies(r, e.val)
	}
	if e, ok := f["safe-writes"]; ok {
		l.safeWrites(r, e.val)
	}
	if e, ok := f["clients"]; ok {
		l.clients(r, e.val)
	}
	if e, ok := f["commands"]; ok {
		l.commands(r, e.val)
	}
}

func (l *loader) checks(r *Rules, n *yaml.Node) {
	for _, e := range l.mapping(n, "checks", "check names to severities (error, warning, off)") {
		name := e.key.Value
		if !nameRE.MatchString(name) {
			l.errf(e.key, "check name %q is not a name such as cross-slot", name)
			continue
		}
		s, ok := l.str(e.val, fmt.Sprintf("the severity of check %q", name))
		if !ok {
			continue
		}
		sev := Severity(s)
		if !slices.Contains(severities, sev) {
			l.errf(e.val, "severity %q for check %q is not one of error, warning, off", s, name)
			continue
		}
		r.Checks[name] = sev
	}
}

func (l *loader) families(r *Rules, n *yaml.Node) {
	for _, e := range l.mapping(n, "families", "family names to key templates") {
		name := e.key.Value
		if !nameRE.MatchString(name) {
			l.errf(e.key, "family name %q is not a name such as job or user-session", name)
			continue
		}
		text, ok := l.str(e.val, fmt.Sprintf("family %q", name))
		if !ok {
			continue
		}
		t, err := keyspace.ParseTemplate(text)
		if err != nil {
			var te *keyspace.TemplateError
			if errors.As(err, &te) {
				l.faults = append(l.faults, &Fault{
					Pos: l.scalarPos(e.val, te.Col),
					Msg: fmt.Sprintf("template %q: %s (column %d of the template)", text, te.Msg, te.Col),
				})
			} else {
				l.errf(e.val, "%v", err)
			}
			continue
		}
		r.Families = append(r.Families, &Family{Name: name, Template: t, Pos: l.pos(e.key)})
	}
}

func (l *loader) groups(r *Rules, n *yaml.Node) {
	for _, e := range l.mapping(n, "groups", "group names to lists of families") {
		name := e.key.Value
		if !nameRE.MatchString(name) {
			l.errf(e.key, "group name %q is not a name such as queue", name)
			continue
		}
		members, nodes := l.strList(e.val, fmt.Sprintf("group %q", name))
		g := &Group{Name: name, Pos: l.pos(e.key)}
		seen := map[string]bool{}
		for i, m := range members {
			if seen[m] {
				l.errf(nodes[i], "group %q names family %q twice", name, m)
				continue
			}
			seen[m] = true
			g.Families = append(g.Families, m)
		}
		if len(g.Families) < 2 && resolve(e.val).Kind == yaml.SequenceNode {
			l.errf(e.val, "group %q names %d families; a group lists at least two families that must share a slot", name, len(g.Families))
			continue
		}
		r.Groups = append(r.Groups, g)
	}
}

// safeWrites parses the writes that cannot lose an update: a command
// (upper case) or a client method, with the option that makes it safe,
// when it is safe only with one.
func (l *loader) safeWrites(r *Rules, n *yaml.Node) {
	for _, e := range l.mapping(n, "safe-writes", "commands or client methods to {} or {when: Option}") {
		name := e.key.Value
		if !safeWriteRE.MatchString(name) {
			l.errf(e.key, "safe write %q is not a command such as XACK or a client method such as SetNX", name)
			continue
		}
		what := fmt.Sprintf("safe write %q", name)
		f := l.fields(e.val, what, []string{"when"})
		w := &SafeWrite{Name: name, Pos: l.pos(e.key)}
		if fe, ok := f["when"]; ok {
			if v, ok := l.str(fe.val, "the option of "+what); ok {
				w.When = v
			}
		}
		if r.SafeWrites == nil {
			r.SafeWrites = map[string]*SafeWrite{}
		}
		r.SafeWrites[name] = w
	}
}

// memberReplies parses the commands whose reply lists the members or
// fields of one key: a list of command names, upper case.
func (l *loader) memberReplies(r *Rules, n *yaml.Node) {
	names, nodes := l.strList(n, "member-replies")
	for i, name := range names {
		if !commandNameRE.MatchString(name) {
			l.errf(nodes[i], "member reply %q is not a command name in upper case, such as SMEMBERS", name)
			continue
		}
		r.MemberReplies = append(r.MemberReplies, &MemberReply{Command: name, Pos: l.pos(nodes[i])})
	}
}

var commandNameRE = regexp.MustCompile(`^[A-Z][A-Z0-9_.|]*$`)

var safeWriteRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.|]*$`)

func (l *loader) wrappers(r *Rules, n *yaml.Node) {
	for _, e := range l.mapping(n, "wrappers", "function names to method rules") {
		name := e.key.Value
		if !wrapperRE.MatchString(name) {
			l.errf(e.key, "wrapper %q is not a full function name such as \"example.com/shop/store.Move\" or \"(*example.com/shop/store.Repo).Move\"", name)
			continue
		}
		m := l.method(e.val, fmt.Sprintf("wrapper %q", name), name)
		if m == nil {
			continue
		}
		r.Wrappers = append(r.Wrappers, &Wrapper{Func: name, Method: m, Pos: l.pos(e.key)})
	}
}

func (l *loader) clients(r *Rules, n *yaml.Node) {
	for _, e := range l.mapping(n, "clients", "client names to their packages and methods") {
		name := e.key.Value
		what := fmt.Sprintf("client %q", name)
		if v := resolve(e.val); v != nil && v.Kind == yaml.MappingNode {
			// split-since claimed that go-redis v9.18 and later split MGET,
			// DEL and the like by slot; a live test on a cluster shows every
			// v9 release refusing them with CROSSSLOT, unless the application
			// installs the resolver that split-with names.
			for i := 0; i+1 < len(v.Content); i += 2 {
				if k := v.Content[i]; k.Value == "split-since" {
					l.errf(k, "split-since of %s is no longer a field: no go-redis version splits MGET, DEL, EXISTS or MSET by slot on its own (they fail with CROSSSLOT); delete the line, or, if the application installs a resolver that makes the client split them, name the methods that install it in split-with", what)
					v.Content = append(v.Content[:i:i], v.Content[i+2:]...)
					break
				}
			}
		}
		f := l.fields(e.val, what, clientFields)
		c := &Client{Name: name, Methods: map[string]*Method{}}
		if pe, ok := f["packages"]; ok {
			pkgs, nodes := l.strList(pe.val, "the packages of "+what)
			for i, p := range pkgs {
				if p == "" || strings.ContainsAny(p, " \t") {
					l.errf(nodes[i], "package %q of %s is not an import path such as github.com/redis/go-redis/v9", p, what)
					continue
				}
				c.Packages = append(c.Packages, p)
			}
		}
		if te, ok := f["types"]; ok {
			for _, te := range l.mapping(te.val, "the types of "+what, "type names to roles") {
				tname, role := te.key.Value, TypeRole(te.val.Value)
				if !typeNameRE.MatchString(tname) {
					l.errf(te.key, "type name %q of %s is not a Go type name such as ClusterClient", tname, what)
					continue
				}
				if !slices.Contains(typeRoles, role) {
					l.errf(te.val, "type %q of %s has role %q; the roles are %s", tname, what, te.val.Value, roleList())
					continue
				}
				if c.Types == nil {
					c.Types = map[string]TypeRole{}
				}
				c.Types[tname] = role
			}
		}
		if se, ok := f["split-with"]; ok {
			c.SplitWith = l.names(se.val, "split-with of "+what, methodNameRE, "a method such as ClusterClient.SetCommandInfoResolver")
		}
		if oe, ok := f["options"]; ok {
			c.Options = l.options(oe.val, what)
		}
		if ue, ok := f["cluster-urls"]; ok {
			c.ClusterURLs = l.names(ue.val, "cluster-urls of "+what, typeNameRE, "a function such as ParseClusterURL")
		}
		if ne, ok := f["node-clients"]; ok {
			c.NodeClients = l.names(ne.val, "node-clients of "+what, methodNameRE, "a method such as Client.Nodes")
		}
		if me, ok := f["every-master"]; ok {
			c.EveryMaster, _ = l.str(me.val, "every-master of "+what)
		}
		if fe, ok := f["flattens"]; ok {
			forms, nodes := l.strList(fe.val, "flattens of "+what)
			for i, form := range forms {
				if !slices.Contains(FlatForms, form) {
					l.errf(nodes[i], "flattens of %s names %q; the forms are %s", what, form, strings.Join(FlatForms, ", "))
					continue
				}
				c.Flattens = append(c.Flattens, form)
			}
		}
		if me, ok := f["methods"]; ok {
			for _, me := range l.mapping(me.val, "the methods of "+what, "method names to method rules") {
				mname := me.key.Value
				if !methodNameRE.MatchString(mname) {
					l.errf(me.key, "method name %q of %s is not Name or Receiver.Name", mname, what)
					continue
				}
				if m := l.method(me.val, fmt.Sprintf("method %q", mname), mname); m != nil {
					m.Pos = l.pos(me.key)
					c.Methods[mname] = m
				}
			}
		}
		r.Clients = append(r.Clients, c)
	}
}

// names parses a list of Go names that re matches; what names the list
// and example says what a name should be, in messages.
func (l *loader) names(n *yaml.Node, what string, re *regexp.Regexp, example string) []string {
	var out []string
	names, nodes := l.strList(n, what)
	for i, name := range names {
		if !re.MatchString(name) {
			l.errf(nodes[i], "%s names %q, not %s", what, name, example)
			continue
		}
		out = append(out, name)
	}
	return out
}

// options parses a client's option structs; what names the client.
func (l *loader) options(n *yaml.Node, what string) map[string]*Options {
	out := map[string]*Options{}
	for _, e := range l.mapping(n, "the options of "+what, "option struct names to their fields") {
		tname := e.key.Value
		if !typeNameRE.MatchString(tname) {
			l.errf(e.key, "option struct %q of %s is not a Go type name such as UniversalOptions", tname, what)
			continue
		}
		owhat := fmt.Sprintf("option struct %q of %s", tname, what)
		f := l.fields(e.val, owhat, optionFields)
		o := &Options{}
		for _, field := range []struct {
			name     string
			to       *string
			required bool
		}{
			{"db", &o.DB, true}, {"addrs", &o.Addrs, true}, {"constructor", &o.Constructor, true},
			{"cluster", &o.Cluster, false}, {"sentinel", &o.Sentinel, false},
		} {
			fe, ok := f[field.name]
			if !ok {
				if field.required {
					l.errf(e.key, "%s has no %s; give the name of its field or function", owhat, field.name)
				}
				continue
			}
			if !typeNameRE.MatchString(fe.val.Value) {
				l.errf(fe.val, "%s of %s is %q, not a Go name such as DB", field.name, owhat, fe.val.Value)
				continue
			}
			*field.to = fe.val.Value
		}
		out[tname] = o
	}
	return out
}

// method parses a method rule; what names it in messages.
func (l *loader) method(n *yaml.Node, what, name string) *Method {
	m := &Method{Name: name, Kind: KindCommand, Script: NoParam, Fn: NoParam, DB: NoParam, Reply: NoParam, Pos: l.pos(n)}
	f := l.fields(n, what, methodFields)
	ok := true
	if e, has := f["kind"]; has {
		if s, sok := l.str(e.val, "the kind of "+what); !sok {
			ok = false
		} else if _, known := kindRules[MethodKind(s)]; !known {
			names := make([]string, len(kindOrder))
			for i, k := range kindOrder {
				names[i] = string(k)
			}
			l.errf(e.val, "kind %q of %s is not one of %s", s, what, strings.Join(names, ", "))
			return nil
		} else {
			m.Kind = MethodKind(s)
		}
	}
	rule := kindRules[m.Kind]
	for field, e := range f {
		if field == "kind" || field == "command" || slices.Contains(rule.allowed, field) {
			continue
		}
		l.errf(e.key, "field %q does not apply to %s of kind %s; kind %s takes %s", field, what, m.Kind, m.Kind, strings.Join(append([]string{"command"}, rule.allowed...), ", "))
		ok = false
	}
	for _, field := range rule.required {
		if _, has := f[field]; !has {
			l.errf(n, "%s of kind %s needs %q: %s", what, m.Kind, field, fieldMeaning[field])
			ok = false
		}
	}
	if m.Kind == KindCommand {
		if _, has := f["command"]; !has {
			l.errf(n, "%s of kind command needs %q: %s", what, "command", fieldMeaning["command"])
			ok = false
		}
	}
	if e, has := f["command"]; has {
		if s, sok := l.str(e.val, "the command of "+what); sok {
			if !commandRE.MatchString(s) {
				l.errf(e.val, "command %q of %s is not a command name such as RENAME or \"XGROUP CREATE\"", s, what)
				ok = false
			}
			m.Command = strings.ToUpper(s)
		} else {
			ok = false
		}
	}
	sels := func(field string) []Selector {
		e, has := f[field]
		if !has {
			return nil
		}
		v := resolve(e.val)
		var texts []string
		var nodes []*yaml.Node
		if v.Kind == yaml.ScalarNode && !isNull(v) {
			texts, nodes = []string{v.Value}, []*yaml.Node{v}
		} else {
			texts, nodes = l.strList(v, fmt.Sprintf("the %s of %s", field, what))
		}
		var out []Selector
		for i, t := range texts {
			s, err := ParseSelector(t)
			if err != nil {
				l.errf(nodes[i], "%v in the %s of %s", err, field, what)
				ok = false
				continue
			}
			if s.Flat {
				l.errf(nodes[i], "selector %q in the %s of %s: ...flat selects the arguments of a raw command (args of kind raw), not %s", t, field, what, field)
				ok = false
				continue
			}
			out = append(out, s)
		}
		return out
	}
	m.Keys = sels("keys")
	m.Patterns = sels("patterns")
	if e, has := f["args"]; has {
		if s, sok := l.str(e.val, "the args of "+what); sok {
			sel, err := ParseSelector(s)
			if err != nil {
				l.errf(e.val, "%v in the args of %s", err, what)
				ok = false
			} else if sel.Flat && m.Kind != KindRaw {
				l.errf(e.val, "args %q of %s: ...flat is for the args of kind raw, whose command's arguments are flattened (radix's FlatCmd); %s is of kind %s", s, what, what, m.Kind)
				ok = false
			} else {
				m.Args = &sel
			}
		} else {
			ok = false
		}
	}
	if e, has := f["script"]; has {
		if v := resolve(e.val); v.Kind == yaml.ScalarNode && v.Value == "receiver" {
			m.Script = ReceiverParam
		} else if p, pok := l.param(v, "the script parameter of "+what+" (or receiver)"); pok {
			m.Script = p
		} else {
			ok = false
		}
	}
	for _, pf := range []struct {
		field string
		dst   *int
	}{{"fn", &m.Fn}, {"db", &m.DB}, {"reply", &m.Reply}} {
		if e, has := f[pf.field]; has {
			if p, pok := l.param(resolve(e.val), fmt.Sprintf("the %s parameter of %s", pf.field, what)); pok {
				*pf.dst = p
			} else {
				ok = false
			}
		}
	}
	for _, bf := range []struct {
		field string
		dst   *bool
	}{{"needs-keys", &m.NeedsKeys}, {"value", &m.Value}} {
		if e, has := f[bf.field]; has {
			if b, bok := l.boolean(resolve(e.val), bf.field+" of "+what); bok {
				*bf.dst = b
			} else {
				ok = false
			}
		}
	}
	if !ok {
		return nil
	}
	return m
}

func (l *loader) commands(r *Rules, n *yaml.Node) {
	for _, e := range l.mapping(n, "commands", "lower-case command names to key specs") {
		name := e.key.Value
		if !cmdNameRE.MatchString(name) {
			l.errf(e.key, "command name %q is not a lower-case name such as get, or parent|sub for a subcommand", name)
			continue
		}
		what := fmt.Sprintf("command %q", name)
		f := l.fields(e.val, what, commandFields)
		c := &Command{Name: name}
		if fe, ok := f["arity"]; ok {
			c.Arity, _ = l.integer(fe.val, "the arity of "+what)
		}
		if fe, ok := f["flags"]; ok {
			c.Flags, _ = l.strList(fe.val, "the flags of "+what)
		}
		if fe, ok := f["split"]; ok {
			c.Split, _ = l.boolean(fe.val, "split of "+what)
		}
		if fe, ok := f["policy"]; ok {
			if v, ok := l.str(fe.val, "the policy of "+what); ok {
				if !slices.Contains(policies, v) {
					l.errf(fe.val, "the policy of %s is %q, not one of %s (request_policy:multi_shard is split: true)", what, v, strings.Join(policies, ", "))
				} else {
					c.Policy = v
				}
			}
		}
		if fe, ok := f["keyspace-wide"]; ok {
			c.KeyspaceWide, _ = l.boolean(fe.val, "keyspace-wide of "+what)
		}
		if fe, ok := f["keys"]; ok {
			v := resolve(fe.val)
			if !isNull(v) && v.Kind != yaml.SequenceNode {
				l.errf(v, "the keys of %s must be a list of key specs, not %s", what, kindName(v))
			} else {
				for i, ksn := range v.Content {
					if ks, ok := l.keySpec(ksn, fmt.Sprintf("key spec %d of %s", i, what)); ok {
						c.Keys = append(c.Keys, ks)
					}
				}
			}
		}
		r.Commands[name] = c
	}
}

// keySpec parses one key spec: where the search begins, by index or by
// keyword (with startfrom), and how keys are found, as a range (lastkey,
// step, limit) or by a key count (keynum, firstkey, step).
func (l *loader) keySpec(n *yaml.Node, what string) (KeySpec, bool) {
	f := l.fields(n, what, keySpecFields)
	var ks KeySpec
	ok := true
	get := func(field string) (int, bool) {
		e, has := f[field]
		if !has {
			return 0, false
		}
		v, vok := l.integer(e.val, field+" of "+what)
		ok = ok && vok
		return v, vok
	}
	_, hasIndex := f["index"]
	_, hasKeyword := f["keyword"]
	switch {
	case hasIndex && hasKeyword:
		l.errf(f["keyword"].key, "%s has both index and keyword; the search for keys begins at one of them", what)
		ok = false
	case hasIndex:
		ks.Index, _ = get("index")
		if _, has := f["startfrom"]; has {
			l.errf(f["startfrom"].key, "%s has startfrom, which goes with keyword, not index", what)
			ok = false
		}
	case hasKeyword:
		if s, sok := l.str(f["keyword"].val, "keyword of "+what); sok {
			ks.Keyword = s
		} else {
			ok = false
		}
		if _, has := f["startfrom"]; !has {
			l.errf(n, "%s has keyword but no startfrom, the argument where the search for the keyword starts", what)
			ok = false
		}
		ks.StartFrom, _ = get("startfrom")
	default:
		l.errf(n, "%s needs index or keyword: where the search for keys begins", what)
		ok = false
	}
	ks.Step = 1
	if v, has := get("step"); has {
		ks.Step = v
	}
	if _, has := f["keynum"]; has {
		ks.IsKeyNum = true
		ks.KeyNumIdx, _ = get("keynum")
		ks.FirstKey, _ = get("firstkey")
		for _, bad := range []string{"lastkey", "limit"} {
			if e, has := f[bad]; has {
				l.errf(e.key, "%s has keynum and %s; %s goes with a range of keys, not a key count", what, bad, bad)
				ok = false
			}
		}
	} else {
		if e, has := f["firstkey"]; has {
			l.errf(e.key, "%s has firstkey but no keynum; firstkey goes with a key count", what)
			ok = false
		}
		ks.LastKey, _ = get("lastkey")
		ks.Limit, _ = get("limit")
	}
	if e, has := f["flags"]; has {
		ks.Flags, _ = l.strList(e.val, "the flags of "+what)
	}
	return ks, ok
}

// scalarPos returns the position of the col'th byte (1-based) of a scalar's
// value: the exact character when the scalar is plain or quoted on one line,
// else the scalar's start.
func (l *loader) scalarPos(n *yaml.Node, col int) Pos {
	p := l.pos(n)
	line := l.line(n.Line)
	start := p.Col - 1
	if start < 0 || start > len(line) {
		return p
	}
	src := line[start:]
	// offs[i] is the offset in src of the source of the value's byte i.
	var offs []int
	switch n.Style {
	case 0: // plain
		if !bytes.HasPrefix(src, []byte(n.Value)) {
			return p
		}
		for i := range n.Value {
			offs = append(offs, i)
		}
	case yaml.SingleQuotedStyle:
		i := 1
		for i < len(src) {
			if src[i] == '\'' {
				if i+1 < len(src) && src[i+1] == '\'' {
					offs = append(offs, i)
					i += 2
					continue
				}
				break
			}
			offs = append(offs, i)
			i++
		}
		if i >= len(src) || len(offs) != len(n.Value) {
			return p
		}
	case yaml.DoubleQuotedStyle:
		var dec []byte
		i := 1
		for i < len(src) && src[i] != '"' {
			if src[i] != '\\' {
				dec = append(dec, src[i])
				offs = append(offs, i)
				i++
				continue
			}
			if i+1 >= len(src) {
				return p
			}
			esc := src[i+1]
			var r rune
			width := 2
			switch esc {
			case 'x', 'u', 'U':
				digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[esc]
				if i+2+digits > len(src) {
					return p
				}
				v, err := strconv.ParseUint(string(src[i+2:i+2+digits]), 16, 32)
				if err != nil {
					return p
				}
				r, width = rune(v), 2+digits
			default:
				s, err := strconv.Unquote(`"\` + string(esc) + `"`)
				switch {
				case err == nil:
					r = []rune(s)[0]
				case esc == ' ' || esc == '/':
					r = rune(esc)
				case esc == 'e':
					r = 0x1b
				case esc == '0':
					r = 0
				default:
					return p
				}
			}
			b := utf8.AppendRune(nil, r)
			for range b {
				offs = append(offs, i)
			}
			dec = append(dec, b...)
			i += width
		}
		if i >= len(src) || string(dec) != n.Value {
			return p
		}
	default:
		return p
	}
	if col < 1 || col > len(offs) {
		return p
	}
	return Pos{File: l.file, Line: p.Line, Col: p.Col + offs[col-1]}
}

var yamlLineRE = regexp.MustCompile(`^yaml: (line \d+: )?`)

// syntaxFault turns a YAML syntax error into a fault at file:line:col. The
// YAML parser names a line only, and not always the one at fault, so the
// position is found by parsing prefixes of the file: the first line, and the
// first byte in it, after which the same error appears.
func (l *loader) syntaxFault(err error) *Fault {
	msg := yamlLineRE.ReplaceAllString(err.Error(), "")
	fails := func(n int) bool {
		_, e := parseDocs(l.data[:n])
		return e != nil && yamlLineRE.ReplaceAllString(e.Error(), "") == msg
	}
	// The first line whose end makes the prefix fail.
	lines := len(l.lineStarts)
	end := func(line int) int { // the offset just past line (1-based)
		if line < lines {
			return l.lineStarts[line]
		}
		return len(l.data)
	}
	lo, hi := 1, lines
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(end(mid)) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	line := lo
	// The first byte of that line whose end makes the prefix fail.
	from, to := l.lineStarts[line-1], end(line)
	for from < to {
		mid := (from + to) / 2
		if fails(mid + 1) {
			to = mid
		} else {
			from = mid + 1
		}
	}
	col := from - l.lineStarts[line-1] + 1
	if text := l.line(line); col > len(text) {
		col = max(len(text), 1)
	}
	return &Fault{Pos: Pos{File: l.file, Line: line, Col: col}, Msg: "invalid YAML: " + msg}
}

// Merge returns a new rule set: r with over laid on top of it, as a user's
// rules file is laid over the built-in set. Neither r nor over changes; the
// result shares their families, methods and commands, which are to be treated
// as read-only. Entries of the same name replace r's, and new ones are added:
//
//   - checks: over's severity for a check replaces r's;
//   - families, groups: a family or group of the same name replaces r's in
//     place, new ones follow r's in over's order (this is the order Match
//     tries families in);
//   - wrappers: by function name, the same way;
//   - clients: a client of the same name keeps r's methods and takes over's
//     on top, method by method (a method "Tx.Watch" and a method "Watch" are
//     different entries); over's packages, when it lists any, replace r's;
//     new clients follow r's;
//   - commands: over's command of the same name replaces r's.
//
// The result has over's version; the two must both be SchemaVersion, which
// Validate checks along with the references between entries.
func (r *Rules) Merge(over *Rules) *Rules {
	m := &Rules{
		Version:  over.Version,
		Target:   r.Target,
		Checks:   map[string]Severity{},
		Commands: map[string]*Command{},
	}
	if over.Version != r.Version && over.Version == SchemaVersion {
		// Keep the version that Validate will reject.
		m.Version = r.Version
	}
	if over.Target != "" {
		m.Target = over.Target
	}
	for k, v := range r.Checks {
		m.Checks[k] = v
	}
	for k, v := range over.Checks {
		m.Checks[k] = v
	}
	m.Families = mergeNamed(r.Families, over.Families, func(f *Family) string { return f.Name })
	m.Groups = mergeNamed(r.Groups, over.Groups, func(g *Group) string { return g.Name })
	m.Wrappers = mergeNamed(r.Wrappers, over.Wrappers, func(w *Wrapper) string { return w.Func })
	copyClient := func(c *Client) *Client {
		n := &Client{Name: c.Name, Packages: slices.Clone(c.Packages), Methods: map[string]*Method{}, SplitWith: slices.Clone(c.SplitWith), ClusterURLs: slices.Clone(c.ClusterURLs), NodeClients: slices.Clone(c.NodeClients), EveryMaster: c.EveryMaster, Flattens: slices.Clone(c.Flattens)}
		if c.Options != nil {
			n.Options = maps.Clone(c.Options)
		}
		for k, v := range c.Methods {
			n.Methods[k] = v
		}
		if c.Types != nil {
			n.Types = maps.Clone(c.Types)
		}
		return n
	}
	for _, c := range r.Clients {
		m.Clients = append(m.Clients, copyClient(c))
	}
	for _, oc := range over.Clients {
		i := slices.IndexFunc(m.Clients, func(c *Client) bool { return c.Name == oc.Name })
		if i < 0 {
			m.Clients = append(m.Clients, copyClient(oc))
			continue
		}
		c := m.Clients[i]
		if len(oc.Packages) > 0 {
			c.Packages = slices.Clone(oc.Packages)
		}
		if len(oc.SplitWith) > 0 {
			c.SplitWith = slices.Clone(oc.SplitWith)
		}
		if len(oc.ClusterURLs) > 0 {
			c.ClusterURLs = slices.Clone(oc.ClusterURLs)
		}
		if len(oc.NodeClients) > 0 {
			c.NodeClients = slices.Clone(oc.NodeClients)
		}
		if oc.EveryMaster != "" {
			c.EveryMaster = oc.EveryMaster
		}
		if len(oc.Flattens) > 0 {
			c.Flattens = slices.Clone(oc.Flattens)
		}
		for k, v := range oc.Options {
			if c.Options == nil {
				c.Options = map[string]*Options{}
			}
			c.Options[k] = v
		}
		for k, v := range oc.Methods {
			c.Methods[k] = v
		}
		for k, v := range oc.Types {
			if c.Types == nil {
				c.Types = map[string]TypeRole{}
			}
			c.Types[k] = v
		}
	}
	for k, v := range r.Commands {
		m.Commands[k] = v
	}
	for k, v := range over.Commands {
		m.Commands[k] = v
	}
	m.MemberReplies = slices.Clone(r.MemberReplies)
	for _, mr := range over.MemberReplies {
		if !m.RepliesMembers(mr.Command) {
			m.MemberReplies = append(m.MemberReplies, mr)
		}
	}
	if len(r.SafeWrites)+len(over.SafeWrites) > 0 {
		m.SafeWrites = maps.Clone(r.SafeWrites)
		if m.SafeWrites == nil {
			m.SafeWrites = map[string]*SafeWrite{}
		}
		maps.Copy(m.SafeWrites, over.SafeWrites)
	}
	return m
}

// mergeNamed returns base with the entries of over laid on it by name.
func mergeNamed[T any](base, over []T, name func(T) string) []T {
	out := slices.Clone(base)
	for _, o := range over {
		i := slices.IndexFunc(out, func(b T) bool { return name(b) == name(o) })
		if i >= 0 {
			out[i] = o
		} else {
			out = append(out, o)
		}
	}
	return out
}

// Validate checks a rule set as a whole, after Merge: the schema version,
// that groups name defined families whose keys provably share a slot, that
// method kinds are known and have the fields they need, and, when the set has
// a commands table, that every command a method or wrapper names is in it.
// Every fault is reported, in one *RulesError.
func (r *Rules) Validate() error {
	e := &RulesError{}
	add := func(p Pos, format string, args ...any) {
		e.Faults = append(e.Faults, &Fault{Pos: p, Msg: fmt.Sprintf(format, args...)})
	}
	if r.Version != SchemaVersion {
		add(Pos{}, "rules of version %d are not supported; this slotlint reads rules files of version %d", r.Version, SchemaVersion)
	}
	checks := slices.Sorted(maps.Keys(r.Checks))
	for _, c := range checks {
		if !slices.Contains(severities, r.Checks[c]) {
			add(Pos{}, "severity %q for check %q is not one of error, warning, off", r.Checks[c], c)
		}
	}
	fams := map[string]*Family{}
	for _, f := range r.Families {
		if prev := fams[f.Name]; prev != nil {
			add(f.Pos, "family %q is defined twice; the first is at %s", f.Name, prev.Pos)
			continue
		}
		if f.Template == nil {
			add(f.Pos, "family %q has no template", f.Name)
			continue
		}
		fams[f.Name] = f
	}
	groups := map[string]*Group{}
	for _, g := range r.Groups {
		if prev := groups[g.Name]; prev != nil {
			add(g.Pos, "group %q is defined twice; the first is at %s", g.Name, prev.Pos)
			continue
		}
		groups[g.Name] = g
		var members []*Family
		for _, name := range g.Families {
			f := fams[name]
			if f == nil {
				add(g.Pos, "group %q names family %q, which is not defined; %s", g.Name, name, definedFamilies(fams))
				continue
			}
			members = append(members, f)
		}
		if len(members) != len(g.Families) || len(members) < 2 {
			continue
		}
		keys := make([]keyspace.Key, len(members))
		for i, f := range members {
			keys[i] = f.Template.Symbolic()
		}
		if c := keyspace.Colocate(keys...); c.Verdict != keyspace.Same {
			a, b := members[c.Pair[0]], members[c.Pair[1]]
			verdict := "are not proven to share a slot"
			if c.Verdict == keyspace.Different {
				verdict = "hash to different slots"
			}
			add(g.Pos, "group %q: families %s and %s %s; give them the same hashtag, such as %s in both",
				g.Name, describeFamily(a), describeFamily(b), verdict, keyspace.SuggestTag(keys[c.Pair[0]], keys[c.Pair[1]]))
		}
	}
	checkMethod := func(m *Method, what string) {
		rule, known := kindRules[m.Kind]
		if !known {
			add(m.Pos, "kind %q of %s is not a known method kind", m.Kind, what)
			return
		}
		has := map[string]bool{
			"command": m.Command != "",
			"keys":    len(m.Keys) > 0,
			"args":    m.Args != nil,
			"script":  m.Script != NoParam,
			"fn":      m.Fn != NoParam,
		}
		for _, field := range rule.required {
			if !has[field] {
				add(m.Pos, "%s of kind %s needs %q: %s", what, m.Kind, field, fieldMeaning[field])
			}
		}
		if m.Kind == KindCommand && m.Command == "" {
			add(m.Pos, "%s of kind command needs %q: %s", what, "command", fieldMeaning["command"])
		}
		if m.Command != "" && len(r.Commands) > 0 && r.Command(m.Command) == nil {
			add(m.Pos, "%s sends command %s, which is not in the commands table", what, m.Command)
		}
	}
	for _, c := range r.Clients {
		for _, name := range slices.Sorted(maps.Keys(c.Methods)) {
			checkMethod(c.Methods[name], fmt.Sprintf("method %q of client %q", name, c.Name))
		}
	}
	for _, mr := range r.MemberReplies {
		if len(r.Commands) > 0 && r.Command(mr.Command) == nil {
			add(mr.Pos, "member reply %s is not in the commands table", mr.Command)
		}
	}
	for _, w := range r.Wrappers {
		if w.Method == nil {
			add(w.Pos, "wrapper %q has no method rule", w.Func)
			continue
		}
		checkMethod(w.Method, fmt.Sprintf("wrapper %q", w.Func))
	}
	return e.err()
}

func definedFamilies(fams map[string]*Family) string {
	if len(fams) == 0 {
		return "no family is defined"
	}
	return "defined families: " + strings.Join(slices.Sorted(maps.Keys(fams)), ", ")
}

// describeFamily shows a family with its template and hashtag:
// job ("emq:{<queue>}:job:<id>", hashtag {<queue>}).
func describeFamily(f *Family) string {
	k := f.Template.Symbolic()
	s := k.Subject()
	var tag string
	switch s.Kind {
	case keyspace.SubjectTag:
		tag = "hashtag {" + keyspace.Key{Parts: s.Parts}.String() + "}"
	case keyspace.SubjectWhole:
		tag = "no hashtag"
	default:
		tag = "hashtag unknown"
	}
	return fmt.Sprintf("%s (%q, %s)", f.Name, f.Template.String(), tag)
}

// Command returns the commands table's entry for a command, or nil. The name
// is case-insensitive; a subcommand is named "object|encoding", "OBJECT
// ENCODING", or by its parent and sub: Command("object", "encoding"). When
// the table has the parent but not that subcommand, the parent's entry is
// returned, so a raw command's first argument may be passed as sub whether or
// not the command has subcommands.
func (r *Rules) Command(name string, sub ...string) *Command {
	name = strings.ToLower(strings.TrimSpace(name))
	parent, s, hasSub := strings.Cut(strings.Join(strings.Fields(name), "|"), "|")
	if !hasSub && len(sub) > 0 {
		s, hasSub = strings.ToLower(sub[0]), true
	}
	if hasSub {
		if c := r.Commands[parent+"|"+s]; c != nil {
			return c
		}
	}
	return r.Commands[parent]
}

// Method returns the rule for a client method: the method name on receiver
// type recv (the type's name without package or pointer, "" for a function)
// of the package pkgPath. It asks the clients whose packages hold pkgPath, in
// order, with Client.LookupMethod, and returns the first rule found, or nil.
func (r *Rules) Method(pkgPath, recv, name string) *Method {
	for _, c := range r.Clients {
		if !slices.Contains(c.Packages, pkgPath) {
			continue
		}
		if m := c.LookupMethod(recv, name); m != nil {
			return m
		}
	}
	return nil
}

// ClientOf returns the first client whose packages hold pkgPath, or nil.
func (r *Rules) ClientOf(pkgPath string) *Client {
	for _, c := range r.Clients {
		if slices.Contains(c.Packages, pkgPath) {
			return c
		}
	}
	return nil
}

// roleList names the type roles, for messages.
func roleList() string {
	s := make([]string, len(typeRoles))
	for i, r := range typeRoles {
		s[i] = string(r)
	}
	return strings.Join(s, ", ")
}

// Wrapper returns the wrapper declared for a function by its full name as
// go/types prints it, or nil.
func (r *Rules) Wrapper(fullName string) *Wrapper {
	for _, w := range r.Wrappers {
		if w.Func == fullName {
			return w
		}
	}
	return nil
}

// Severity returns a check's severity. A check that the rule set does not
// list is an error; "off" turns a check off.
func (r *Rules) Severity(check string) Severity {
	if s, ok := r.Checks[check]; ok {
		return s
	}
	return SeverityError
}

// Family returns the family of that name, or nil.
func (r *Rules) Family(name string) *Family {
	for _, f := range r.Families {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Match returns the first family, in the order of Families, whose template
// matches key, with the placeholder values in the order of the template's
// Names. Families are in file order; after Merge, the base set's come first,
// with same-named families replaced in place, then the new ones.
func (r *Rules) Match(key string) (*Family, []string, bool) {
	for _, f := range r.Families {
		if f.Template == nil {
			continue
		}
		if values, ok := f.Template.Match(key); ok {
			return f, values, true
		}
	}
	return nil, nil, false
}
