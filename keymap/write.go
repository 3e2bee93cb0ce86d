package keymap

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/internal/jsonout"
	"github.com/slotlint/slotlint/keyspace"
)

// Formats are the formats Write knows.
var Formats = []string{"text", "json", "rules", "mermaid", "dot"}

// Write prints the map in a format of Formats.
func (m *Map) Write(w io.Writer, format string) error {
	switch format {
	case "text", "":
		return m.WriteText(w)
	case "json":
		return m.WriteJSON(w)
	case "rules":
		return m.WriteRules(w)
	case "mermaid":
		return m.WriteMermaid(w)
	case "dot":
		return m.WriteDOT(w)
	}
	return fmt.Errorf("-format=%s is not a format of the map; use one of %s", format, strings.Join(Formats, ", "))
}

// Relative rewrites the positions of the map relative to dir, where they
// are under it.
func (m *Map) Relative(dir string) {
	rel := func(w string) string {
		file, line := splitWhere(w)
		if r, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(r, "..") {
			file = filepath.ToSlash(r)
		}
		return file + ":" + strconv.Itoa(line)
	}
	for _, f := range m.Families {
		for i := range f.Sites {
			f.Sites[i].Where = rel(f.Sites[i].Where)
		}
	}
	for _, e := range m.Edges {
		for i := range e.Uses {
			e.Uses[i].Where = rel(e.Uses[i].Where)
		}
	}
}

