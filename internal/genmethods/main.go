// Command genmethods writes the clients section of slotlint's rules.yaml: for
// go-redis v9, v8, v7 and v6, every client method that takes keys, with the
// Redis command it sends and selectors for its key parameters, and the
// methods that run scripts, functions, transactions, pipelines and raw
// commands. v7 and v6 take no ctx, so their parameters count from the first
// argument, one less than v8's.
//
// It type-checks the go-redis versions that go.mod pins, from source, and
// walks the methods of their Cmdable interface. A parameter is a key by its
// name (key, keys, destination, source, newkey, store, ...) or as a key field
// of an argument struct (XAddArgs.Stream, ZStore.Keys, XReadArgs.Streams,
// ...); the command is the string literal in the method's code that names
// it. The commands table of rules.yaml (written by internal/gencommands)
// decides which commands take keys: a method is listed when its command is
// in the table and takes keys, and the generator fails when the parameters
// it found do not fit the command's key specs, so that a new irregular
// method gets an override here rather than a wrong rule.
//
// It rewrites only the lines from "# BEGIN GENERATED clients" to
// "# END GENERATED clients". Run it after gencommands; from the module root:
//
//	go run ./internal/genmethods [-o rules.yaml] [-check]
//
// With -check it writes nothing and fails when the section is out of date.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"

	"github.com/slotlint/slotlint/internal/gensection"
	"github.com/slotlint/slotlint/ruleset"
)

func main() {
	out := flag.String("o", "rules.yaml", "the rules file to update")
	check := flag.Bool("check", false, "fail if the section is out of date instead of writing it")
	flag.Parse()
	if err := run(*out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "genmethods:", err)
		os.Exit(1)
	}
}

func run(path string, check bool) error {
	return clientsSection.Update(path, check, func(data []byte) (string, error) {
		return Build(path, data, func(c Client) (*API, error) { return Load(c.Path, ".") })
	})
}

// Build generates the clients section for the rules file data, with the
// APIs that load returns.
func Build(path string, data []byte, load func(Client) (*API, error)) (string, error) {
	cmds, source, err := Commands(path, data)
	if err != nil {
		return "", err
	}
	var tables []*Table
	for _, c := range Clients {
		api, err := load(c)
		if err != nil {
			return "", err
		}
		t, err := Generate(c, api, cmds)
		if err != nil {
			return "", err
		}
		tables = append(tables, t)
	}
	return Format(tables, source), nil
}

const (
	beginCommands = "# BEGIN GENERATED commands"
	endCommands   = "# END GENERATED commands"
	beginClients  = "# BEGIN GENERATED clients"
	endClients    = "# END GENERATED clients"
)

var redisVersionRE = regexp.MustCompile(`Redis (\d+\.\d+\.\d+)`)

// Commands parses the commands section of a rules file. source names where
// the table came from, "(Redis 7.0.15) ", or is "".
func Commands(path string, data []byte) (map[string]*ruleset.Command, string, error) {
	begin, end, err := gensection.Section{Begin: beginCommands, End: endCommands}.Bounds(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", path, err)
	}
	// Keep the lines where they are in the file, for error positions.
	lines := bytes.Count(data[:begin], []byte("\n"))
	doc := append([]byte("version: 1\n"), bytes.Repeat([]byte("\n"), max(lines-1, 0))...)
	doc = append(doc, data[begin:end]...)
	r, err := ruleset.ParseRules(path, doc)
	if err != nil {
		return nil, "", err
	}
	if len(r.Commands) == 0 {
		return nil, "", fmt.Errorf("%s: the commands table is empty; run go run ./internal/gencommands first", path)
	}
	source := ""
	if m := redisVersionRE.FindSubmatch(data[begin:end]); m != nil {
		source = "(Redis " + string(m[1]) + ") "
	}
	return r.Commands, source, nil
}

// clientsSection is the section of rules.yaml that genmethods writes.
var clientsSection = gensection.Section{Name: "clients", Begin: beginClients, End: endClients, Generator: "go run ./internal/genmethods"}

// ReplaceSection replaces the lines from the clients begin marker to the end
// marker, both included, with section.
func ReplaceSection(data []byte, section string) ([]byte, error) {
	return clientsSection.Replace(data, section)
}
