package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// readRecords reads the commands that the rules file at path records from
// spec sources, for a run without -specs, and returns the sources without
// the commands that have (the live table) has. A missing file, or one
// whose section records no sources, gives none.
func readRecords(path string, have []command) ([]specSource, error) {
	file, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	begin, end, err := findSection(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	first := bytes.Count(file[:begin], []byte("\n")) + 1
	_, _, sources, err := parseSection(path, first, string(file[begin:end]))
	if err != nil {
		return nil, err
	}
	return without(sources, have), nil
}

// parseSection reads a generated section back: the Redis version of its
// header, the live server's commands, and the commands of each spec
// source, with the origin that each one's comment records. file and first,
// the file's name and the line the section starts at, are for errors.
//
// A source's commands follow a comment that names its directory (see
// sourceComment); each has a comment of notes separated by "; " (see
// formatCommand), the last of which is "from REPO PATH@COMMIT".
func parseSection(file string, first int, section string) (version string, live []command, sources []specSource, err error) {
	version = sectionVersion(section)
	var comment []string // the comment lines over the next command
	inCommands := false
	for i, line := range strings.Split(strings.TrimSuffix(section, "\n"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		at := fmt.Sprintf("%s:%d", file, first+i)
		switch {
		case line == "commands:":
			inCommands = true
		case !inCommands, line == beginMarker, line == endMarker:
		case strings.HasPrefix(line, "  # "):
			comment = append(comment, strings.TrimPrefix(line, "  # "))
		case strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   "):
			c, err := parseCommandLine(line)
			if err != nil {
				return "", nil, nil, fmt.Errorf("%s: %v", at, err)
			}
			if comment != nil {
				s, err := sourceOf(strings.Join(comment, " "))
				if err != nil {
					return "", nil, nil, fmt.Errorf("%s: the comment over %s: %v", at, c.Name, err)
				}
				sources = append(sources, s)
				comment = nil
			}
			switch {
			case len(sources) == 0 && c.Origin.Repo != "":
				return "", nil, nil, fmt.Errorf("%s: command %s records where it comes from, but no comment over it names its source", at, c.Name)
			case len(sources) == 0:
				live = append(live, c)
			case c.Origin.Repo == "":
				return "", nil, nil, fmt.Errorf(`%s: command %s of the source %s has no "from REPO PATH@COMMIT" in its comment`, at, c.Name, sources[len(sources)-1].Dir)
			default:
				s := &sources[len(sources)-1]
				if s.Repo == "" {
					s.Repo = c.Origin.Repo
				} else if s.Repo != c.Origin.Repo {
					return "", nil, nil, fmt.Errorf("%s: command %s is from %s, the other commands of the source %s from %s", at, c.Name, c.Origin.Repo, s.Dir, s.Repo)
				}
				for _, d := range s.Commands {
					if d.Origin.Path == c.Origin.Path && d.Origin.Commit != c.Origin.Commit {
						return "", nil, nil, fmt.Errorf("%s: command %s is from %s at %s, command %s from the same file at %s",
							at, c.Name, c.Origin.Path, c.Origin.Commit, d.Name, d.Origin.Commit)
					}
				}
				s.Commands = append(s.Commands, c)
			}
		default:
			return "", nil, nil, fmt.Errorf("%s: %q is neither a command nor a comment", at, line)
		}
	}
	for _, s := range sources {
		slices.SortFunc(s.Commands, func(a, b command) int { return strings.Compare(a.Name, b.Name) })
	}
	return version, live, sources, nil
}

// sourceOf finds the spec source that a source's comment names.
func sourceOf(comment string) (specSource, error) {
	m := sourceDirRE.FindStringSubmatch(comment)
	if m == nil {
		return specSource{}, fmt.Errorf("it does not name the source's directory, as in %q", "(redis in a -specs directory).")
	}
	for _, s := range specSources {
		if s.dir == m[1] {
			return specSource{Dir: s.dir, What: s.what}, nil
		}
	}
	var dirs []string
	for _, s := range specSources {
		dirs = append(dirs, s.dir)
	}
	return specSource{}, fmt.Errorf("directory %q is none of the sources gencommands knows (%s)", m[1], strings.Join(dirs, ", "))
}

// parseCommandLine reads a line of the commands table, as formatCommand
// writes it: "  name: {...}", then, optionally, "  # " and the notes.
func parseCommandLine(line string) (command, error) {
	var c command
	data, notes := line, ""
	// The notes have no "}", so a line that ends in one has none.
	if !strings.HasSuffix(line, "}") {
		i := strings.LastIndex(line, "}  # ")
		if i < 0 {
			return c, errors.New(`want "name: {...}", then "  # " and notes, or nothing`)
		}
		data, notes = line[:i+1], line[i+len("}  # "):]
	}
	var entry map[string]yamlCommand
	dec := yaml.NewDecoder(strings.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&entry); err != nil {
		return c, fmt.Errorf("%v (want name: {arity: N, flags: [...], split: true, keys: [...]})", err)
	}
	if len(entry) != 1 {
		return c, errors.New("want one command on the line")
	}
	for name, yc := range entry {
		c = yc.command(name)
	}
	for _, note := range strings.Split(notes, "; ") {
		switch {
		case note == "":
		case strings.HasPrefix(note, "and ") && strings.HasSuffix(note, " of unknown position"):
			n, err := strconv.Atoi(strings.Fields(note)[1])
			if err != nil || n < 1 || c.Unknown != 0 {
				return c, fmt.Errorf("command %s: note %q", c.Name, note)
			}
			c.Unknown = n
		case strings.HasPrefix(note, "since "):
			c.Origin.Since = strings.TrimPrefix(note, "since ")
			if !sinceRE.MatchString(c.Origin.Since) {
				return c, fmt.Errorf("command %s: since %q is not a version", c.Name, c.Origin.Since)
			}
		case note == derivedNote:
			c.Origin.Derived = true
		case strings.HasPrefix(note, "from "):
			repo, file, _ := strings.Cut(strings.TrimPrefix(note, "from "), " ")
			at := strings.LastIndex(file, "@")
			if at < 0 || !repoRE.MatchString(repo) || !pathRE.MatchString(file[:at]) || !commitRE.MatchString(file[at+1:]) {
				return c, fmt.Errorf("command %s: %q is not \"from OWNER/NAME PATH@COMMIT\" with a commit of 40 hex digits", c.Name, note)
			}
			c.Origin.Repo, c.Origin.Path, c.Origin.Commit = repo, file[:at], file[at+1:]
		default:
			return c, fmt.Errorf("command %s: note %q, which gencommands does not write", c.Name, note)
		}
	}
	if c.Origin.Repo == "" && (c.Origin.Since != "" || c.Origin.Derived) {
		return c, fmt.Errorf(`command %s: its comment has notes of a source but no "from REPO PATH@COMMIT"`, c.Name)
	}
	return c, nil
}

// yamlKeySpec and yamlCommand are a command of the table as YAML has it.
type yamlKeySpec struct {
	Index     int      `yaml:"index"`
	Keyword   string   `yaml:"keyword"`
	StartFrom int      `yaml:"startfrom"`
	LastKey   int      `yaml:"lastkey"`
	Step      int      `yaml:"step"`
	Limit     int      `yaml:"limit"`
	KeyNum    *int     `yaml:"keynum"`
	FirstKey  int      `yaml:"firstkey"`
	Flags     []string `yaml:"flags"`
}

type yamlCommand struct {
	Arity        int           `yaml:"arity"`
	Flags        []string      `yaml:"flags"`
	Split        bool          `yaml:"split"`
	Policy       string        `yaml:"policy"`
	KeyspaceWide bool          `yaml:"keyspace-wide"`
	Keys         []yamlKeySpec `yaml:"keys"`
}

// command converts yc to the generator's terms.
func (yc yamlCommand) command(name string) command {
	c := command{Name: name, Arity: yc.Arity, Flags: yc.Flags, Split: yc.Split, Policy: yc.Policy, KeyspaceWide: yc.KeyspaceWide}
	for _, yk := range yc.Keys {
		ks := keySpec{Index: yk.Index, Keyword: yk.Keyword, StartFrom: yk.StartFrom, Step: yk.Step, Flags: yk.Flags}
		if yk.KeyNum != nil {
			ks.IsKeyNum, ks.KeyNumIdx, ks.FirstKey = true, *yk.KeyNum, yk.FirstKey
		} else {
			ks.LastKey, ks.Limit = yk.LastKey, yk.Limit
		}
		c.Keys = append(c.Keys, ks)
	}
	return c
}

// writeManifests writes dir/SOURCE/MANIFEST.tsv for each source that the
// rules file at path records: the repository and each file's path and
// commit, the start of a folder for -specs. It refuses to overwrite a
// manifest.
func writeManifests(path, dir string) error {
	file, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	begin, end, err := findSection(file)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	first := bytes.Count(file[:begin], []byte("\n")) + 1
	_, _, sources, err := parseSection(path, first, string(file[begin:end]))
	if err != nil {
		return err
	}
	if len(sources) == 0 {
		return fmt.Errorf("%s records no commands from spec sources", path)
	}
	for _, s := range sources {
		sub := filepath.Join(dir, s.Dir)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(filepath.Join(sub, "MANIFEST.tsv"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, werr := f.WriteString(manifest(s))
		if err := cmp.Or(werr, f.Close()); err != nil {
			return err
		}
	}
	return nil
}

// manifest renders a source's MANIFEST.tsv: its repository, then each
// file that its commands were read from, at its commit, in the order of
// the commands.
func manifest(s specSource) string {
	var b strings.Builder
	b.WriteString("# The repository, then each file and the commit to copy it from, as\n")
	b.WriteString("# rules.yaml records them (gencommands -manifests).\n")
	b.WriteString("repository\t" + s.Repo + "\n")
	seen := map[string]bool{}
	for _, c := range s.Commands {
		if o := c.Origin; !seen[o.Path] {
			seen[o.Path] = true
			b.WriteString(o.Path + "\t" + o.Commit + "\n")
		}
	}
	return b.String()
}
