package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A specSource is one source of the commands that the live server does not
// have (commands newer than it, and module commands): a directory of a
// -specs folder, of files copied from a public repository, or the group of
// rules.yaml's commands that were read from it (see readRecords).
type specSource struct {
	Dir string // the directory in a -specs folder
	// What says where the files come from, for the comment in rules.yaml.
	What string
	// Repo is the repository: in a folder, MANIFEST.tsv's first line.
	Repo string
	// Commands are the commands of the source that the table does not
	// have yet, sorted by name, each with its origin.
	Commands []command
}

// specSources lists the sources in the order they are used: a command is
// taken from the first source that has it, and never when the live server
// has it.
//
// A source is of command JSON files (commands.json, Redis's schema) unless
// docs is set: then it is of the command pages of Redis's documentation,
// whose YAML front matter has the same facts in COMMAND DOCS's shape
// (frontmatter.yaml, see readFrontMatter).
var specSources = []struct {
	dir, what string
	docs      bool
}{
	{"redis", "Redis's own command JSON files (src/commands/*.json), with their key specs", false},
	{"vector-sets", "the command JSON of the vector sets module in Redis's source (modules/vector-sets/commands.json)", false},
	{"redisjson", "RedisJSON's commands.json", false},
	{"valkey-json", "valkey-json's command JSON files (src/commands/*.json), for the JSON commands that the RedisJSON file does not list", false},
	{"redistimeseries", "RedisTimeSeries's commands.json", false},
	{"redis-docs", "the YAML front matter of Redis's command pages (content/commands/*.md), generated there from the command JSON of Redis and its modules, for the commands that no file above has", true},
}

// jsonCommand is a command of a command JSON file, in the schema of Redis's
// src/commands/*.json (which the modules' commands.json files share, but
// for key specs, arity and flags).
type jsonCommand struct {
	Since        string        `json:"since"`
	ModuleSince  string        `json:"module_since"` // valkey-json's name for since
	Arity        *int          `json:"arity"`
	Container    string        `json:"container"`
	CommandFlags []string      `json:"command_flags"`
	CommandTips  []string      `json:"command_tips"`
	ACL          []string      `json:"acl_categories"`
	KeySpecs     []jsonKeySpec `json:"key_specs"`
	Arguments    []jsonArg     `json:"arguments"`
}

type jsonKeySpec struct {
	Flags       []string `json:"flags"`
	BeginSearch struct {
		Index *struct {
			Pos int `json:"pos"`
		} `json:"index"`
		Keyword *struct {
			Keyword   string `json:"keyword"`
			StartFrom int    `json:"startfrom"`
		} `json:"keyword"`
	} `json:"begin_search"`
	FindKeys struct {
		Range *struct {
			LastKey int `json:"lastkey"`
			Step    int `json:"step"`
			Limit   int `json:"limit"`
		} `json:"range"`
		KeyNum *struct {
			KeyNumIdx int `json:"keynumidx"`
			FirstKey  int `json:"firstkey"`
			Step      int `json:"step"`
		} `json:"keynum"`
	} `json:"find_keys"`
}

// jsonArg is an argument of a command, in command JSON files and in the
// front matter of command pages alike.
type jsonArg struct {
	Name      string    `json:"name" yaml:"name"`
	Type      string    `json:"type" yaml:"type"`
	Token     string    `json:"token" yaml:"token"`
	Optional  bool      `json:"optional" yaml:"optional"`
	Multiple  bool      `json:"multiple" yaml:"multiple"`
	Arguments []jsonArg `json:"arguments" yaml:"arguments"`
}

// loadSpecs reads the sources under dir and returns, for each, the
// commands that have (the live table) does not, in the order of
// specSources. A command in two sources is taken from the first.
func loadSpecs(dir string, have []command) ([]specSource, error) {
	var out []specSource
	for _, s := range specSources {
		src, err := loadSource(filepath.Join(dir, s.dir), s.docs)
		if err != nil {
			return nil, err
		}
		src.Dir, src.What = s.dir, s.what
		out = append(out, src)
	}
	return without(out, have), nil
}

