package main

import (
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
)

// The SARIF that GitHub code scanning requires, decoded independently of
// the types that write it; pointers tell a missing field from a zero one.
type sarifIn struct {
	Schema  *string `json:"$schema"`
	Version *string `json:"version"`
	Runs    []struct {
		Tool *struct {
			Driver *struct {
				Name           *string `json:"name"`
				InformationURI *string `json:"informationUri"`
				Rules          []struct {
					ID                   *string      `json:"id"`
					ShortDescription     *sarifTextIn `json:"shortDescription"`
					FullDescription      *sarifTextIn `json:"fullDescription"`
					Help                 *sarifTextIn `json:"help"`
					DefaultConfiguration *struct {
						Level *string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations []struct {
			ExecutionSuccessful *bool `json:"executionSuccessful"`
		} `json:"invocations"`
		Results []struct {
			RuleID           *string           `json:"ruleId"`
			RuleIndex        *int              `json:"ruleIndex"`
			Level            *string           `json:"level"`
			Message          *sarifTextIn      `json:"message"`
			Locations        []sarifLocationIn `json:"locations"`
			RelatedLocations []sarifLocationIn `json:"relatedLocations"`
		} `json:"results"`
	} `json:"runs"`
}

type sarifTextIn struct {
	Text *string `json:"text"`
}

type sarifLocationIn struct {
	ID               *int         `json:"id"`
	Message          *sarifTextIn `json:"message"`
	PhysicalLocation *struct {
		ArtifactLocation *struct {
			URI       *string `json:"uri"`
			URIBaseID *string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region *struct {
			StartLine   *int `json:"startLine"`
			StartColumn *int `json:"startColumn"`
			EndLine     *int `json:"endLine"`
			EndColumn   *int `json:"endColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

func text(m *sarifTextIn) string {
	if m == nil || m.Text == nil {
		return ""
	}
	return *m.Text
}

// checkLocation checks that a location is a file of the repository, by a
// relative URI, and a region, and returns "uri:line:col".
func checkLocation(t *testing.T, what string, l sarifLocationIn) string {
	t.Helper()
	p := l.PhysicalLocation
	if p == nil || p.ArtifactLocation == nil || p.ArtifactLocation.URI == nil || p.Region == nil {
		t.Errorf("%s: no physicalLocation with artifactLocation.uri and region", what)
		return ""
	}
	uri := *p.ArtifactLocation.URI
	if p.ArtifactLocation.URIBaseID == nil || *p.ArtifactLocation.URIBaseID != "%SRCROOT%" {
		t.Errorf("%s: uriBaseId is not %%SRCROOT%%", what)
	}
	if strings.Contains(uri, ":") || strings.HasPrefix(uri, "/") || strings.Contains(uri, `\`) || !filepath.IsLocal(uri) {
		t.Errorf("%s: uri %q is not relative to the repository root", what, uri)
	}
	r := p.Region
	if r.StartLine == nil || r.StartColumn == nil || r.EndLine == nil || r.EndColumn == nil {
		t.Errorf("%s: region lacks startLine, startColumn, endLine or endColumn", what)
		return uri
	}
	if *r.StartLine < 1 || *r.StartColumn < 1 || *r.EndLine < *r.StartLine || *r.EndLine == *r.StartLine && *r.EndColumn < *r.StartColumn {
		t.Errorf("%s: region %+v is not a region", what, *r)
	}
	return uri + ":" + strconv.Itoa(*r.StartLine) + ":" + strconv.Itoa(*r.StartColumn)
}

func TestSARIFDemo(t *testing.T) {
	bin, root := slotlintBin(t), repoRootDir(t)
	t.Parallel()
	r := run(t, root, nil, bin, "-format=sarif", "./testdata/demo/...")
	if r.code != 0 {
		t.Fatalf("slotlint -format=sarif exited %d, want 0 (findings do not fail it); stderr:\n%s", r.code, r.stderr)
	}
	var log sarifIn
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatalf("the SARIF log does not decode: %v\n%s", err, r.stdout)
	}
	if log.Version == nil || *log.Version != "2.1.0" || log.Schema == nil || !strings.Contains(*log.Schema, "sarif-2.1.0") {
		t.Errorf("version %v, $schema %v; want 2.1.0", log.Version, log.Schema)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool == nil || run.Tool.Driver == nil {
		t.Fatal("no runs[0].tool.driver")
	}
	d := run.Tool.Driver
	if d.Name == nil || *d.Name != "slotlint" || d.InformationURI == nil || !strings.HasPrefix(*d.InformationURI, "https://") {
		t.Errorf("driver name %v, informationUri %v", d.Name, d.InformationURI)
	}
	if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful == nil || !*run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations %+v, want one that succeeded", run.Invocations)
	}

	// A rule for each check, at its severity in the rules.
	rules := slotlint.Builtin()
	var ids []string
	for i, rule := range d.Rules {
		if rule.ID == nil {
			t.Errorf("rules[%d] has no id", i)
			continue
		}
		id := *rule.ID
		ids = append(ids, id)
		if text(rule.ShortDescription) == "" || text(rule.FullDescription) == "" || text(rule.Help) == "" {
			t.Errorf("rule %s lacks shortDescription, fullDescription or help text", id)
		}
		if rule.DefaultConfiguration == nil || rule.DefaultConfiguration.Level == nil {
			t.Errorf("rule %s has no defaultConfiguration.level", id)
		} else if got, want := *rule.DefaultConfiguration.Level, level(rules.Severity(id)); got != want {
			t.Errorf("rule %s: level %s, want %s", id, got, want)
		}
	}
	for check := range rules.Checks {
		if !slices.Contains(ids, check) {
			t.Errorf("no rule for check %s; rules are %q", check, ids)
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
		t.Errorf("rule ids repeat: %q", ids)
	}

	// The results: each names its rule, by id and index, and a place.
	got := map[string]int{} // "ruleId level uri:line:col" to the number of related locations
	for i, res := range run.Results {
		if res.RuleID == nil || res.RuleIndex == nil || res.Level == nil || text(res.Message) == "" {
			t.Errorf("results[%d] lacks ruleId, ruleIndex, level or message.text", i)
			continue
		}
		if *res.RuleIndex < 0 || *res.RuleIndex >= len(ids) || ids[*res.RuleIndex] != *res.RuleID {
			t.Errorf("results[%d]: ruleIndex %d does not index rule %s", i, *res.RuleIndex, *res.RuleID)
		}
		if len(res.Locations) != 1 {
			t.Errorf("results[%d]: %d locations, want 1", i, len(res.Locations))
			continue
		}
		where := checkLocation(t, "results["+strconv.Itoa(i)+"]", res.Locations[0])
		for j, rel := range res.RelatedLocations {
			checkLocation(t, "results["+strconv.Itoa(i)+"].relatedLocations["+strconv.Itoa(j)+"]", rel)
			if rel.ID == nil || text(rel.Message) == "" {
				t.Errorf("results[%d].relatedLocations[%d] lacks id or message", i, j)
			}
		}
		got[*res.RuleID+" "+*res.Level+" "+where] = len(res.RelatedLocations)
	}
	for want, related := range map[string]int{
		"maybe-cross-slot warning testdata/demo/queue/queue.go:63:9": 0,
		"maybe-cross-slot warning testdata/demo/shop/shop.go:23:9":   1,
		"cross-slot error testdata/demo/shop/shop.go:32:9":           0,
		"cross-slot error testdata/demo/shop/shop.go:38:9":           2,
	} {
		n, ok := got[want]
		if !ok {
			t.Errorf("no result %s; the results are %v", want, got)
		} else if n != related {
			t.Errorf("result %s has %d related locations, want %d", want, n, related)
		}
	}
}

// The rules and results of the SARIF log follow the user's severities.
func TestSARIFSeverities(t *testing.T) {
	rules := &ruleset.Rules{Checks: map[string]ruleset.Severity{
		"cross-slot":       ruleset.SeverityError,
		"maybe-cross-slot": ruleset.SeverityWarning,
		"cluster-db":       ruleset.SeverityOff,
	}}
	w := newSARIFWriter(rules, t.TempDir())
	fset := token.NewFileSet()
	f := fset.AddFile("x.go", -1, 100)
	f.SetLines([]int{0, 50})
	w.add(fset, analysis.Diagnostic{Pos: f.Pos(3), Category: "maybe-cross-slot", Message: "m"})
	w.add(fset, analysis.Diagnostic{Pos: f.Pos(3), Category: "maybe-cross-slot", Message: "m"}) // a test variant's copy
	w.add(fset, analysis.Diagnostic{Pos: f.Pos(60), End: f.Pos(70), Category: "lua-syntax", Message: "n"})
	log := w.log(nil)
	got := map[string]sarifConfiguration{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		got[r.ID] = r.DefaultConfiguration
	}
	for id, want := range map[string]sarifConfiguration{
		"cross-slot":       {true, "error"},
		"maybe-cross-slot": {true, "warning"},
		"cluster-db":       {false, "none"},
		"lua-syntax":       {true, "error"}, // a check the rules do not list is an error
	} {
		if got[id] != want {
			t.Errorf("rule %s: %+v, want %+v", id, got[id], want)
		}
	}
	res := log.Runs[0].Results
	if len(res) != 2 {
		t.Fatalf("%d results, want 2: %+v", len(res), res)
	}
	if res[0].RuleID != "maybe-cross-slot" || res[0].Level != "warning" || res[1].Level != "error" ||
		log.Runs[0].Tool.Driver.Rules[res[1].RuleIndex].ID != "lua-syntax" {
		t.Errorf("results %+v", res)
	}
	if r := res[1].Locations[0].PhysicalLocation.Region; r.StartLine != 2 || r.StartColumn != 11 || r.EndLine != 2 || r.EndColumn != 21 {
		t.Errorf("region %+v, want 2:11 to 2:21", r)
	}
}

// The SARIF log has a rule for every check of the registry, in its order,
// described by the registry.
func TestSARIFRulesFromRegistry(t *testing.T) {
	w := newSARIFWriter(slotlint.Builtin(), t.TempDir())
	rules := w.log(nil).Runs[0].Tool.Driver.Rules
	var ids []string
	for _, r := range rules {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, checks.Names()) {
		t.Fatalf("rules %q, want the registry's checks %q", ids, checks.Names())
	}
	for i, c := range checks.All() {
		r := rules[i]
		if !strings.EqualFold(r.ShortDescription.Text, c.Doc) || r.FullDescription.Text != c.Description {
			t.Errorf("rule %s: short %q, full %q; the registry's are %q and %q", c.Name, r.ShortDescription.Text, r.FullDescription.Text, c.Doc, c.Description)
		}
		if r.HelpURI != c.URL() || !strings.HasPrefix(r.Help.Text, c.Description) || !strings.Contains(r.Help.Text, c.URL()) {
			t.Errorf("rule %s: helpUri %q, help %q", c.Name, r.HelpURI, r.Help.Text)
		}
		if r.Properties == nil || !slices.Contains(r.Properties.Tags, string(c.Family)) {
			t.Errorf("rule %s: properties %+v, want the tag %s", c.Name, r.Properties, c.Family)
		}
		if want := (sarifConfiguration{true, string(c.Severity)}); r.DefaultConfiguration != want {
			t.Errorf("rule %s: %+v, want %+v", c.Name, r.DefaultConfiguration, want)
		}
	}
	// A category outside the registry still gets a rule, so that the log
	// stays valid.
	other := w.rules.Severity("no-such-check")
	if r := sarifRuleFor("no-such-check", other); r.ShortDescription.Text == "" || r.Help.Text == "" || r.HelpURI != "" {
		t.Errorf("rule of an unknown category: %+v", r)
	}
}

func TestSARIFLocation(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sub dir", "x.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	// "é" is two bytes and one UTF-16 unit; "𝄞" is four bytes and two.
	if err := os.WriteFile(file, []byte("package x\n\nvar s = \"é𝄞\" + y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := newSARIFWriter(&ruleset.Rules{Checks: map[string]ruleset.Severity{}}, dir)
	col := strings.Index("var s = \"é𝄞\" + y", "y") + 1
	loc := w.location(token.Position{Filename: file, Line: 3, Column: col}, token.Position{})
	if loc.ArtifactLocation.URI != "sub%20dir/x.go" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
		t.Errorf("artifact %+v, want sub%%20dir/x.go under %%SRCROOT%%", loc.ArtifactLocation)
	}
	want := len(`var s = "é𝄞" + `) - 1 - 2 + 1 // é: 2 bytes to 1 unit; 𝄞: 4 bytes to 2 units
	if loc.Region.StartColumn != want || loc.Region.EndColumn != want || loc.Region.EndLine != 3 {
		t.Errorf("region %+v, want column %d on line 3", loc.Region, want)
	}
	outside := w.artifact(filepath.Join(filepath.Dir(dir), "elsewhere.go"))
	if outside.URIBaseID != "" || !strings.HasPrefix(outside.URI, "file:///") {
		t.Errorf("a file outside the root: %+v, want an absolute file URI", outside)
	}
}
