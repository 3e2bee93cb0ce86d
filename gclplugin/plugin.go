// Package gclplugin makes slotlint a golangci-lint v2 module plugin.
//
// Build a golangci-lint that holds it with "golangci-lint custom" and a
// .custom-gcl.yml such as
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/slotlint/slotlint
//	    import: github.com/slotlint/slotlint/gclplugin
//	    version: latest
//
// and turn it on in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable: [slotlint]
//	  settings:
//	    custom:
//	      slotlint:
//	        type: module
//	        description: Redis Cluster keys of one command must share a slot
//	        settings:
//	          proven-only: false
//	          disable: [maybe-cross-slot]
//	          rules: |
//	            version: 1
//	            families:
//	              job: "emq:{<queue>}:job:<id>"
//
// The settings map onto slotlint's flags; see Settings. Give your rules
// inline, under rules, rather than in a file, under rules-file:
// golangci-lint's cache is keyed on the settings' text, so it does not see
// a change to a file that they name.
package gclplugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/go/analysis"

	"github.com/slotlint/slotlint/analyzer"
	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/keyflow/flowpass"
)

func init() {
	register.Plugin("slotlint", New)
}

// Settings are the plugin's settings, under
// linters.settings.custom.slotlint.settings in .golangci.yml. Each is one
// of slotlint's flags.
type Settings struct {
	// RulesFile is a rules file merged over the built-in rules, as -rules.
	// A relative name is taken from the directory golangci-lint runs in.
	// golangci-lint does not see changes to the file: run
	// "golangci-lint cache clean" after editing it, or use Rules.
	RulesFile string `json:"rules-file"`
	// Rules are rules merged over the built-in ones, as -rules-inline: the
	// text of a rules file (YAML or JSON), or the rules as a mapping. The
	// text is best: golangci-lint lower-cases the keys of mappings in its
	// settings, and they have no order, which breaks wrapper and method
	// names and the order of families.
	Rules any `json:"rules"`
	// ProvenOnly turns off maybe-cross-slot and nothing else, as
	// -proven-only: of the slot findings only keys that provably hash to
	// different slots are reported.
	ProvenOnly bool `json:"proven-only"`
	// Disable lists checks to turn off, as -disable: a list, or one string
	// of names separated by commas. A name that is not a check is an error.
	Disable stringList `json:"disable"`
}

// New is the plugin's constructor, which golangci-lint calls with the
// settings from .golangci.yml.
func New(settings any) (register.LinterPlugin, error) {
	s, err := decode(settings)
	if err != nil {
		return nil, err
	}
	flags, err := s.flags()
	if err != nil {
		return nil, err
	}
	return &plugin{flags: flags}, nil
}

// decode decodes the settings as golangci-lint gives them, rejecting
// unknown ones.
func decode(settings any) (Settings, error) {
	var s Settings
	if settings == nil {
		return s, nil
	}
	data, err := json.Marshal(settings)
	if err != nil {
		return s, fmt.Errorf("slotlint settings: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("slotlint settings: %w (the settings are rules-file, rules, proven-only, disable)", err)
	}
	return s, nil
}

// flags returns the values of every analyzer flag that the settings set,
// by flag name.
func (s Settings) flags() (map[string]string, error) {
	inline, err := rulesText(s.Rules)
	if err != nil {
		return nil, err
	}
	if inline != "" && s.RulesFile != "" {
		return nil, errors.New("slotlint settings: give rules or rules-file, not both")
	}
	var disable []string
	for _, c := range s.Disable {
		if c = strings.TrimSpace(c); c != "" {
			if _, ok := checks.Lookup(c); !ok {
				return nil, fmt.Errorf("slotlint settings: disable: %w", checks.UnknownError(c))
			}
			disable = append(disable, c)
		}
	}
	return map[string]string{
		"rules":        s.RulesFile,
		"rules-inline": inline,
		"proven-only":  strconv.FormatBool(s.ProvenOnly),
		"disable":      strings.Join(disable, ","),
	}, nil
}

// rulesText returns the rules setting as the text of a rules file.
func rulesText(rules any) (string, error) {
	switch r := rules.(type) {
	case nil:
		return "", nil
	case string:
		return r, nil
	case map[string]any:
		data, err := yaml.Marshal(r)
		if err != nil {
			return "", fmt.Errorf("slotlint settings: rules: %w", err)
		}
		return string(data), nil
	}
	return "", fmt.Errorf("slotlint settings: rules is %T; give the text of a rules file, or a mapping", rules)
}

type plugin struct {
	flags map[string]string
}

// BuildAnalyzers sets slotlint's flags from the settings and loads the
// rules, so that a fault in them is reported once, as a configuration
// error, rather than for every package.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	for name, value := range p.flags {
		if err := analyzer.Analyzer.Flags.Set(name, value); err != nil {
			return nil, fmt.Errorf("slotlint settings: %s: %w", name, err)
		}
	}
	if _, err := flowpass.Rules(); err != nil {
		return nil, fmt.Errorf("slotlint rules:\n%w", err)
	}
	return []*analysis.Analyzer{analyzer.Analyzer}, nil
}

// GetLoadMode says that slotlint needs type information.
func (p *plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}

// stringList decodes a JSON list of strings, or a string of items
// separated by commas.
type stringList []string

func (l *stringList) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*l = strings.Split(s, ",")
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return errors.New("disable is a list of check names, or one string of names separated by commas")
	}
	*l = list
	return nil
}