// without returns the sources without the commands that have has, and
// without those an earlier source has.
func without(sources []specSource, have []command) []specSource {
	seen := map[string]bool{}
	for _, c := range have {
		seen[c.Name] = true
	}
	var out []specSource
	for _, s := range sources {
		var cmds []command
		for _, c := range s.Commands {
			if !seen[c.Name] {
				seen[c.Name] = true
				cmds = append(cmds, c)
			}
		}
		s.Commands = cmds
		out = append(out, s)
	}
	return out
}

// loadSource reads one source directory: MANIFEST.tsv, whose first line is
// "repository<TAB>owner/name" and whose other lines are "path<TAB>commit",
// and commands.json, an object of the files by path, each the file's JSON
// (an object of its commands by name); with docs, frontmatter.yaml instead
// (see readFrontMatter).
func loadSource(dir string, docs bool) (specSource, error) {
	var src specSource
	mpath := filepath.Join(dir, "MANIFEST.tsv")
	repo, commits, err := readManifest(mpath)
	if err != nil {
		return src, err
	}
	src.Repo = repo
	var files map[string]map[string]jsonCommand
	var cpath string
	// where says where a file's entry is in cpath, for errors.
	where := func(path string) string { return cpath + ": " + path }
	if docs {
		cpath = filepath.Join(dir, "frontmatter.yaml")
		var lines map[string]int
		files, lines, err = readFrontMatter(cpath)
		if err != nil {
			return src, err
		}
		where = func(path string) string { return fmt.Sprintf("%s:%d: %s", cpath, lines[path], path) }
	} else {
		cpath = filepath.Join(dir, "commands.json")
		cdata, err := os.ReadFile(cpath)
		if err != nil {
			return src, err
		}
		if err := json.Unmarshal(cdata, &files); err != nil {
			return src, fmt.Errorf("%s: %v", cpath, err)
		}
	}
	for path := range commits {
		if _, ok := files[path]; !ok {
			return src, fmt.Errorf("%s lists %s, which %s does not have", mpath, path, cpath)
		}
	}
	names := map[string]string{}
	for path, cmds := range files {
		commit, ok := commits[path]
		if !ok {
			return src, fmt.Errorf("%s has %s, which %s does not list with its commit", cpath, path, mpath)
		}
		for name, jc := range cmds {
			c, err := fromJSON(name, jc)
			if err != nil {
				return src, fmt.Errorf("%s: %v", where(path), err)
			}
			if prev, ok := names[c.Name]; ok {
				return src, fmt.Errorf("%s: command %s is in both %s and %s", cpath, c.Name, prev, path)
			}
			names[c.Name] = path
			c.Origin.Repo, c.Origin.Path, c.Origin.Commit = src.Repo, path, commit
			src.Commands = append(src.Commands, c)
		}
	}
	slices.SortFunc(src.Commands, func(a, b command) int { return strings.Compare(a.Name, b.Name) })
	return src, nil
}

// readManifest reads a MANIFEST.tsv: a line "repository<TAB>owner/name",
// and lines "path<TAB>commit", one for each file; lines that start with #
// are comments.
func readManifest(mpath string) (repo string, commits map[string]string, err error) {
	mdata, err := os.ReadFile(mpath)
	if err != nil {
		return "", nil, err
	}
	commits = map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(mdata))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		k, v, ok := strings.Cut(text, "\t")
		switch {
		case !ok || k == "" || v == "":
			return "", nil, fmt.Errorf("%s:%d: want two fields separated by a tab, got %q", mpath, line, text)
		case k == "repository" && !repoRE.MatchString(v):
			return "", nil, fmt.Errorf("%s:%d: repository %q is not owner/name", mpath, line, v)
		case k == "repository":
			repo = v
		case !pathRE.MatchString(k):
			return "", nil, fmt.Errorf("%s:%d: path %q has characters other than letters, digits and _ . - /", mpath, line, k)
		case !commitRE.MatchString(v):
			return "", nil, fmt.Errorf("%s:%d: commit %q is not 40 hex digits", mpath, line, v)
		case commits[k] != "":
			return "", nil, fmt.Errorf("%s:%d: %s is listed twice", mpath, line, k)
		default:
			commits[k] = v
		}
	}
	if repo == "" {
		return "", nil, fmt.Errorf("%s: no repository line", mpath)
	}
	return repo, commits, nil
}

