package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// specsEnv names a folder of copies of the spec files, in the layout that
// -specs reads (see README.md). slotlint does not ship them.
const specsEnv = "SLOTLINT_SPECS_DIR"

// specsDir returns the folder that specsEnv names, and skips the test when
// it names none.
func specsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(specsEnv)
	if dir == "" {
		t.Skipf("%s is not set; set it to a folder of copies of the spec files (internal/gencommands/README.md says how to make one) "+
			"to check that they give rules.yaml's commands; the records in rules.yaml are checked without it", specsEnv)
	}
	return dir
}

// committed returns rules.yaml's generated section, its first line and
// what parseSection reads from it.
func committed(t *testing.T) (section string, first int, version string, live []command, sources []specSource) {
	t.Helper()
	file, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	begin, end, err := findSection(file)
	if err != nil {
		t.Fatalf("%s: %v", rulesFile, err)
	}
	section = string(file[begin:end])
	first = strings.Count(string(file[:begin]), "\n") + 1
	version, live, sources, err = parseSection(rulesFile, first, section)
	if err != nil {
		t.Fatal(err)
	}
	return section, first, version, live, sources
}

var rulesFile = filepath.Join("..", "..", "rules.yaml")

// TestRecordsReproduceSection checks that rules.yaml's records are enough
// to write its generated section again, byte for byte, with no copy of
// the spec files: what go generate does without -specs, given a server of
// the section's version.
func TestRecordsReproduceSection(t *testing.T) {
	section, _, version, live, sources := committed(t)
	if version == "" || len(live) < 200 {
		t.Fatalf("rules.yaml's section is of Redis %q and has %d live commands", version, len(live))
	}
	if got := formatSection(version, live, without(sources, live)); got != section {
		t.Fatalf("the records do not give rules.yaml's section again\n%s", firstDifference(section, got))
	}
	var dirs []string
	for _, s := range sources {
		dirs = append(dirs, s.Dir)
		for _, c := range s.Commands {
			if o := c.Origin; o.Repo != s.Repo || o.Path == "" || o.Commit == "" || o.Since == "" {
				t.Errorf("%s (source %s): origin %+v", c.Name, s.Dir, o)
			}
		}
	}
	if want := []string{"redis", "vector-sets", "redisjson", "valkey-json", "redistimeseries", "redis-docs"}; !reflect.DeepEqual(dirs, want) {
		t.Errorf("sources %v, want %v", dirs, want)
	}
	checkKnownCommands(t, sources)

	// Commands the live table has are not taken from the records.
	for _, s := range without(sources, []command{{Name: "json.mget"}, {Name: "hgetdel"}}) {
		for _, c := range s.Commands {
			if c.Name == "json.mget" || c.Name == "hgetdel" {
				t.Errorf("%s taken from the records of %s, though the live table has it", c.Name, s.Dir)
			}
		}
	}
}

// TestSpecsGiveSection checks that the copies of the spec files in the
// folder specsEnv names give rules.yaml's section, the same that its
// records give (TestRecordsReproduceSection).
func TestSpecsGiveSection(t *testing.T) {
	dir := specsDir(t)
	section, _, version, live, records := committed(t)
	sources, err := loadSpecs(dir, live)
	if err != nil {
		t.Fatal(err)
	}
	fromSpecs := formatSection(version, live, sources)
	fromRecords := formatSection(version, live, without(records, live))
	if fromSpecs != fromRecords {
		t.Fatalf("%s and rules.yaml's records give different sections\n%s", dir, firstDifference(fromRecords, fromSpecs))
	}
	if fromSpecs != section {
		t.Fatalf("%s does not give rules.yaml's section; run go run ./internal/gencommands -specs %s\n%s", dir, dir, firstDifference(section, fromSpecs))
	}
	checkKnownCommands(t, sources)
}

