// Command slotlint checks that Redis multi-key commands issued through
// go-redis keep their keys in one Redis Cluster slot.
//
// It runs standalone, as "slotlint ./...", or under go vet, as
// "go vet -vettool=$(command -v slotlint) ./...". "slotlint keys PACKAGES"
// prints the keyspace map of the packages instead of findings (keys.go).
//
// Standalone, it analyses one package at a time, in dependency order, with
// the types of each package's dependencies taken from their export data,
// and caches every package's facts and findings (package internal/driver).
// The cache is in the slotlint directory of the user's cache directory
// ($XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS,
// %LocalAppData% on Windows), or in $SLOTLINT_CACHE when it is set. A
// package's entry is keyed by its files, its dependencies' keys, the
// rules, the flags and the slotlint executable, so a rerun with nothing
// changed only reads the cache. -cache=false bypasses the cache (it
// neither reads nor writes it); removing the directory clears it. Entries
// that no run read for a week are removed, at most once a day.
// -format=sarif runs the same driver. -fix, -diff, -debug and -trace run
// x/tools' checker instead, which loads every package at once and caches
// nothing.
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
// Under go vet, slotlint analyses the package of each run with the same
// package's driver (driver.Vet): the dependencies' types come from the
// compiler's export data that go vet names, and the facts file that go vet
// hands to the importers holds facts only, where x/tools' unitchecker
// writes every package's types there too, which the go command then hashes
// on every run. Under go vet -fix or -diff, and when go vet gives no export
// data, unitchecker runs instead.
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
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/internal/driver"
	"github.com/slotlint/slotlint/keyflow"
	"github.com/slotlint/slotlint/keyflow/flowpass"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "keys" {
		os.Exit(runKeys(os.Args[2:], os.Stdout, os.Stderr))
	}
	if asksHelp(os.Args[1:]) {
		// singlechecker's usage speaks of the analyzer alone.
		fmt.Fprint(os.Stderr, keysHint)
	}
	flag.Var(formatFlag{}, "format", "output format: text, json (the same as -json) or sarif")
	flag.Bool("cache", true, "standalone: read and write the cache of each package's results; -cache=false analyses every package anew")
	flag.Bool("list-checks", false, "print the checks, with their default severities, and exit")
	flag.String("explain", "", "print the page of the check `NAME`: what a finding means, bad and good code, how to turn it off; and exit")
	cl, err := parseArgs(os.Args[1:])
	if err != nil {
		// singlechecker parses the same flags and says what is wrong.
		singlechecker.Main(analyzer.Analyzer)
		return
	}
	if cl.set["list-checks"] || cl.set["explain"] {
		os.Exit(checkInfo(cl, os.Stdout, os.Stderr))
	}
	if cl.values["V"] == "full" && printVersion(os.Stdout) {
		// go vet asks this at every run; see version.go.
		os.Exit(0)
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
			_, err = flowpass.Rules()
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
		if cl.standalone() {
			os.Exit(runStandalone(cl))
		}
		if cl.vet {
			if os.Getenv("GOGC") == "" {
				// go vet runs one slotlint per package, as many at once
				// as there are CPUs: a heap that grows 80% between
				// collections, not 100%, keeps their peak at about plain
				// go vet's for a few percent more CPU (BENCHMARKS.md). GOGC
				// set by the user wins.
				debug.SetGCPercent(vetGCPercent)
			}
			if cfg := cl.vetConfig(); cfg != nil {
				os.Exit(driver.Vet(cfg, analyzer.Analyzer, driver.VetOptions{
					JSON:         cl.format == "json" || cl.boolValue("json", false),
					ContextLines: cl.contextLines(),
					Idle:         standardPackage,
				}))
			}
		}
	}
	singlechecker.Main(analyzer.Analyzer)
}

// standardPackage reports whether go vet's package is one of the standard
// library's, whose imports are too: slotlint exports no facts there
// (keyflow.StandardFile), so that when go vet analyses it for its facts
// alone, as it does every dependency of the packages it checks, there is
// nothing to compute.
func standardPackage(cfg *driver.VetConfig) bool {
	return slices.ContainsFunc(cfg.GoFiles, keyflow.StandardFile)
}

// vetGCPercent is the garbage collector's target under go vet.
const vetGCPercent = 80

// vetDriver, when set to "unitchecker" at link time (-ldflags
// "-X main.vetDriver=unitchecker"), leaves every package under go vet to
// x/tools' unitchecker: the tests compare the two drivers' output.
var vetDriver string

