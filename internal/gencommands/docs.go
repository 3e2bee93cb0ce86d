package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// docsPage is the YAML front matter of a command page of Redis's
// documentation (redis/docs, content/commands/*.md), trimmed to what
// gencommands reads. The pages are generated from the command JSON of Redis
// and of its modules, in the shape of COMMAND DOCS: key specs have their
// flags as booleans (RO: true, access: true) and their begin_search and
// find_keys as {type: T, spec: {...}}.
type docsPage struct {
	Title        string      `yaml:"title"` // the command's name, "PARENT SUB" for a subcommand
	Arity        *int        `yaml:"arity"`
	CommandFlags []string    `yaml:"command_flags"`
	Hints        []string    `yaml:"hints"` // command tips
	KeySpecs     []yaml.Node `yaml:"key_specs"`
	Arguments    []jsonArg   `yaml:"arguments"`
	Since        string      `yaml:"since"`
	// Kept for whoever reads the file; gencommands does not use them.
	Group  string `yaml:"group"`
	Module string `yaml:"module"`
}

// keySpecFlags are the key spec flags, in the order Redis lists them.
var keySpecFlags = []string{"RO", "RW", "OW", "RM", "ACCESS", "UPDATE", "INSERT", "DELETE",
	"NOT_KEY", "INCOMPLETE", "VARIABLE_FLAGS"}

// readFrontMatter reads a source's frontmatter.yaml: a mapping of the pages
// by path, each a page's front matter (docsPage). It returns each page's
// command, converted to the command JSON schema that fromJSON reads, and
// the line of each page's entry. A field or a key spec shape that the
// generator does not know is an error naming the file and line.
func readFrontMatter(file string) (pages map[string]map[string]jsonCommand, lines map[string]int, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", file, err)
	}
	if len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("%s: want a mapping of command pages by path", file)
	}
	// Decoding again with KnownFields finds the fields docsPage lacks.
	var all map[string]docsPage
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&all); err != nil {
		return nil, nil, fmt.Errorf("%s: %v (keep only the fields of docsPage in internal/gencommands/docs.go)", file, err)
	}
	pages, lines = map[string]map[string]jsonCommand{}, map[string]int{}
	m := root.Content[0]
	for i := 0; i < len(m.Content); i += 2 {
		k := m.Content[i]
		p := all[k.Value]
		at := func(n *yaml.Node) string { return fmt.Sprintf("%s:%d:%d", file, n.Line, n.Column) }
		lines[k.Value] = k.Line
		if p.Title == "" {
			return nil, nil, fmt.Errorf("%s: page %s has no title, the command's name", at(k), k.Value)
		}
		if want := strings.ReplaceAll(strings.ToLower(p.Title), " ", "-") + ".md"; path.Base(k.Value) != want {
			return nil, nil, fmt.Errorf("%s: page %s has title %q, which is not the command of a page named %s", at(k), k.Value, p.Title, want)
		}
		jc := jsonCommand{
			Since:        p.Since,
			Arity:        p.Arity,
			CommandFlags: p.CommandFlags,
			CommandTips:  p.Hints,
			Arguments:    p.Arguments,
		}
		name := p.Title
		if parent, sub, ok := strings.Cut(p.Title, " "); ok {
			jc.Container, name = parent, sub
		}
		if p.KeySpecs != nil {
			jc.KeySpecs = []jsonKeySpec{}
		}
		for j := range p.KeySpecs {
			n := &p.KeySpecs[j]
			ks, err := docsKeySpec(n)
			if err != nil {
				var ne *nodeError
				if errors.As(err, &ne) {
					n = ne.node
				}
				return nil, nil, fmt.Errorf("%s: page %s: key spec %d: %v", at(n), k.Value, j, err)
			}
			jc.KeySpecs = append(jc.KeySpecs, ks)
		}
		pages[k.Value] = map[string]jsonCommand{name: jc}
	}
	return pages, lines, nil
}