// checkKnownCommands checks what the sources say of the commands that
// slotlint's rules need, from key specs and from arguments.
func checkKnownCommands(t *testing.T, sources []specSource) {
	t.Helper()
	byName := map[string]command{}
	for _, s := range sources {
		for _, c := range s.Commands {
			byName[c.Name] = c
		}
	}
	one := func(i int) keySpec { return keySpec{Index: i, Step: 1} }
	for _, tc := range []struct {
		name string
		keys []keySpec
	}{
		// From key specs.
		{"sunioncard", []keySpec{{Index: 1, IsKeyNum: true, FirstKey: 1, Step: 1, Flags: []string{"RO", "ACCESS"}}}},
		{"lmovem", []keySpec{
			{Index: 1, Step: 1, Flags: []string{"RW", "ACCESS", "DELETE"}},
			{Index: 2, Step: 1, Flags: []string{"RW", "INSERT"}}}},
		{"tdigest.merge", []keySpec{
			{Index: 1, Step: 1, Flags: []string{"RW", "ACCESS", "UPDATE"}},
			{Index: 2, IsKeyNum: true, FirstKey: 1, Step: 1, Flags: []string{"RO", "ACCESS"}}}},
		{"himport|set", []keySpec{{Index: 2, Step: 1, Flags: []string{"OW", "UPDATE"}}}},
		// From the key specs of Redis's command pages (redis-docs).
		{"ts.nrange", []keySpec{{Index: 1, IsKeyNum: true, FirstKey: 1, Step: 1, Flags: []string{"RO", "ACCESS"}}}},
		{"ts.nrevrange", []keySpec{{Index: 1, IsKeyNum: true, FirstKey: 1, Step: 1, Flags: []string{"RO", "ACCESS"}}}},
		{"ts.read", []keySpec{{Index: 1, Step: 1, Flags: []string{"RO"}}}},
		// Derived from the arguments.
		{"json.mget", []keySpec{{Index: 1, LastKey: -2, Step: 1}}},
		{"json.mset", []keySpec{{Index: 1, LastKey: -1, Step: 3}}},
		{"ts.madd", []keySpec{{Index: 1, LastKey: -1, Step: 3}}},
		{"ts.createrule", []keySpec{one(1), one(2)}},
		{"ts.range", []keySpec{one(1)}},
		{"vadd", []keySpec{one(1)}},
		{"vismember", []keySpec{one(1)}},
		{"vrange", []keySpec{one(1)}},
		{"ts.mget", nil},
	} {
		c, ok := byName[tc.name]
		if !ok {
			t.Errorf("%s: not in the sources", tc.name)
			continue
		}
		if !reflect.DeepEqual(c.Keys, tc.keys) {
			t.Errorf("%s: keys %+v, want %+v", tc.name, c.Keys, tc.keys)
		}
		if derived := tc.keys != nil && tc.keys[0].Flags == nil; c.Origin.Derived != derived {
			t.Errorf("%s: derived %v, want %v", tc.name, c.Origin.Derived, derived)
		}
	}
	if c := byName["msetex"]; !c.Split || c.Arity != -4 || !reflect.DeepEqual(c.Flags, []string{"write", "denyoom"}) {
		t.Errorf("msetex: %+v", c)
	}
	// Arity from the arguments: JSON.ARRTRIM key path start stop.
	if c := byName["json.arrtrim"]; c.Arity != 5 {
		t.Errorf("json.arrtrim: arity %d, want 5", c.Arity)
	}
	for name, want := range map[string]origin{
		"hgetdel":    {Repo: "redis/redis", Path: "src/commands/hgetdel.json", Commit: "36a3ef2469137cdf7148f0dba8026e0fbbdc875b", Since: "7.4.0"},
		"json.merge": {Repo: "valkey-io/valkey-json", Path: "src/commands/json.merge.json", Commit: "0db209b92885a2f6b89fb882067d57ca54e208d8", Since: "1.1.0", Derived: true},
		"ts.nrange":  {Repo: "redis/docs", Path: "content/commands/ts.nrange.md", Commit: "261646a4616a9b4da5e32051ea0d8788fd35afb6", Since: "8.10.0"},
	} {
		if got := byName[name].Origin; got != want {
			t.Errorf("%s: origin %+v, want %+v", name, got, want)
		}
	}
}

