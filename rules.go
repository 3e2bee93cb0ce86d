// Package slotlint keeps Redis Cluster keys together: it finds keys that a
// program uses in one command, transaction or script but that may hash to
// different slots. The rules it works from, which arguments of which commands
// and client methods are keys, are in rules.yaml beside this file.
package slotlint

//go:generate go run ./internal/gencommands
