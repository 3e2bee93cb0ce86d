package main

import (
	"unicode"
	"unicode/utf8"

	"github.com/slotlint/slotlint/checks"
	"github.com/slotlint/slotlint/ruleset"
)

// suppressHelp ends the help of each SARIF rule.
const suppressHelp = "Suppress one finding with a //slotlint:ignore <reason> comment on its line or the line above. " +
	"Set the check's severity (error, warning, off) under checks: in your rules file, or turn it off with -disable."

// sarifRuleFor describes a check for the rules of a SARIF log, from the
// registry of checks, at the severity that the rules give it.
func sarifRuleFor(name string, sev ruleset.Severity) sarifRule {
	r := sarifRule{
		ID:                   name,
		Name:                 name,
		DefaultConfiguration: sarifConfiguration{Enabled: sev != ruleset.SeverityOff, Level: level(sev)},
	}
	c, ok := checks.Lookup(name)
	if !ok {
		// Not a check of the registry, yet a category that the rules or a
		// finding name: the log stays valid all the same.
		r.ShortDescription = sarifMessage{"slotlint check " + name}
		r.FullDescription = sarifMessage{"slotlint check " + name + "."}
		r.Help = sarifMessage{r.FullDescription.Text + "\n\n" + suppressHelp}
		return r
	}
	r.ShortDescription = sarifMessage{sentence(c.Doc)}
	r.FullDescription = sarifMessage{c.Description}
	r.Help = sarifMessage{c.Description + "\n\n" + suppressHelp + "\n\nExamples: " + c.URL()}
	r.HelpURI = c.URL()
	r.Properties = &sarifRuleProperties{Tags: []string{"slotlint", string(c.Family)}}
	return r
}

// sentence capitalizes a check's doc line for a SARIF rule's short
// description, which viewers show as a title.
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