// TestSourceFolder reads a source folder made here, in the layout -specs
// reads, and checks that the section it gives reads back as the same
// commands with the same origins.
func TestSourceFolder(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const c1, c2 = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	write("MANIFEST.tsv", "# made by the test\nrepository\texample/mod\nsrc/commands/foo.json\t"+c1+"\nsrc/commands/bar.json\t"+c2+"\n")
	write("commands.json", `{
  "src/commands/foo.json": {"FOO": {"since": "1.2.0", "arity": -3, "command_flags": ["WRITE"], "key_specs": [
    {"flags": ["RW", "UPDATE"], "begin_search": {"index": {"pos": 1}}, "find_keys": {"range": {"lastkey": 0, "step": 1, "limit": 0}}},
    {"flags": ["RO"], "begin_search": {"unknown": null}, "find_keys": {"unknown": null}}]}},
  "src/commands/bar.json": {"BAR": {"module_since": "2.0.0", "arguments": [{"name": "key", "type": "key", "multiple": true}, {"name": "path", "type": "string"}]}}
}`)
	src, err := loadSource(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	src.Dir, src.What = specSources[0].dir, specSources[0].what
	want := []command{
		{Name: "bar", Arity: -3, Keys: []keySpec{{Index: 1, LastKey: -2, Step: 1}},
			Origin: origin{Repo: "example/mod", Path: "src/commands/bar.json", Commit: c2, Since: "2.0.0", Derived: true}},
		{Name: "foo", Arity: -3, Flags: []string{"write"}, Keys: []keySpec{{Index: 1, Step: 1, Flags: []string{"RW", "UPDATE"}}}, Unknown: 1,
			Origin: origin{Repo: "example/mod", Path: "src/commands/foo.json", Commit: c1, Since: "1.2.0"}},
	}
	if !reflect.DeepEqual(src.Commands, want) {
		t.Fatalf("commands\n%+v\nwant\n%+v", src.Commands, want)
	}
	section := formatSection("7.0.15", nil, []specSource{src})
	for _, line := range []string{
		"  bar: {arity: -3, keys: [{index: 1, lastkey: -2, step: 1}]}  # since 2.0.0; keys from its arguments; from example/mod src/commands/bar.json@" + c2,
		"  foo: {arity: -3, flags: [write], keys: [{index: 1, lastkey: 0, step: 1, flags: [RW, UPDATE]}]}  # and 1 key spec of unknown position; since 1.2.0; from example/mod src/commands/foo.json@" + c1,
	} {
		if !strings.Contains(section, line+"\n") {
			t.Errorf("the section has no line\n%s\nsection:\n%s", line, section)
		}
	}
	_, live, back, err := parseSection("rules.yaml", 1, section)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 0 || !reflect.DeepEqual(back, []specSource{src}) {
		t.Fatalf("the section reads back as %+v, %+v\nwant %+v", live, back, src)
	}
}

// TestSourceFolderRefuses checks that a source folder whose manifest does
// not match its files, or whose paths the records could not keep, is an
// error naming the file.
func TestSourceFolderRefuses(t *testing.T) {
	const commit = "1111111111111111111111111111111111111111"
	const cmds = `{"a.json": {"A": {"arity": 2}}}`
	for _, tc := range []struct {
		what, manifest, commands, want string
	}{
		{"no repository", "a.json\t" + commit + "\n", cmds, "MANIFEST.tsv: no repository line"},
		{"short commit", "repository\tx/y\na.json\tabc\n", cmds, `MANIFEST.tsv:2: commit "abc" is not 40 hex digits`},
		{"path with a space", "repository\tx/y\na b.json\t" + commit + "\n", cmds, `MANIFEST.tsv:2: path "a b.json" has characters`},
		{"file not listed", "repository\tx/y\n", cmds, "has a.json, which"},
		{"file missing", "repository\tx/y\na.json\t" + commit + "\nb.json\t" + commit + "\n", cmds, "lists b.json, which"},
		{"since not a version", "repository\tx/y\na.json\t" + commit + "\n", `{"a.json": {"A": {"since": "one day"}}}`, `command a: since "one day" is not a version`},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "MANIFEST.tsv"), []byte(tc.manifest), 0o644)
		os.WriteFile(filepath.Join(dir, "commands.json"), []byte(tc.commands), 0o644)
		_, err := loadSource(dir, false)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), dir) {
			t.Errorf("%s: error %v, want one naming a file in %s with %q", tc.what, err, dir, tc.want)
		}
	}
}