// What a repository, a file's path, a commit and a version may be: the
// records in rules.yaml are read back by these.
var (
	repoRE   = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)
	pathRE   = regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$`)
	commitRE = regexp.MustCompile(`^[0-9a-f]{40}$`)
	sinceRE  = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z.+-]*$`)
)

// fromJSON converts a command of a command JSON file. A command without
// key specs has its keys derived from its arguments' types (Origin.Derived
// is then true, unless it has no key arguments either).
func fromJSON(name string, jc jsonCommand) (c command, err error) {
	c.Name = strings.ToLower(name)
	if jc.Container != "" {
		c.Name = strings.ToLower(jc.Container) + "|" + c.Name
	}
	fail := func(format string, args ...any) (command, error) {
		return c, fmt.Errorf("command %s: %s", c.Name, fmt.Sprintf(format, args...))
	}
	c.Origin.Since = cmp.Or(jc.Since, jc.ModuleSince)
	if c.Origin.Since != "" && !sinceRE.MatchString(c.Origin.Since) {
		return fail("since %q is not a version", c.Origin.Since)
	}
	for _, f := range jc.CommandFlags {
		c.Flags = append(c.Flags, strings.ToLower(f))
	}
	c.setTips(jc.CommandTips, jc.ACL)
	if jc.KeySpecs != nil {
		for i, js := range jc.KeySpecs {
			ks, known, err := fromJSONKeySpec(js)
			if err != nil {
				return fail("key spec %d: %v", i, err)
			}
			if known {
				c.Keys = append(c.Keys, ks)
			} else {
				c.Unknown++
			}
		}
	} else {
		c.Keys, err = deriveKeys(jc.Arguments)
		if err != nil {
			return fail("%v", err)
		}
		c.Origin.Derived = len(c.Keys) > 0
	}
	if jc.Arity != nil {
		c.Arity = *jc.Arity
	} else {
		c.Arity = deriveArity(jc.Arguments)
	}
	return c, nil
}

func fromJSONKeySpec(js jsonKeySpec) (ks keySpec, known bool, err error) {
	for _, f := range js.Flags {
		ks.Flags = append(ks.Flags, strings.ToUpper(f))
	}
	bs, fk := js.BeginSearch, js.FindKeys
	switch {
	case bs.Index != nil && bs.Keyword == nil:
		ks.Index = bs.Index.Pos
	case bs.Keyword != nil && bs.Index == nil:
		if bs.Keyword.Keyword == "" {
			return ks, false, errors.New("begin_search by an empty keyword")
		}
		ks.Keyword, ks.StartFrom = bs.Keyword.Keyword, bs.Keyword.StartFrom
	case bs.Index == nil && bs.Keyword == nil:
		return ks, false, nil // unknown
	default:
		return ks, false, errors.New("begin_search is both by index and by keyword")
	}
	switch {
	case fk.Range != nil && fk.KeyNum == nil:
		ks.LastKey, ks.Step, ks.Limit = fk.Range.LastKey, fk.Range.Step, fk.Range.Limit
	case fk.KeyNum != nil && fk.Range == nil:
		ks.IsKeyNum = true
		ks.KeyNumIdx, ks.FirstKey, ks.Step = fk.KeyNum.KeyNumIdx, fk.KeyNum.FirstKey, fk.KeyNum.Step
	case fk.Range == nil && fk.KeyNum == nil:
		return ks, false, nil // unknown
	default:
		return ks, false, errors.New("find_keys is both a range and keynum")
	}
	return ks, true, nil
}

