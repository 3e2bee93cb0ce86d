package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/slotlint/slotlint/internal/driver"
	"github.com/slotlint/slotlint/keyflow/flowpass"
	"github.com/slotlint/slotlint/keymap"
)

const keysUsage = `usage: slotlint keys [-format=text|json|rules|mermaid|dot] [-rules=FILE] [-test] PACKAGES

slotlint keys prints the keyspace map of the packages: the key families
their Redis calls build, the commands, transactions and scripts that use
families together with the verdict on whether their keys share a slot,
and the colocation groups that follow. The map covers the packages and
their dependencies in the same modules; a family built in one package and
used in another is one family. Like the standalone linter, it analyses one
package at a time from export data and caches each package's part (in the
same cache directory, $SLOTLINT_CACHE or the user's cache directory).

-format=rules writes a rules file that slotlint -rules, slotcheck verify
--rules and slotcheck audit --rules load as it is.

Exit codes: 0 when the map is written; 1 when a package did not load or
analyse (the map of the others is still written), or on an error; 2 on
bad flags.

Flags:
`

// runKeys runs "slotlint keys ARGS" and returns the exit code.
func runKeys(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("slotlint keys", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: "+strings.Join(keymap.Formats, ", "))
	rules := fs.String("rules", "", "a rules file (YAML) merged over the built-in rules: its families name the map's, its clients and wrappers are followed")
	tests := fs.Bool("test", false, "map the packages' tests too")
	cache := fs.Bool("cache", true, "read and write the cache of each package's part of the map, beside the linter's; -cache=false analyses every package anew")
	fs.Usage = func() {
		fmt.Fprint(stderr, keysUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if !validFormat(*format) {
		fmt.Fprintf(stderr, "slotlint keys: -format=%s is not a format of the map; use one of %s\n", *format, strings.Join(keymap.Formats, ", "))
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "slotlint keys: name the packages to map, such as ./...")
		return 2
	}
	if err := keymap.Analyzer.Flags.Set("rules", *rules); err != nil {
		fmt.Fprintf(stderr, "slotlint keys: %v\n", err)
		return 2
	}
	if _, err := flowpass.Rules(); err != nil {
		printErrorTo(stderr, err)
		return 1
	}
	cfg := keymap.Config{Tests: *tests}
	if *cache {
		dir, err := driver.DefaultCacheDir()
		if err != nil {
			printErrorTo(stderr, err)
			return 1
		}
		cfg.CacheDir = dir
	}
	m, failures, err := keymap.Load(cfg, fs.Args()...)
	if err != nil {
		printErrorTo(stderr, err)
		return 1
	}
	for _, f := range failures {
		fmt.Fprintf(stderr, "slotlint keys: %s\n", f)
	}
	if wd, err := os.Getwd(); err == nil {
		m.Relative(wd)
	}
	if err := m.Write(stdout, *format); err != nil {
		printErrorTo(stderr, err)
		return 1
	}
	if len(failures) > 0 {
		return 1
	}
	return 0
}

func validFormat(f string) bool {
	for _, x := range keymap.Formats {
		if x == f {
			return true
		}
	}
	return false
}

// printErrorTo prints an error as printError does, to w.
func printErrorTo(w io.Writer, err error) {
	if w == os.Stderr {
		printError(err)
		return
	}
	fmt.Fprintf(w, "slotlint keys: %v\n", err)
}
