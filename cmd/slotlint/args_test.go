package main

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		format   string
		flags    map[string]string
		rest     []string
		vet      bool
		test     bool
		analyzes bool
	}{
		{[]string{"./..."}, "text", nil, []string{"./..."}, false, true, true},
		{[]string{"-rules", "x.yaml", "-proven-only", "./a", "./b"}, "text",
			map[string]string{"rules": "x.yaml", "proven-only": "true"}, []string{"./a", "./b"}, false, true, true},
		{[]string{"-c", "2", "-format=sarif", "-test=0", "--disable=copy-db", "./..."}, "sarif",
			map[string]string{"disable": "copy-db"}, []string{"./..."}, false, false, true},
		// A flag after the first package pattern is a package pattern.
		{[]string{"./...", "-rules", "x.yaml"}, "text", nil, []string{"./...", "-rules", "x.yaml"}, false, true, true},
		// go vet: flags, then one config file.
		{[]string{"-json", "-rules-inline=version: 1", "/tmp/b001/vet.cfg"}, "text",
			map[string]string{"rules-inline": "version: 1"}, []string{"/tmp/b001/vet.cfg"}, true, true, true},
		{[]string{"-V=full"}, "text", nil, nil, false, true, false},
		{[]string{"-flags"}, "text", nil, nil, false, true, false},
		{[]string{"-format", "json", "./..."}, "json", nil, []string{"./..."}, false, true, true},
	} {
		cl, err := parseArgs(tc.args)
		if err != nil {
			t.Errorf("parseArgs(%q): %v", tc.args, err)
			continue
		}
		if tc.flags == nil {
			tc.flags = map[string]string{}
		}
		if cl.format != tc.format || !maps.Equal(cl.analyzerFlags, tc.flags) || !slices.Equal(cl.args, tc.rest) ||
			cl.vet != tc.vet || cl.test != tc.test || cl.analyzes() != tc.analyzes {
			t.Errorf("parseArgs(%q) = format %s, flags %q, args %q, vet %v, test %v, analyzes %v; want %s, %q, %q, %v, %v, %v",
				tc.args, cl.format, cl.analyzerFlags, cl.args, cl.vet, cl.test, cl.analyzes(),
				tc.format, tc.flags, tc.rest, tc.vet, tc.test, tc.analyzes)
		}
	}
	for _, args := range [][]string{{"-no-such-flag", "./..."}, {"-format=xml", "./..."}, {"-h"}} {
		if _, err := parseArgs(args); err == nil {
			t.Errorf("parseArgs(%q) succeeded", args)
		}
	}
}

// slotlint -h names the keys subcommand, which singlechecker's usage does
// not know of.
func TestHelpNamesKeys(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-h"}, true},
		{[]string{"-json", "-help"}, true},
		{[]string{"--help"}, true},
		{[]string{"./...", "-h"}, false},
		{[]string{"-json", "./..."}, false},
		{[]string{"--", "-h"}, false},
	} {
		if got := asksHelp(c.args); got != c.want {
			t.Errorf("asksHelp(%q) = %v, want %v", c.args, got, c.want)
		}
	}
	if !strings.Contains(keysHint, "slotlint keys") {
		t.Errorf("keysHint %q does not name slotlint keys", keysHint)
	}
}
