// Command genrueidis writes the rules of the client libraries that build
// commands as values, rueidis and valkey-go, and of rueidis's go-redis
// shaped adapter, rueidiscompat, into slotlint's rules.yaml.
//
// rueidis's command builder is generated from Redis's command JSON: each
// argument is a method of the chain named after it, and the methods of the
// arguments of type key record the key's slot (they call slot(key)). From
// the builder's own source, in the versions that analyzer/testdata/go.mod
// pins, genrueidis reads
//
//   - each Builder method and the command it starts, the string literals
//     it appends ("RENAME", "OBJECT", "ENCODING");
//   - each chain method that calls slot on a parameter: it takes keys;
//   - which chain types each Builder method leads to, so that each key
//     method belongs to one command.
//
// The commands table of rules.yaml decides, as for go-redis: a command is
// listed when the table has it and gives it keys, and the generator fails
// when the builder takes keys for a command the table says has none, or
// none for one it says has some. Commands the table lacks are named in a
// comment.
//
// valkey-go is a fork of rueidis with the same builder: when the two tables
// are the same, they are written as one client, "rueidis and valkey-go",
// of both libraries' packages, so that each process builds them once.
//
// For rueidiscompat, a go-redis v9 method rule is kept for each method of
// the adapter with the same name and the same parameters (types by name,
// the fields that selectors name): the adapter has go-redis's API shape,
// and where it differs the rule is left out and named in a comment.
//
// It rewrites only the lines from "# BEGIN GENERATED builder clients" to
// "# END GENERATED builder clients". Run it after genmethods; from the
// module root:
//
//	go run ./internal/genrueidis [-o rules.yaml] [-check]
//
// With -check it writes nothing and fails when the section is out of date.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "rules.yaml", "the rules file to update")
	dir := flag.String("modules", "analyzer/testdata", "the module whose go.mod pins rueidis, valkey-go and rueidiscompat")
	check := flag.Bool("check", false, "fail if the section is out of date instead of writing it")
	flag.Parse()
	if err := run(*out, *dir, *check); err != nil {
		fmt.Fprintln(os.Stderr, "genrueidis:", err)
		os.Exit(1)
	}
}

func run(path, dir string, check bool) error {
	return builderSection.Update(path, check, func(data []byte) (string, error) {
		return Build(path, data, dir)
	})
}
