// Command slotlint checks that Redis multi-key commands issued through
// go-redis keep their keys in one Redis Cluster slot.
//
// It runs standalone, as "slotlint ./...", or under go vet, as
// "go vet -vettool=$(command -v slotlint) ./...". It exits 3 when it
// reports findings, and -json prints them as JSON.
package main

import (
	"github.com/slotlint/slotlint/analyzer"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
