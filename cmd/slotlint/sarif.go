package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/internal/jsonout"
	"github.com/slotlint/slotlint/keyflow/flowpass"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
)

// The SARIF 2.1.0 log, as much of it as slotlint writes. GitHub code
// scanning documents what it reads:
// https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations,omitempty"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                           `json:"columnKind"`
	Results            []sarifResult                    `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string               `json:"id"`
	Name                 string               `json:"name,omitempty"`
	ShortDescription     sarifMessage         `json:"shortDescription"`
	FullDescription      sarifMessage         `json:"fullDescription"`
	Help                 sarifMessage         `json:"help"`
	HelpURI              string               `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration   `json:"defaultConfiguration"`
	Properties           *sarifRuleProperties `json:"properties,omitempty"`
}

// sarifRuleProperties are a rule's properties; GitHub code scanning shows
// the tags, and filters alerts by them.
type sarifRuleProperties struct {
	Tags []string `json:"tags,omitempty"`
}

type sarifConfiguration struct {
	Enabled bool   `json:"enabled"`
	Level   string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

const (
	sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
	srcRoot     = "%SRCROOT%"
)

// runSARIF analyzes the packages of the command line and prints a SARIF log
// on stdout. It returns the exit code: 0 when it has printed the log, with
// or without findings, and 1 when packages or the analysis failed (the log
// then says so, in its invocation, and the errors go to stderr too).
func runSARIF(cl *cmdline) int {
	for _, name := range []string{"json", "fix", "diff", "c"} {
		if cl.set[name] {
			fmt.Fprintf(os.Stderr, "slotlint: -%s does not go with -format=sarif\n", name)
			return 2
		}
	}
	rules, err := flowpass.Rules()
	if err != nil {
		printError(err)
		return 1
	}
	graph, failures, err := driverGraph(cl)
	if err != nil {
		printError(err)
		return 1
	}
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintf(os.Stderr, "slotlint: %v\n", err)
		return 1
	}
	w := newSARIFWriter(rules, root)
	for act := range graph.All() {
		if act.Err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", act.Package.PkgPath, act.Err))
		}
	}
	for _, act := range graph.Roots {
		if act.Err == nil {
			for _, d := range act.Diagnostics {
				w.add(act.Package.Fset, d)
			}
		}
	}
	failures = slices.Compact(slices.Sorted(slices.Values(failures)))
	for _, f := range failures {
		fmt.Fprintln(os.Stderr, f)
	}
	enc := jsonout.NewEncoder(os.Stdout)
	if err := enc.Encode(w.log(failures)); err != nil {
		fmt.Fprintf(os.Stderr, "slotlint: %v\n", err)
		return 1
	}
	if len(failures) > 0 {
		return 1
	}
	return 0
}

// A sarifWriter turns diagnostics into SARIF results.
type sarifWriter struct {
	rules    *ruleset.Rules
	root     string // the repository root, absolute, that URIs are relative to
	ruleList []sarifRule
	ruleIdx  map[string]int
	results  []sarifResult
	seen     map[string]bool
	lines    map[string][][]byte // file contents by line, for UTF-16 columns
}

func newSARIFWriter(rules *ruleset.Rules, root string) *sarifWriter {
	w := &sarifWriter{rules: rules, root: root, ruleIdx: map[string]int{}, seen: map[string]bool{}, lines: map[string][][]byte{}}
	// A rule for every check, in the registry's order, then for any other
	// that the rules name.
	for _, name := range checks.Names() {
		w.rule(name)
	}
	for _, name := range slices.Sorted(maps.Keys(rules.Checks)) {
		w.rule(name)
	}
	return w
}

// rule returns the index of a check's rule, adding it when it is new.
func (w *sarifWriter) rule(category string) int {
	if i, ok := w.ruleIdx[category]; ok {
		return i
	}
	w.ruleIdx[category] = len(w.ruleList)
	w.ruleList = append(w.ruleList, sarifRuleFor(category, w.rules.Severity(category)))
	return len(w.ruleList) - 1
}

// level maps a severity to a SARIF level.
func level(s ruleset.Severity) string {
	switch s {
	case ruleset.SeverityWarning:
		return "warning"
	case ruleset.SeverityOff:
		return "none"
	}
	return "error"
}

func (w *sarifWriter) add(fset *token.FileSet, d analysis.Diagnostic) {
	start, end := fset.Position(d.Pos), fset.Position(d.End)
	key := fmt.Sprintf("%s:%d:%d:%s:%s", start.Filename, start.Line, start.Column, d.Category, d.Message)
	if w.seen[key] { // a file of both a package and its test variant
		return
	}
	w.seen[key] = true
	res := sarifResult{
		RuleID:    d.Category,
		RuleIndex: w.rule(d.Category),
		Level:     level(w.rules.Severity(d.Category)),
		Message:   sarifMessage{d.Message},
		Locations: []sarifLocation{{PhysicalLocation: w.location(start, end)}},
	}
	for i, r := range d.Related {
		id := i + 1
		p := fset.Position(r.Pos)
		res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
			ID:               &id,
			PhysicalLocation: w.location(p, fset.Position(r.End)),
			Message:          &sarifMessage{r.Message},
		})
	}
	w.results = append(w.results, res)
}

