// Package ruleset is the rules file of slotlint: its schema (Rules, the
// client methods and raw commands whose arguments are keys, the key families
// and colocation groups, the checks' severities) and its loader, which
// reads rules.yaml and users' files and reports every fault as
// file:line:col.
//
// It is kept apart from keyspace so that code which only builds keys with
// keyspace templates does not pull in a YAML parser.
package ruleset
