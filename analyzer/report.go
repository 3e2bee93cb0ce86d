package analyzer

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/ruleset"
	"golang.org/x/tools/go/analysis"
)

// A diag is a finding, before suppression and severity are applied.
type diag struct {
	pos, end token.Pos
	category string
	message  string
	related  []analysis.RelatedInformation
}

// ignorePrefix starts a directive that suppresses the finding on its line
// or the line below: //slotlint:ignore <reason>.
const ignorePrefix = "//slotlint:ignore"

type directive struct {
	pos    token.Pos
	reason string
	used   bool
}

// A reporter applies suppression directives, severities and flags to
// findings, and reports directives that are malformed or match nothing.
type reporter struct {
	pass  *analysis.Pass
	rules *ruleset.Rules
	// byLine maps a file's name and a line to the directive that covers it.
	byLine map[string]map[int]*directive
	all    []*directive
}

func newReporter(pass *analysis.Pass, rules *ruleset.Rules) *reporter {
	r := &reporter{pass: pass, rules: rules, byLine: map[string]map[int]*directive{}}
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				r.directive(f, cm)
			}
		}
	}
	return r
}

func (r *reporter) directive(f *ast.File, cm *ast.Comment) {
	text, ok := strings.CutPrefix(cm.Text, ignorePrefix)
	if !ok || text != "" && text[0] != ' ' && text[0] != '\t' {
		return
	}
	// A comment after the directive ("//slotlint:ignore // note") is not
	// its reason.
	text, _, _ = strings.Cut(text, "//")
	d := &directive{pos: cm.Pos(), reason: strings.TrimSpace(text)}
	r.all = append(r.all, d)
	p := r.pass.Fset.Position(cm.Pos())
	lines := r.byLine[p.Filename]
	if lines == nil {
		lines = map[int]*directive{}
		r.byLine[p.Filename] = lines
	}
	// A directive covers its own line, and the next one when it stands alone.
	lines[p.Line] = d
	if _, taken := lines[p.Line+1]; !taken {
		lines[p.Line+1] = d
	}
}

// add reports a finding unless a directive suppresses it, its check is off,
// or the flags leave it out.
func (r *reporter) add(d diag) {
	p := r.pass.Fset.Position(d.pos)
	if dir := r.byLine[p.Filename][p.Line]; dir != nil {
		dir.used = true
		if dir.reason != "" {
			return
		}
	}
	if r.off(d.category) {
		return
	}
	r.pass.Report(analysis.Diagnostic{Pos: d.pos, End: d.end, Category: d.category, URL: pageURL(d.category), Message: d.message, Related: d.related})
}

// pageURL is the address of the page of a finding's check (gopls links
// the finding to it).
func pageURL(category string) string {
	if c, ok := checks.Lookup(category); ok {
		return c.URL()
	}
	return ""
}

// flush reports directives without a reason, and directives that
// suppressed nothing.
func (r *reporter) flush() {
	for _, d := range r.all {
		var msg string
		switch {
		case d.reason == "":
			msg = "slotlint:ignore directive needs a reason: //slotlint:ignore <why the keys are safe>"
		case !d.used:
			msg = "slotlint:ignore directive suppresses no finding; remove it"
		default:
			continue
		}
		if r.off(checks.IgnoreDirective) {
			continue
		}
		r.pass.Report(analysis.Diagnostic{Pos: d.pos, End: d.pos + token.Pos(len(ignorePrefix)), Category: checks.IgnoreDirective, URL: pageURL(checks.IgnoreDirective), Message: msg})
	}
}

// off reports whether a check is turned off: by the -disable flag, by
// -proven-only for maybe-cross-slot, or by its severity in the rules.
func (r *reporter) off(category string) bool {
	return disabled.Has(category) ||
		provenOnly && category == checks.MaybeCrossSlot ||
		r.rules.Severity(category) == ruleset.SeverityOff
}