// TestParseSectionRefuses checks that records that gencommands cannot read
// back are errors naming the file and line, not lost facts.
func TestParseSectionRefuses(t *testing.T) {
	const commit = "1111111111111111111111111111111111111111"
	head := beginMarker + "\n# Redis 7.0.15. Do not edit this section by hand: run go generate again.\ncommands:\n  get: {arity: 2}\n"
	group := "  # From RedisJSON's commands.json, in x/y (redisjson in a -specs\n  # directory).\n"
	for _, tc := range []struct {
		what, body, want string
	}{
		{"no from", group + "  json.get: {arity: -2}  # since 1.0.0\n", `rules.yaml:9: command json.get: its comment has notes of a source but no "from REPO PATH@COMMIT"`},
		{"no comment", group + "  json.get: {arity: -2}\n", `rules.yaml:9: command json.get of the source redisjson has no "from REPO PATH@COMMIT"`},
		{"short commit", group + "  json.get: {arity: -2}  # from x/y commands.json@abc\n", `rules.yaml:9: command json.get: "from x/y commands.json@abc" is not`},
		{"unknown note", group + "  json.get: {arity: -2}  # new; from x/y commands.json@" + commit + "\n", `rules.yaml:9: command json.get: note "new", which gencommands does not write`},
		{"unknown source", "  # From somewhere (elsewhere in a -specs directory).\n  json.get: {arity: -2}  # from x/y a.json@" + commit + "\n",
			`rules.yaml:8: the comment over json.get: directory "elsewhere" is none of the sources gencommands knows`},
		{"no source comment", "  json.get: {arity: -2}  # from x/y a.json@" + commit + "\n", "rules.yaml:7: command json.get records where it comes from, but no comment"},
		{"two repositories", group + "  json.get: {arity: -2}  # from x/y a.json@" + commit + "\n  json.set: {arity: -4}  # from x/z a.json@" + commit + "\n",
			"rules.yaml:10: command json.set is from x/z, the other commands of the source redisjson from x/y"},
		{"not a command", "  json.get: [1]\n", `rules.yaml:7: want "name: {...}"`},
		{"not a number", "  json.get: {arity: two}\n", "rules.yaml:7: yaml: "},
		{"unknown field", "  json.get: {arity: 2, keyz: []}\n", "rules.yaml:7: yaml: "},
	} {
		section := head + tc.body + endMarker + "\n"
		_, _, _, err := parseSection("rules.yaml", 3, section)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.what, err, tc.want)
		}
	}
}

// TestDeriveKeysRefuses checks that key arguments in shapes the generator
// does not know are errors, not guesses.
func TestDeriveKeysRefuses(t *testing.T) {
	key := jsonArg{Name: "key", Type: "key"}
	for _, tc := range []struct {
		what string
		args []jsonArg
		want string
	}{
		{"optional key", []jsonArg{{Name: "key", Type: "key", Optional: true}}, "optional"},
		{"key after an optional argument", []jsonArg{{Name: "n", Type: "integer", Optional: true}, key}, "variable width"},
		{"key after a oneof", []jsonArg{{Name: "o", Type: "oneof"}, key}, "variable width"},
		{"multiple key before an optional argument", []jsonArg{{Name: "key", Type: "key", Multiple: true}, {Name: "x", Type: "string", Optional: true}}, "followed by"},
		{"block with two keys", []jsonArg{{Name: "b", Type: "block", Multiple: true, Arguments: []jsonArg{key, key}}}, "two keys"},
		{"key in an optional block", []jsonArg{{Name: "b", Type: "block", Optional: true, Arguments: []jsonArg{key}}}, "shape"},
	} {
		_, err := deriveKeys(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.what, err, tc.want)
		}
	}
}