// vetConfig returns go vet's description of the package when slotlint's
// own go vet driver (driver.Vet) analyses it, or nil when x/tools'
// unitchecker does: with -fix or -diff, which it implements, and when go
// vet gave no compiler export data (driver.VetConfig.HasExportData). The
// choice is the same for every package of a go vet run, which share their
// flags and their go command, so that every facts file is read by the
// driver that wrote it, or by Vet, which reads unitchecker's files too.
func (cl *cmdline) vetConfig() *driver.VetConfig {
	if vetDriver == "unitchecker" || cl.set["fix"] || cl.set["diff"] {
		return nil
	}
	cfg, err := driver.ReadVetConfig(cl.args[0])
	if err != nil || !cfg.HasExportData() {
		return nil // unitchecker says what is wrong with the file
	}
	return cfg
}

// keysHint names the keys subcommand above singlechecker's usage.
const keysHint = "slotlint keys [-format=text|json|rules|mermaid|dot] [-rules=FILE] PACKAGES\n" +
	"prints the keyspace map of the packages instead of findings; see \"slotlint keys -h\".\n\n"

// asksHelp reports whether the flags before the first package ask for the
// usage.
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help", "--h":
			return true
		case "--":
			return false
		}
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return false
}

// runStandalone analyses the packages of the command line with slotlint's
// caching driver and prints the findings as singlechecker would: text on
// stderr, or x/tools' JSON tree on stdout. It returns the exit code: 1
// when a package did not load or analyse, else 3 when the text format
// printed findings, else 0.
func runStandalone(cl *cmdline) int {
	if file := cl.values["cpuprofile"]; file != "" {
		f, err := os.Create(file)
		if err != nil {
			printError(err)
			return 1
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			printError(err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	if file := cl.values["memprofile"]; file != "" {
		defer func() {
			f, err := os.Create(file)
			if err == nil {
				runtime.GC()
				err = pprof.WriteHeapProfile(f)
				f.Close()
			}
			if err != nil {
				printError(err)
			}
		}()
	}
	if _, err := strconv.Atoi(cl.values["c"]); cl.set["c"] && err != nil {
		fmt.Fprintf(os.Stderr, "slotlint: -c=%s: not a number of lines\n", cl.values["c"])
		return 2
	}
	contextLines := cl.contextLines()
	res, err := runDriver(cl)
	if err != nil {
		printError(err)
		return 1
	}
	code := 0
	if cl.format == "json" || cl.boolValue("json", false) {
		for _, f := range res.Failures {
			fmt.Fprintf(os.Stderr, "slotlint: %s\n", f)
		}
		if err := res.PrintJSON(os.Stdout, analyzer.Analyzer); err != nil {
			printError(err)
			return 1
		}
	} else {
		if err := res.PrintText(os.Stderr, analyzer.Analyzer, contextLines); err != nil {
			printError(err)
			return 1
		}
		if res.Count() > 0 {
			code = 3
		}
	}
	if len(res.Failures) > 0 {
		code = 1
	}
	return code
}

// runDriver analyses the packages of the command line with slotlint's
// caching driver.
func runDriver(cl *cmdline) (*driver.Result, error) {
	cfg := &driver.Config{Analyzer: analyzer.Analyzer, Tests: cl.test}
	if cl.boolValue("cache", true) {
		dir, err := driver.DefaultCacheDir()
		if err != nil {
			return nil, err
		}
		cfg.CacheDir = dir
	}
	salt, err := cl.salt()
	if err != nil {
		return nil, err
	}
	cfg.Salt = salt
	return driver.Run(cfg, cl.args...)
}

// driverGraph analyses the packages of the command line with slotlint's
// caching driver, for -format=sarif: the findings as x/tools' checker
// gives them, and the packages that failed, one line each.
func driverGraph(cl *cmdline) (*checker.Graph, []string, error) {
	res, err := runDriver(cl)
	if err != nil {
		return nil, nil, err
	}
	g := res.Graph(analyzer.Analyzer)
	g.Roots = slices.DeleteFunc(g.Roots, func(act *checker.Action) bool { return act.Err != nil })
	return g, res.Failures, nil
}

// salt is what, besides the packages' files and slotlint itself, the
// results depend on: the analyzer's flags given, and the content of the
// rules file.
func (cl *cmdline) salt() ([]byte, error) {
	var b []byte
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for name := range cl.analyzerFlags {
			if !yield(name) {
				return
			}
		}
	}) {
		b = fmt.Appendf(b, "-%s=%q\n", name, cl.analyzerFlags[name])
	}
	data, err := flowpass.RulesFile()
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(b, "rules %d\n%s", len(data), data), nil
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
