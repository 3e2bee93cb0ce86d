// Command genbuiltin writes builtin_rules.go: the rule set of rules.yaml as
// Go data, so that slotlint builds its built-in rules without parsing YAML.
//
// Under go vet every package is checked by a process of its own, and parsing
// the 75 KB rules.yaml cost each process that reaches a client library about
// 15 to 25 ms of CPU, more than the analysis of a typical package. rules.yaml
// stays the source: the root package embeds it for -rules output and error
// positions, and TestBuiltinGenerated fails when the Go data no longer equals
// what rules.yaml parses to.
//
// Run it after gencommands and genmethods, which write rules.yaml; rules.go's
// go:generate lines run all three in order. From the module root:
//
//	go run ./internal/genbuiltin [-rules rules.yaml] [-o builtin_rules.go] [-check]
//
// With -check it writes nothing and fails when the file is out of date.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/slotlint/slotlint/ruleset"
)

func main() {
	in := flag.String("rules", "rules.yaml", "the rules file to read")
	out := flag.String("o", "builtin_rules.go", "the Go file to write")
	check := flag.Bool("check", false, "fail if the file is out of date instead of writing it")
	flag.Parse()
	if err := run(*in, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "genbuiltin:", err)
		os.Exit(1)
	}
}

func run(in, out string, check bool) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	rules, err := ruleset.ParseRules("rules.yaml", data)
	if err == nil {
		err = rules.Validate()
	}
	if err != nil {
		return err
	}
	src, err := Generate(rules)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(out)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if bytes.Equal(old, src) {
		return nil
	}
	if check {
		return fmt.Errorf("%s is out of date with %s; run go generate", out, in)
	}
	return os.WriteFile(out, src, 0o644)
}
