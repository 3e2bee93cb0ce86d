// Package slotlint keeps Redis Cluster keys together: it finds keys that a
// program uses in one command, transaction or script but that may hash to
// different slots. The rules it works from, which arguments of which commands
// and client methods are keys, are in rules.yaml beside this file.
package slotlint

// go generate writes the rules in four steps, in this order: the raw command
// table of rules.yaml from a live Redis, the client methods of rules.yaml from
// the go-redis API, those of rueidis, valkey-go and rueidiscompat from their
// source (the versions in analyzer/testdata/go.mod), and builtin_rules.go,
// the same rules as Go data.
//
//go:generate go run ./internal/gencommands
//go:generate go run ./internal/genmethods
//go:generate go run ./internal/genrueidis
//go:generate go run ./internal/genbuiltin
