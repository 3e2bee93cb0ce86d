package gclplugin

import (
	"maps"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/keyflow/flowpass"
)

// The settings as golangci-lint hands them over: decoded from YAML by
// viper, mappings as map[string]any.
func TestSettingsToFlags(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings any
		want     map[string]string
	}{
		{"none", nil, map[string]string{}},
		{"empty", map[string]any{}, map[string]string{}},
		{"all", map[string]any{
			"rules-file":  "slotlint.yaml",
			"proven-only": true,
			"disable":     []any{"maybe-cross-slot", " lost-update "},
		}, map[string]string{
			"rules":       "slotlint.yaml",
			"proven-only": "true",
			"disable":     "maybe-cross-slot,lost-update",
		}},
		{"disable as a string", map[string]any{"disable": "maybe-cross-slot, copy-db"},
			map[string]string{"disable": "maybe-cross-slot,copy-db"}},
		{"rules as text", map[string]any{"rules": "version: 1\nchecks: {maybe-cross-slot: off}\n"},
			map[string]string{"rules-inline": "version: 1\nchecks: {maybe-cross-slot: off}\n"}},
		{"rules as a mapping", map[string]any{"rules": map[string]any{
			"version": 1,
			"checks":  map[string]any{"maybe-cross-slot": "off"},
		}}, map[string]string{"rules-inline": "checks:\n    maybe-cross-slot: \"off\"\nversion: 1\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := decode(tc.settings)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.flags()
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"rules": "", "rules-inline": "", "proven-only": "false", "disable": ""}
			maps.Copy(want, tc.want)
			if !maps.Equal(got, want) {
				t.Errorf("flags\n\t%q\nwant\n\t%q", got, want)
			}
			for name := range got {
				if analyzer.Analyzer.Flags.Lookup(name) == nil {
					t.Errorf("slotlint has no flag -%s", name)
				}
			}
		})
	}
}

func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings any
		want     string
	}{
		{"unknown", map[string]any{"rulesfile": "x.yaml"}, `unknown field "rulesfile"`},
		{"both", map[string]any{"rules-file": "x.yaml", "rules": "version: 1"}, "not both"},
		{"proven-only", map[string]any{"proven-only": "yes"}, "proven-only"},
		{"disable", map[string]any{"disable": 3}, "disable is a list"},
		{"disable unknown", map[string]any{"disable": []any{"maybe-cross-slot", "los-update"}},
			`slotlint settings: disable: unknown check "los-update" (did you mean lost-update?); the checks are cross-slot, maybe-cross-slot, `},
		{"disable unknown in a string", map[string]any{"disable": "copy-db, nothing"}, `disable: unknown check "nothing"; the checks are `},
		{"rules", map[string]any{"rules": []any{"x"}}, "rules is []interface {}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.settings)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New(%v): %v, want an error with %q", tc.settings, err, tc.want)
			}
		})
	}
}

// BuildAnalyzers sets the analyzer's flags and reports faults in the rules
// at their line and column.
func TestBuildAnalyzers(t *testing.T) {
	defer func() {
		for name, value := range map[string]string{"rules": "", "rules-inline": "", "proven-only": "false", "disable": ""} {
			analyzer.Analyzer.Flags.Set(name, value)
		}
	}()
	newPlugin, err := register.GetPlugin("slotlint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{
		"proven-only": true,
		"disable":     []any{"copy-db"},
		"rules":       "version: 1\nchecks:\n  lost-update: off\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	if mode := p.GetLoadMode(); mode != register.LoadModeTypesInfo {
		t.Errorf("load mode %s", mode)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0] != analyzer.Analyzer {
		t.Fatalf("analyzers %v", as)
	}
	for name, want := range map[string]string{"proven-only": "true", "disable": "cluster-db", "rules": ""} {
		if got := analyzer.Analyzer.Flags.Lookup(name).Value.String(); got != want {
			t.Errorf("-%s = %q, want %q", name, got, want)
		}
	}
	rules, err := flowpass.Rules()
	if err != nil {
		t.Fatal(err)
	}
	if got := rules.Severity("lost-update"); got != "off" {
		t.Errorf("lost-update is %s, want off", got)
	}

	p, err = New(map[string]any{"rules": "version: 1\nchecks:\n  no-such-check: off\n"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.BuildAnalyzers()
	if err == nil || !strings.Contains(err.Error(), `rules-inline:3:3: unknown check "no-such-check"`) {
		t.Errorf("BuildAnalyzers with an unknown check: %v", err)
	}
}