// deriveKeys finds where a command's keys are from its arguments, for a
// command JSON without key specs. It knows three shapes, which are those of
// the module commands slotlint needs:
//
//   - a key argument at a fixed place: every argument before it is
//     required and of a fixed width;
//   - a multiple key argument followed only by required arguments of a fixed
//     width (JSON.MGET key [key ...] path): the keys run from its place to
//     that many arguments before the end;
//   - a multiple block, the last argument, of required single arguments one
//     of which is a key (TS.MADD {key timestamp value} ...): the keys are
//     every block's key, up to the end.
//
// Any other place of a key argument is an error, so that a new shape gets
// a rule here instead of wrong key positions. Key specs have no flags then.
func deriveKeys(args []jsonArg) ([]keySpec, error) {
	var specs []keySpec
	pos := 1
	for i, a := range args {
		if !slices.ContainsFunc(args[i:], hasKey) {
			break
		}
		switch {
		case a.Type == "key" && a.Optional:
			return nil, fmt.Errorf("key argument %q is optional", a.Name)
		case a.Type == "key" && !a.Multiple:
			specs = append(specs, keySpec{Index: pos, Step: 1})
			pos++
		case a.Type == "key":
			rest := 0
			for _, b := range args[i+1:] {
				w, ok := fixedWidth(b)
				if !ok || hasKey(b) {
					return nil, fmt.Errorf("multiple key argument %q is followed by %q, which is optional, of a variable width or a key", a.Name, argName(b))
				}
				rest += w
			}
			return append(specs, keySpec{Index: pos, LastKey: -(rest + 1), Step: 1}), nil
		case a.Type == "block" && a.Multiple && !a.Optional && a.Token == "" && i == len(args)-1:
			at, width := -1, 0
			for _, m := range a.Arguments {
				w, ok := fixedWidth(m)
				if !ok || m.Type == "block" && hasKey(m) {
					return nil, fmt.Errorf("block %q has %q, which is optional, of a variable width or a nested key", a.Name, argName(m))
				}
				if m.Type == "key" {
					if at >= 0 {
						return nil, fmt.Errorf("block %q has two keys", a.Name)
					}
					at = width
				}
				width += w
			}
			return append(specs, keySpec{Index: pos + at, LastKey: -1, Step: width}), nil
		case hasKey(a):
			return nil, fmt.Errorf("argument %q holds a key in a shape the generator does not know", argName(a))
		default:
			w, ok := fixedWidth(a)
			if !ok {
				return nil, fmt.Errorf("a key comes after %q, which is optional or of a variable width", argName(a))
			}
			pos += w
		}
	}
	return specs, nil
}

func argName(a jsonArg) string {
	if a.Name != "" {
		return a.Name
	}
	return a.Type
}

func hasKey(a jsonArg) bool {
	return a.Type == "key" || slices.ContainsFunc(a.Arguments, hasKey)
}

// fixedWidth returns the number of arguments a required, single argument
// takes. ok is false for optional and multiple arguments, and for a oneof,
// whose choices the width depends on.
func fixedWidth(a jsonArg) (w int, ok bool) {
	if a.Optional || a.Multiple {
		return 0, false
	}
	if a.Token != "" {
		w = 1
	}
	switch a.Type {
	case "pure-token":
		return 1, true
	case "oneof":
		return 0, false
	case "block":
		for _, m := range a.Arguments {
			mw, ok := fixedWidth(m)
			if !ok {
				return 0, false
			}
			w += mw
		}
		return w, true
	}
	return w + 1, true
}

// deriveArity computes a command's arity from its arguments, for a command
// JSON without one: the command name and its required arguments, negative
// when it takes more (optional, multiple or oneof arguments).
func deriveArity(args []jsonArg) int {
	n, more := 1, false
	var walk func(args []jsonArg)
	walk = func(args []jsonArg) {
		for _, a := range args {
			if a.Optional {
				more = true
				continue
			}
			if a.Multiple {
				more = true
			}
			if a.Token != "" && a.Type != "pure-token" {
				n++
			}
			switch a.Type {
			case "block":
				walk(a.Arguments)
			case "oneof":
				more = true
				n++
			default:
				n++
			}
		}
	}
	walk(args)
	if more {
		return -n
	}
	return n
}