// location is a file and region: the URI is relative to the repository
// root, with uriBaseId %SRCROOT%, unless the file is outside it; columns
// count UTF-16 code units, as SARIF's default columnKind says.
func (w *sarifWriter) location(start, end token.Position) sarifPhysicalLocation {
	if !end.IsValid() || end.Filename != start.Filename || end.Line < start.Line {
		end = start
	}
	loc := sarifPhysicalLocation{
		ArtifactLocation: w.artifact(start.Filename),
		Region: sarifRegion{
			StartLine:   start.Line,
			StartColumn: w.column(start),
			EndLine:     end.Line,
			EndColumn:   w.column(end),
		},
	}
	return loc
}

func (w *sarifWriter) artifact(file string) sarifArtifactLocation {
	abs, err := filepath.Abs(file)
	if err != nil {
		return sarifArtifactLocation{URI: escapePath(filepath.ToSlash(file))}
	}
	rel, err := filepath.Rel(w.root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		// The root or the file may be reached through a symbolic link.
		root, err1 := filepath.EvalSymlinks(w.root)
		real, err2 := filepath.EvalSymlinks(abs)
		if err1 != nil || err2 != nil {
			return sarifArtifactLocation{URI: fileURI(abs)}
		}
		if rel, err = filepath.Rel(root, real); err != nil || !filepath.IsLocal(rel) {
			return sarifArtifactLocation{URI: fileURI(abs)}
		}
	}
	return sarifArtifactLocation{URI: escapePath(filepath.ToSlash(rel)), URIBaseID: srcRoot}
}

// column converts a byte column to UTF-16 code units.
func (w *sarifWriter) column(p token.Position) int {
	lines, ok := w.lines[p.Filename]
	if !ok {
		if data, err := os.ReadFile(p.Filename); err == nil {
			lines = bytes.SplitAfter(data, []byte("\n"))
		}
		w.lines[p.Filename] = lines
	}
	if p.Line < 1 || p.Line > len(lines) || p.Column < 1 {
		return max(p.Column, 1)
	}
	line := lines[p.Line-1]
	prefix := line[:min(p.Column-1, len(line))]
	n := 0
	for len(prefix) > 0 {
		r, size := utf8.DecodeRune(prefix)
		n += utf16.RuneLen(r) // an invalid byte decodes as U+FFFD: one unit
		prefix = prefix[size:]
	}
	return n + 1
}

func (w *sarifWriter) log(failures []string) *sarifLog {
	inv := sarifInvocation{ExecutionSuccessful: len(failures) == 0}
	for _, f := range failures {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: "error", Message: sarifMessage{f}})
	}
	driver := sarifDriver{Name: "slotlint", InformationURI: "https://github.com/slotlint/slotlint", Rules: w.ruleList}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		driver.Version = bi.Main.Version
		driver.SemanticVersion = strings.TrimPrefix(bi.Main.Version, "v")
	}
	results := slices.Clone(w.results)
	if results == nil {
		results = []sarifResult{}
	}
	slices.SortStableFunc(results, func(a, b sarifResult) int {
		pa, pb := a.Locations[0].PhysicalLocation, b.Locations[0].PhysicalLocation
		return cmp.Or(
			strings.Compare(pa.ArtifactLocation.URI, pb.ArtifactLocation.URI),
			cmp.Compare(pa.Region.StartLine, pb.Region.StartLine),
			cmp.Compare(pa.Region.StartColumn, pb.Region.StartColumn),
			strings.Compare(a.RuleID, b.RuleID))
	})
	return &sarifLog{
		Schema:  sarifSchema,
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:               sarifTool{Driver: driver},
			Invocations:        []sarifInvocation{inv},
			OriginalURIBaseIDs: map[string]sarifArtifactLocation{srcRoot: {URI: fileURI(w.root) + "/"}},
			ColumnKind:         "utf16CodeUnits",
			Results:            results,
		}},
	}
}

// repoRoot returns the root of the git work tree that holds the current
// directory, or the current directory outside one: the directory that the
// SARIF log's URIs are relative to, as GitHub code scanning expects.
func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd, nil
		}
		dir = parent
	}
}

// fileURI returns the file: URI of an absolute path.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x on Windows
	}
	return "file://" + escapePath(p)
}

// escapePath percent-encodes what a URI path cannot hold.
func escapePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~/!$&'()*+,;=:@", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
