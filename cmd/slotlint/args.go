package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/analyzer"
)

// driverFlags are the flags that singlechecker (golang.org/x/tools/go/
// analysis/singlechecker) adds to the analyzer's own, and slotlint's -cache,
// with whether each is boolean. parseArgs needs them to tell flag values
// from package patterns; TestDriverFlags checks them against
// "slotlint -flags".
var driverFlags = map[string]bool{
	"V": true, "flags": true, "json": true, "c": false, "fix": true, "diff": true,
	"test": true, "debug": false, "cpuprofile": false, "memprofile": false, "trace": false,
	// Legacy vet flags, without effect.
	"source": true, "v": true, "all": true, "tags": false,
	"cache": true,
	// slotlint's own, which print and exit (checkinfo.go).
	"list-checks": true, "explain": false,
}

// checkerFlags are the flags that only x/tools' checker, the go/packages
// driver, implements: with one of them slotlint runs it instead of its own
// cached driver. (slotlint suggests no fixes, so -fix and -diff change
// nothing.)
var checkerFlags = []string{"fix", "diff", "debug", "trace"}

// A cmdline is the command line, parsed before singlechecker parses it.
type cmdline struct {
	format string
	// analyzerFlags are the analyzer's flags that were given, by name.
	analyzerFlags map[string]string
	// set holds the names of every flag given; values, their values.
	set    map[string]bool
	values map[string]string
	test   bool
	args   []string
	// vet is true when go vet runs slotlint on one package: the only
	// argument is a *.cfg file.
	vet bool
}

// parseArgs parses the command line as singlechecker will, with values of
// its own, so that main can act on -format, the rules flags and go vet mode
// before singlechecker runs. An error means singlechecker will reject the
// command line too.
func parseArgs(args []string) (*cmdline, error) {
	cl := &cmdline{format: "text", analyzerFlags: map[string]string{}, set: map[string]bool{}, values: map[string]string{}}
	fs := flag.NewFlagSet("slotlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for name, isBool := range driverFlags {
		fs.Var(&anyValue{isBool: isBool}, name, "")
	}
	analyzer.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		fs.Var(&anyValue{isBool: ok && b.IsBoolFlag()}, f.Name, "")
	})
	fs.Func("format", "", func(s string) error {
		if err := (formatFlag{}).check(s); err != nil {
			return err
		}
		cl.format = s
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) {
		cl.set[f.Name] = true
		cl.values[f.Name] = f.Value.String()
		if analyzer.Analyzer.Flags.Lookup(f.Name) != nil {
			cl.analyzerFlags[f.Name] = f.Value.String()
		}
	})
	cl.test = true
	if cl.set["test"] {
		cl.test, _ = strconv.ParseBool(fs.Lookup("test").Value.String())
	}
	cl.args = fs.Args()
	cl.vet = len(cl.args) == 1 && strings.HasSuffix(cl.args[0], ".cfg")
	return cl, nil
}

// analyzes reports whether the command line runs the analysis, rather than
// printing the flags, the version or the usage.
func (cl *cmdline) analyzes() bool {
	return len(cl.args) > 0 && !cl.set["flags"] && !cl.set["V"]
}

// standalone reports whether slotlint's own driver, which caches, runs the
// command line, rather than x/tools' checker.
func (cl *cmdline) standalone() bool {
	if cl.vet || cl.format == "sarif" {
		return false
	}
	for _, name := range checkerFlags {
		if cl.set[name] {
			return false
		}
	}
	return true
}

// boolValue is the value of a boolean flag given, or def.
func (cl *cmdline) boolValue(name string, def bool) bool {
	if !cl.set[name] {
		return def
	}
	b, err := strconv.ParseBool(cl.values[name])
	if err != nil {
		return def
	}
	return b
}

// contextLines is the value of -c, the lines of source to print around
// each finding, or -1 when it is not given or not a number.
func (cl *cmdline) contextLines() int {
	if !cl.set["c"] {
		return -1
	}
	n, err := strconv.Atoi(cl.values["c"])
	if err != nil {
		return -1
	}
	return n
}

// setAnalyzerFlags gives the analyzer the values of its flags, as
// singlechecker will again.
func (cl *cmdline) setAnalyzerFlags() error {
	for name, value := range cl.analyzerFlags {
		if err := analyzer.Analyzer.Flags.Set(name, value); err != nil {
			return fmt.Errorf("-%s: %v", name, err)
		}
	}
	return nil
}

// vetCheck rejects what does not work when go vet runs slotlint.
func (cl *cmdline) vetCheck() error {
	if !cl.vet {
		return nil
	}
	if cl.format == "sarif" {
		return errors.New("-format=sarif needs the whole program in one run; run slotlint -format=sarif ./... outside go vet")
	}
	if file := cl.analyzerFlags["rules"]; file != "" {
		return fmt.Errorf(`-rules does not work under go vet: go vet caches results by the text of the flags, not by the content of the file they name, so results would not follow changes to %[1]s (and go vet runs slotlint in each package's directory). Give the rules' text instead:
	go vet -vettool=$(command -v slotlint) -rules-inline="$(cat %[1]s)" ./...`, file)
	}
	return nil
}

// anyValue takes any value of a flag that parseArgs only needs to skip.
type anyValue struct {
	isBool bool
	value  string
}

func (v *anyValue) String() string     { return v.value }
func (v *anyValue) Set(s string) error { v.value = s; return nil }
func (v *anyValue) IsBoolFlag() bool   { return v.isBool }

// check reports whether s is a format.
func (formatFlag) check(s string) error {
	switch s {
	case "text", "json", "sarif":
		return nil
	}
	return fmt.Errorf("unknown format %q; the formats are text, json and sarif", s)
}