// TestFrontMatter checks the redis-docs source: the commands come from that
// source, the last, only where no other has them, and the source says which
// of its files had no key specs.
func TestFrontMatter(t *testing.T) {
	sources, err := loadSpecs(specsDir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	last := sources[len(sources)-1]
	if last.Dir != "redis-docs" || last.Repo != "redis/docs" {
		t.Fatalf("last source is %s (%s), want redis-docs (redis/docs)", last.Dir, last.Repo)
	}
	var names, derived []string
	for _, c := range last.Commands {
		names = append(names, c.Name)
		if c.Origin.Derived {
			derived = append(derived, c.Name)
		}
	}
	if want := []string{"ts.nrange", "ts.nrevrange", "ts.read", "vismember", "vrange"}; !reflect.DeepEqual(names, want) {
		t.Errorf("redis-docs commands %v, want %v", names, want)
	}
	if want := []string{"vismember", "vrange"}; !reflect.DeepEqual(derived, want) {
		t.Errorf("redis-docs derived %v, want %v", derived, want)
	}
	for _, c := range last.Commands {
		if c.Name == "ts.nrange" && (c.Arity != -5 || !reflect.DeepEqual(c.Flags, []string{"readonly", "module", "movablekeys"})) {
			t.Errorf("ts.nrange: %+v", c)
		}
	}
	section := strings.ReplaceAll(formatSection("7.0.15", nil, sources), "\n  # ", " ")
	if !strings.Contains(section, "in redis/docs (redis-docs in a -specs directory).") ||
		!strings.Contains(section, "The files of VISMEMBER and VRANGE have no key specs") {
		t.Errorf("the section does not name redis-docs and its derived commands:\n%s", section)
	}
}

// TestFrontMatterRefuses checks that front matter in a shape the generator
// does not know is an error naming the file, line and column.
func TestFrontMatterRefuses(t *testing.T) {
	const head = "content/commands/ts.nrange.md:\n  title: TS.NRANGE\n  key_specs:\n    - RO: true\n"
	for _, tc := range []struct {
		what, yaml, want string
	}{
		{"unknown begin_search type", head +
			"      begin_search: {type: pattern, spec: {index: 1}}\n      find_keys: {type: range, spec: {lastkey: 0, keystep: 1, limit: 0}}\n",
			`:5:21: page content/commands/ts.nrange.md: key spec 0: begin_search: type "pattern", which the generator does not know`},
		{"unknown find_keys field", head +
			"      begin_search: {type: index, spec: {index: 1}}\n      find_keys: {type: range, spec: {lastkey: 0, step: 1, limit: 0}}\n",
			`:6:51: page content/commands/ts.nrange.md: key spec 0: find_keys: range spec has field "step"; want lastkey, keystep, limit`},
		{"unknown flag", head + "      fast: true\n",
			`:5:7: page content/commands/ts.nrange.md: key spec 0: field "fast", which is neither begin_search, find_keys nor a key spec flag`},
		{"flag not a boolean", head + "      access: yes please\n",
			`:5:15: page content/commands/ts.nrange.md: key spec 0: flag access is "yes please", not true or false`},
		{"no find_keys", head + "      begin_search: {type: index, spec: {index: 1}}\n",
			`:4:7: page content/commands/ts.nrange.md: key spec 0: want both begin_search and find_keys`},
		{"unknown page field", "content/commands/ts.nrange.md:\n  title: TS.NRANGE\n  summary: Query a range\n",
			"line 3: field summary not found"},
		{"title not the page's", "content/commands/ts.nrange.md:\n  title: TS.RANGE\n",
			`:1:1: page content/commands/ts.nrange.md has title "TS.RANGE", which is not the command of a page named ts.range.md`},
	} {
		file := filepath.Join(t.TempDir(), "frontmatter.yaml")
		if err := os.WriteFile(file, []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := readFrontMatter(file)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), file) {
			t.Errorf("%s: error %v, want one starting with %s and with %q", tc.what, err, file, tc.want)
		}
	}
}

// TestWriteManifests checks that -manifests writes, from rules.yaml's
// records, the manifests of a -specs folder that give each command's file
// at its commit: the same as the manifests of the folder SLOTLINT_SPECS_DIR
// names, when it is set.
func TestWriteManifests(t *testing.T) {
	_, _, _, _, sources := committed(t)
	dir := t.TempDir()
	if err := writeManifests(rulesFile, dir); err != nil {
		t.Fatal(err)
	}
	for _, s := range sources {
		repo, commits, err := readManifest(filepath.Join(dir, s.Dir, "MANIFEST.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, c := range s.Commands {
			want[c.Origin.Path] = c.Origin.Commit
		}
		if repo != s.Repo || !reflect.DeepEqual(commits, want) {
			t.Errorf("%s: manifest of %s with %v, want %s with %v", s.Dir, repo, commits, s.Repo, want)
		}
		if specs := os.Getenv(specsEnv); specs != "" {
			repo2, commits2, err := readManifest(filepath.Join(specs, s.Dir, "MANIFEST.tsv"))
			if err != nil {
				t.Fatal(err)
			}
			if repo2 != repo || !reflect.DeepEqual(commits2, commits) {
				t.Errorf("%s: the manifest in %s differs from the one written from the records", s.Dir, specs)
			}
		}
	}
	if err := writeManifests(rulesFile, dir); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("writing the manifests again: error %v, want one that says a file exists", err)
	}
}