// docsKeySpec converts a key spec of a command page, a mapping of boolean
// flags, begin_search and find_keys, to the command JSON schema. Fields,
// types and flags it does not know are errors, so that a new shape gets a
// rule here instead of wrong key positions.
func docsKeySpec(n *yaml.Node) (jsonKeySpec, error) {
	var ks jsonKeySpec
	if n.Kind != yaml.MappingNode {
		return ks, errAt(n, "want a mapping, not a %s", kindName(n))
	}
	var flags []string
	var haveBS, haveFK bool
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch name := k.Value; {
		case name == "begin_search":
			haveBS = true
			typ, spec, err := docsTyped(v, map[string][]string{
				"index":   {"index"},
				"keyword": {"keyword", "startfrom"},
				"unknown": nil,
			})
			if err != nil {
				return ks, fmt.Errorf("begin_search: %w", err)
			}
			switch typ {
			case "index":
				ks.BeginSearch.Index = &struct {
					Pos int `json:"pos"`
				}{spec["index"].(int)}
			case "keyword":
				kw, ok := spec["keyword"].(string)
				if !ok {
					return ks, errAt(v, "begin_search: the keyword is not a string")
				}
				ks.BeginSearch.Keyword = &struct {
					Keyword   string `json:"keyword"`
					StartFrom int    `json:"startfrom"`
				}{kw, spec["startfrom"].(int)}
			}
		case name == "find_keys":
			haveFK = true
			typ, spec, err := docsTyped(v, map[string][]string{
				"range":   {"lastkey", "keystep", "limit"},
				"keynum":  {"keynumidx", "firstkey", "keystep"},
				"unknown": nil,
			})
			if err != nil {
				return ks, fmt.Errorf("find_keys: %w", err)
			}
			switch typ {
			case "range":
				ks.FindKeys.Range = &struct {
					LastKey int `json:"lastkey"`
					Step    int `json:"step"`
					Limit   int `json:"limit"`
				}{spec["lastkey"].(int), spec["keystep"].(int), spec["limit"].(int)}
			case "keynum":
				ks.FindKeys.KeyNum = &struct {
					KeyNumIdx int `json:"keynumidx"`
					FirstKey  int `json:"firstkey"`
					Step      int `json:"step"`
				}{spec["keynumidx"].(int), spec["firstkey"].(int), spec["keystep"].(int)}
			}
		case slices.Contains(keySpecFlags, strings.ToUpper(name)):
			var set bool
			if err := v.Decode(&set); err != nil || v.Tag != "!!bool" {
				return ks, errAt(v, "flag %s is %q, not true or false", name, v.Value)
			}
			if set {
				flags = append(flags, strings.ToUpper(name))
			}
		default:
			return ks, errAt(k, "field %q, which is neither begin_search, find_keys nor a key spec flag (%s)",
				name, strings.Join(keySpecFlags, ", "))
		}
	}
	if !haveBS || !haveFK {
		return ks, errAt(n, "want both begin_search and find_keys")
	}
	for _, f := range keySpecFlags {
		if slices.Contains(flags, f) {
			ks.Flags = append(ks.Flags, f)
		}
	}
	return ks, nil
}

// docsTyped reads {type: T, spec: {...}}, where T is one of the keys of
// fields and spec has exactly the fields listed for it, integers but for a
// keyword's keyword.
func docsTyped(n *yaml.Node, fields map[string][]string) (typ string, spec map[string]any, err error) {
	if n.Kind != yaml.MappingNode {
		return "", nil, errAt(n, "want {type: T, spec: {...}}, not a %s", kindName(n))
	}
	var specNode *yaml.Node
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "type":
			typ = v.Value
		case "spec":
			specNode = v
		default:
			return "", nil, errAt(k, "field %q, want only type and spec", k.Value)
		}
	}
	want, ok := fields[typ]
	if !ok {
		var known []string
		for t := range fields {
			known = append(known, t)
		}
		slices.Sort(known)
		return "", nil, errAt(n, "type %q, which the generator does not know (it knows %s)", typ, strings.Join(known, ", "))
	}
	spec = map[string]any{}
	if specNode == nil {
		if len(want) > 0 {
			return "", nil, errAt(n, "type %s without a spec", typ)
		}
		return typ, spec, nil
	}
	if specNode.Kind != yaml.MappingNode {
		return "", nil, errAt(specNode, "spec is a %s, not a mapping", kindName(specNode))
	}
	for i := 0; i < len(specNode.Content); i += 2 {
		k, v := specNode.Content[i], specNode.Content[i+1]
		if !slices.Contains(want, k.Value) {
			return "", nil, errAt(k, "%s spec has field %q; want %s", typ, k.Value, strings.Join(want, ", "))
		}
		if typ == "keyword" && k.Value == "keyword" {
			spec[k.Value] = v.Value
			continue
		}
		var x int
		if err := v.Decode(&x); err != nil || v.Tag != "!!int" {
			return "", nil, errAt(v, "%s is %q, not an integer", k.Value, v.Value)
		}
		spec[k.Value] = x
	}
	for _, f := range want {
		if _, ok := spec[f]; !ok {
			return "", nil, errAt(specNode, "%s spec has no %s", typ, f)
		}
	}
	return typ, spec, nil
}

// A nodeError is an error at a node of the YAML file.
type nodeError struct {
	node *yaml.Node
	msg  string
}

func (e *nodeError) Error() string { return e.msg }

func errAt(n *yaml.Node, format string, args ...any) error {
	return &nodeError{n, fmt.Sprintf(format, args...)}
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}
