package keyspace

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/slotlint/slotlint/slot"
)

func TestParseTemplateErrors(t *testing.T) {
	tests := []struct {
		text string
		col  int
		msg  string
	}{
		{"", 1, "is empty"},
		{"emq:{<queue>:job", 5, "never closed"},
		{"emq:<queue>}:job", 12, "closes no hashtag section"},
		{"emq:{{<queue>}}", 6, "inside the hashtag section"},
		{"a:{x}:{y}", 7, "second hashtag section"},
		{"emq:{}:job", 5, "empty hashtag section"},
		{"emq:<>:job", 5, "empty name"},
		{"emq:<queue:job", 5, "never closed"},
		{"emq:<q>:<q>", 9, "appears twice"},
		{"emq:<1q>", 6, "not an identifier"},
		{"emq:job id", 8, "illegal character"},
		{"emq:q>", 6, "closes no placeholder"},
	}
	for _, tt := range tests {
		_, err := ParseTemplate(tt.text)
		var te *TemplateError
		if !errors.As(err, &te) {
			t.Errorf("ParseTemplate(%q) error = %v, want a *TemplateError", tt.text, err)
			continue
		}
		if te.Col != tt.col || !strings.Contains(te.Msg, tt.msg) {
			t.Errorf("ParseTemplate(%q) = column %d %q, want column %d containing %q", tt.text, te.Col, te.Msg, tt.col, tt.msg)
		}
	}
}

func TestTemplateBuildAndMatch(t *testing.T) {
	job := MustTemplate("emq:{<queue>}:job:<id>")
	if got := job.Names(); strings.Join(got, ",") != "queue,id" {
		t.Fatalf("Names = %v", got)
	}
	key := job.Key("orders", "42")
	if key != "emq:{orders}:job:42" || slot.Of(key) != 105 {
		t.Fatalf("Key = %q (slot %d), want emq:{orders}:job:42 (slot 105)", key, slot.Of(key))
	}
	values, ok := job.Match("emq:{orders}:job:42:x")
	if !ok || values[0] != "orders" || values[1] != "42:x" {
		t.Fatalf("Match = %v, %v", values, ok)
	}
	for _, bad := range []string{"emq:{orders}:pending", "emq:{}:job:1", "emq:{a}b}:job:1", "x" + key} {
		if v, ok := job.Match(bad); ok {
			t.Errorf("Match(%q) = %v, want no match", bad, v)
		}
	}
	// Values that would move the hashtag, or are empty, are errors.
	for _, values := range [][]string{{"or}ders", "1"}, {"{a}", "1"}, {"", "1"}} {
		if k, err := job.Build(values...); err == nil {
			t.Errorf("Build(%q) = %q, want an error", values, k)
		}
	}
	// After the hashtag, braces are harmless.
	if _, err := job.Build("orders", "{x}"); err != nil {
		t.Errorf("Build with braces after the tag: %v", err)
	}
	if _, err := job.Build("orders"); err == nil {
		t.Error("Build with one value of two: no error")
	}
	profile := MustTemplate("user:<uid>:profile")
	if _, err := profile.Build("{x}"); err == nil {
		t.Error("a value that gives an untagged template a hashtag: no error")
	}
	if s, ok := MustTemplate("stats:global").FixedSlot(); !ok || s != slot.Of("stats:global") {
		t.Errorf("FixedSlot of a literal template = %d, %v", s, ok)
	}
	if s, ok := MustTemplate("x:{orders}:<id>").FixedSlot(); !ok || s != 105 {
		t.Errorf("FixedSlot of a literal hashtag = %d, %v", s, ok)
	}
	if _, ok := job.FixedSlot(); ok {
		t.Error("FixedSlot of a template with a placeholder tag: ok")
	}
	if _, ok := profile.FixedSlot(); ok {
		t.Error("FixedSlot of an untagged template with a placeholder: ok")
	}
}

func TestMustTemplatePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "column") {
			t.Fatalf("recover() = %v, want a message naming the column", r)
		}
	}()
	MustTemplate("emq:{<queue>")
}

// An empty value is refused, naming its placeholder: "emq:{orders}:job:" is
// almost always an id that was never set. Match refuses such a key too.
func TestBuildRefusesEmptyValue(t *testing.T) {
	job := MustTemplate("emq:{<queue>}:job:<id>")
	for _, tt := range []struct {
		values []string
		name   string
	}{
		{[]string{"orders", ""}, "<id>"},
		{[]string{"", "42"}, "<queue>"},
		{[]string{"", ""}, "<queue>"},
	} {
		k, err := job.Build(tt.values...)
		if err == nil {
			t.Errorf("Build(%q) = %q, want an error", tt.values, k)
			continue
		}
		if !strings.Contains(err.Error(), "value of "+tt.name+" is empty") {
			t.Errorf("Build(%q) error %q does not name %s as empty", tt.values, err, tt.name)
		}
	}
	for _, key := range []string{"emq:{orders}:job:", "emq:{}:job:42"} {
		if v, ok := job.Match(key); ok {
			t.Errorf("Match(%q) = %q, want no match", key, v)
		}
	}
	if v, ok := MustTemplate("<a>").Match(""); ok {
		t.Errorf(`Match("") = %q, want no match`, v)
	}
}

// Redis keys are binary-safe: Match gives back any bytes Build put in a
// key, newlines, NUL and invalid UTF-8 included, and braces where Build lets
// them be.
func TestMatchBinaryValues(t *testing.T) {
	tests := []struct {
		template string
		values   []string
	}{
		{"<a>", []string{"\n"}},
		{"<a>", []string{"line1\nline2\r\n"}},
		{"emq:{<queue>}:job:<id>", []string{"orders\n", "\x00\xff\xfe"}},
		{"emq:{<queue>}:job:<id>", []string{"a{b", "{x}\n}"}},
		{"<p>{<q>}<r>", []string{"}\n", "\x00{", "{}"}},
		{"user:<uid>:profile", []string{"\xc3\xa9\xff1\x002"}},
	}
	for _, tt := range tests {
		tmpl := MustTemplate(tt.template)
		key, err := tmpl.Build(tt.values...)
		if err != nil {
			t.Errorf("%s.Build(%q): %v", tt.template, tt.values, err)
			continue
		}
		got, ok := tmpl.Match(key)
		if !ok || strings.Join(got, "\x00|") != strings.Join(tt.values, "\x00|") {
			t.Errorf("%s.Match(%q) = %q, %v; want %q", tt.template, key, got, ok, tt.values)
		}
	}
}

// Match takes time linear in the key's length and the template's, whatever
// their shape, so the audit can classify any key.
func TestMatchLargeTemplate(t *testing.T) {
	var text strings.Builder
	values := make([]string, 5000)
	for i := range values {
		fmt.Fprintf(&text, "<p%d>:", i)
		values[i] = "v"
	}
	tmpl := MustTemplate(text.String())
	key := tmpl.Key(values...)
	if got, ok := tmpl.Match(key); !ok || len(got) != len(values) {
		t.Fatalf("Match of a key of 5000 parts: %d values, %v", len(got), ok)
	}
	if got := tmpl.Symbolic().String(); got != text.String() {
		t.Fatalf("Symbolic() = %.40q..., want the template's text", got)
	}
}