// WriteText prints the map for a terminal.
func (m *Map) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "families (%d)\n", len(m.Families))
	for _, f := range m.Families {
		tmpl := f.Template
		if tmpl == "" {
			tmpl = f.Key + " (no template writes it)"
		}
		fmt.Fprintf(&b, "  %s  %s\n", f.Name, tmpl)
		var facts []string
		facts = append(facts, "hashtag "+f.Hashtag)
		if f.Slot != nil {
			facts = append(facts, fmt.Sprintf("slot %d", *f.Slot))
		}
		if f.Origin != "" {
			facts = append(facts, "built by "+f.Origin)
		}
		if len(f.Types) > 0 {
			facts = append(facts, "type "+strings.Join(f.Types, ", "))
		}
		fmt.Fprintf(&b, "    %s\n", strings.Join(facts, "; "))
		if len(f.Commands) > 0 {
			fmt.Fprintf(&b, "    commands: %s\n", commandList(f.Commands))
		}
		fmt.Fprintf(&b, "    built at: %s\n", siteList(f.Sites))
	}
	fmt.Fprintf(&b, "\nedges (%d)\n", len(m.Edges))
	for _, e := range m.Edges {
		fmt.Fprintf(&b, "  %s -- %s  %s\n", e.A, e.B, e.Verdict)
		for _, u := range e.Uses {
			fmt.Fprintf(&b, "    %s %s at %s: %s\n", u.Kind, u.Call, u.Where, u.Verdict)
		}
	}
	fmt.Fprintf(&b, "\ngroups (%d)\n", len(m.Groups))
	for _, g := range m.Groups {
		fmt.Fprintf(&b, "  %s: %s\n", g.Name, strings.Join(g.Families, ", "))
		switch {
		case g.Colocated && g.Hashtag != "":
			fmt.Fprintf(&b, "    share hashtag %s; uses: %s\n", g.Hashtag, g.Verdict)
		case g.Colocated:
			fmt.Fprintf(&b, "    share a slot; uses: %s\n", g.Verdict)
		default:
			fmt.Fprintf(&b, "    do not share a hashtag; uses: %s; %s\n", g.Verdict, g.Fix)
		}
	}
	if m.UnknownKeys > 0 {
		fmt.Fprintf(&b, "\n%d keys of calls are all unknown text and in no family\n", m.UnknownKeys)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func commandList(cmds []Command) string {
	s := make([]string, len(cmds))
	for i, c := range cmds {
		switch {
		case c.Write:
			s[i] = c.Name + " (write)"
		case c.Read:
			s[i] = c.Name + " (read)"
		default:
			s[i] = c.Name
		}
	}
	return strings.Join(s, ", ")
}

// textSites is how many sites of a family the text shows; JSON has all.
const textSites = 8

func siteList(sites []BuiltAt) string {
	s := make([]string, 0, len(sites))
	for _, x := range sites {
		t := x.Where
		if x.Slot >= 0 && !strings.Contains(x.Key, "<") {
			t += fmt.Sprintf(" (%s, slot %d)", strconv.Quote(x.Key), x.Slot)
		}
		if !slices.Contains(s, t) {
			s = append(s, t)
		}
	}
	if len(s) > textSites {
		s = append(s[:textSites], fmt.Sprintf("and %d more", len(s)-textSites))
	}
	return strings.Join(s, ", ")
}

// WriteJSON prints the map as JSON.
func (m *Map) WriteJSON(w io.Writer) error {
	out := *m
	if out.Families == nil {
		out.Families = []*Family{}
	}
	if out.Edges == nil {
		out.Edges = []*Edge{}
	}
	if out.Groups == nil {
		out.Groups = []*Group{}
	}
	for _, f := range out.Families {
		if f.Commands == nil {
			f.Commands = []Command{}
		}
	}
	enc := jsonout.NewEncoder(w)
	return enc.Encode(out)
}

// WriteRules prints the map as a rules file: its families with templates,
// and the groups whose templates prove they share a slot. The others are
// comments that say what to change.
func (m *Map) WriteRules(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# The key families and colocation groups that slotlint keys found in the\n")
	b.WriteString("# code. Check them, rename them as you like, and give the file to\n")
	b.WriteString("# slotlint -rules, slotcheck verify --rules and slotcheck audit --rules.\n")
	b.WriteString("version: 1\n")
	fams := slices.Clone(m.Families)
	// A key is of the first family whose template matches it: constant
	// keys first, then the templates with the most literal text.
	slices.SortStableFunc(fams, func(x, y *Family) int {
		if x.lit != y.lit {
			if x.lit {
				return -1
			}
			return 1
		}
		return literalLen(y.Template) - literalLen(x.Template)
	})
	written := map[string]bool{}
	var lines []string
	for _, f := range fams {
		if f.Template == "" {
			lines = append(lines, fmt.Sprintf("  # %s: %s, built at %s, has no template: its braces are not one hashtag section or it holds bytes a template refuses", f.Name, strconv.Quote(f.Key), f.Sites[0].Where))
			continue
		}
		written[f.Name] = true
		lines = append(lines, fmt.Sprintf("  %s: %s", f.Name, strconv.Quote(f.Template)))
	}
	if len(written) == 0 {
		b.WriteString("families: {}\n")
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	} else {
		b.WriteString("families:\n")
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	var groups []string
	for _, g := range m.Groups {
		ok := g.Colocated
		for _, n := range g.Families {
			ok = ok && written[n]
		}
		if ok {
			groups = append(groups, fmt.Sprintf("  %s: [%s]", g.Name, strings.Join(g.Families, ", ")))
			continue
		}
		groups = append(groups, fmt.Sprintf("  # %s: [%s] are used together (%s) but their templates do not prove they share a slot; %s", g.Name, strings.Join(g.Families, ", "), g.Verdict, g.Fix))
	}
	declared := false
	for _, l := range groups {
		declared = declared || !strings.HasPrefix(l, "  #")
	}
	if declared {
		b.WriteString("groups:\n")
	} else {
		b.WriteString("groups: {}\n")
	}
	for _, l := range groups {
		b.WriteString(l + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func literalLen(t string) int { return len(placeholderRE.ReplaceAllString(t, "")) }

// verdictColor is how the pictures colour an edge.
func verdictColor(v string) string {
	switch v {
	case keyspace.Same.String():
		return "green"
	case keyspace.Different.String():
		return "red"
	}
	return "orange"
}

// edgeLabel names an edge's calls and verdict: "RENAME: different".
func edgeLabel(e *Edge) string {
	var calls []string
	for _, u := range e.Uses {
		if !slices.Contains(calls, u.Call) {
			calls = append(calls, u.Call)
		}
	}
	return strings.Join(calls, ", ") + ": " + e.Verdict
}

// WriteMermaid prints the map as a Mermaid flowchart: families are nodes,
// edges are coloured by verdict.
func (m *Map) WriteMermaid(w io.Writer) error {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	ids := map[string]string{}
	esc := func(s string) string {
		r := strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;")
		return r.Replace(s)
	}
	for i, f := range m.Families {
		ids[f.Name] = "f" + strconv.Itoa(i)
		text := f.Template
		if text == "" {
			text = f.Key
		}
		fmt.Fprintf(&b, "  %s[\"%s<br/>%s\"]\n", ids[f.Name], esc(f.Name), esc(text))
	}
	for _, e := range m.Edges {
		fmt.Fprintf(&b, "  %s ---|\"%s\"| %s\n", ids[e.A], esc(edgeLabel(e)), ids[e.B])
	}
	for i, e := range m.Edges {
		fmt.Fprintf(&b, "  linkStyle %d stroke:%s,stroke-width:2px\n", i, verdictColor(e.Verdict))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDOT prints the map as a Graphviz graph.
func (m *Map) WriteDOT(w io.Writer) error {
	var b strings.Builder
	b.WriteString("graph keyspace {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n")
	q := strconv.Quote
	for _, f := range m.Families {
		text := f.Template
		if text == "" {
			text = f.Key
		}
		fmt.Fprintf(&b, "  %s [label=%s];\n", q(f.Name), q(f.Name+"\n"+text))
	}
	for _, e := range m.Edges {
		fmt.Fprintf(&b, "  %s -- %s [color=%s, label=%s];\n", q(e.A), q(e.B), verdictColor(e.Verdict), q(edgeLabel(e)))
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
