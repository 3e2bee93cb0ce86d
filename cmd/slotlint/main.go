// Command slotlint checks that Redis multi-key commands issued through
// go-redis keep their keys in one Redis Cluster slot.
//
// It runs standalone, as "slotlint ./...", or under go vet, as
// "go vet -vettool=$(command -v slotlint) ./...".
//
// Output formats, chosen with -format:
//
//	text   findings on stderr, one per line, file:line:col: message (the default)
//	json   x/tools' JSON tree on stdout, the same as -json
//	sarif  a SARIF 2.1.0 log on stdout, for GitHub code scanning and other viewers
//
// Exit codes: 0 when nothing is found; 3 when the text format reports
// findings; 1 on an error, such as packages that do not load or a rules
// file that does not (its faults are printed as file:line:col: message);
// 2 on bad flags. The json and sarif formats exit 0 when they have written
// their output, findings or not, and 1 on an error.
//
// Under go vet give user rules with -rules-inline="$(cat slotlint.yaml)":
// go vet caches its results by the flags' text, so a file named by -rules
// could change without go vet noticing, and slotlint rejects -rules there.
// -format=sarif is for standalone runs only.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() {
	flag.Var(formatFlag{}, "format", "output format: text, json (the same as -json) or sarif")
	cl, err := parseArgs(os.Args[1:])
	if err != nil {
		// singlechecker parses the same flags and says what is wrong.
		singlechecker.Main(analyzer.Analyzer)
		return
	}
	if cl.analyzes() {
		if err := cl.setAnalyzerFlags(); err != nil {
			fmt.Fprintf(os.Stderr, "slotlint: %v\n", err)
			os.Exit(2)
		}
		// Check the command line and load the rules once, here: a fault
		// would otherwise be reported by every package and then, as a
		// failed prerequisite, by every package that imports it.
		err := cl.vetCheck()
		if err == nil {
			_, err = analyzer.Rules()
		}
		if err != nil {
			if cl.vet && vetxOnly(cl.args[0]) {
				// go vet also runs slotlint on every dependency, for its
				// facts, standard library included; leave the message to
				// the packages that go vet was asked to check. Without a
				// facts file, go vet does not cache this run.
				os.Exit(0)
			}
			printError(err)
			os.Exit(1)
		}
		if cl.format == "sarif" {
			os.Exit(runSARIF(cl))
		}
	}
	singlechecker.Main(analyzer.Analyzer)
}

// vetxOnly reports whether go vet runs slotlint on a package only for the
// facts that its importers need, not for findings.
func vetxOnly(cfgFile string) bool {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return false
	}
	var cfg struct{ VetxOnly bool }
	return json.Unmarshal(data, &cfg) == nil && cfg.VetxOnly
}

// printError prints an error; faults in the rules one a line, as
// file:line:col: message, so that editors can jump to them.
func printError(err error) {
	if re, ok := errors.AsType[*ruleset.RulesError](err); ok {
		fmt.Fprintln(os.Stderr, re.Error())
		return
	}
	fmt.Fprintf(os.Stderr, "slotlint: %v\n", err)
}

// formatFlag is -format as singlechecker sees it: json turns on -json; sarif
// never reaches singlechecker, main runs it.
type formatFlag struct{}

func (formatFlag) String() string { return "text" }

func (f formatFlag) Set(s string) error {
	if err := f.check(s); err != nil {
		return err
	}
	if s == "json" {
		return flag.Set("json", "true")
	}
	return nil
}
