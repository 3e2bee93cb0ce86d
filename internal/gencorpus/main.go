// Command gencorpus writes a Go module of several hundred packages that use
// go-redis v9 the way services do, for measuring what slotlint costs on a
// large codebase:
//
//	go run ./internal/gencorpus -n 400 DIR
//
// The module has shared key helpers (package keys and one package of
// helpers per domain under keys/), structs holding key prefixes and
// scripts, services under svc/ that send commands, pipelines, WATCH and
// MULTI/EXEC transactions and Lua scripts (redis.NewScript, Eval, EvalSha
// after SCRIPT LOAD), and plain Go in between: libraries under lib/ with
// generics, loops and string handling, record types under model/, and a
// main package under cmd/ that wires the services together. Package huge
// holds one very large function (-huge cases of a switch) to show that
// slotlint's cost grows linearly with the size of a function.
//
// The output depends only on the flags: the same -n, -seed and -huge give
// the same files. DIR must be empty or missing. The module requires
// github.com/redis/go-redis/v9 v9.23.0; go.sum is written too, so that
// "go vet ./..." works in DIR without a "go mod tidy" (the modules come
// from the module cache or the module proxy).
//
// Some of the generated code keeps keys in different slots on purpose, as
// real services do, so slotlint reports findings on the corpus; "go vet"
// without slotlint finds nothing.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	n := flag.Int("n", 400, "the number of packages to write (at least 20)")
	seed := flag.Uint64("seed", 1, "the random seed")
	huge := flag.Int("huge", 1500, "the number of cases of the huge function (0: no package huge)")
	module := flag.String("module", "corpus.example/shop", "the module path")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: gencorpus [-n packages] [-seed n] [-huge cases] [-module path] DIR\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *module, *n, *seed, *huge); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
}

func run(dir, module string, n int, seed uint64, huge int) error {
	if n < 20 {
		return errors.New("-n must be at least 20")
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	}
	files, err := generate(module, n, seed, huge)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	lines := 0
	for _, name := range names {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
		lines += bytes.Count(files[name], []byte("\n"))
	}
	pkgs := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, ".go") {
			pkgs[filepath.Dir(name)] = true
		}
	}
	fmt.Fprintf(os.Stderr, "gencorpus: wrote %d packages, %d files, %d lines to %s\n", len(pkgs), len(names), lines, dir)
	return nil
}

// A gen accumulates the files of the corpus.
type gen struct {
	module string
	rng    *rand.Rand
	files  map[string][]byte

	libs    []*libPkg
	models  []*modelPkg
	domains []*domainPkg
	svcs    []*svcPkg
}

func generate(module string, n int, seed uint64, huge int) (map[string][]byte, error) {
	g := &gen{
		module: module,
		rng:    rand.New(rand.NewPCG(seed, seed^0x5107_11e7)),
		files:  map[string][]byte{},
	}
	g.files["go.mod"] = []byte(goMod(module))
	g.files["go.sum"] = []byte(goSum)

	// The packages: keys, the domains' key helpers, and then libraries,
	// models and services in one sequence, each importing earlier ones;
	// then cmd/server, and huge.
	fixed := 2 // keys, cmd/server
	if huge > 0 {
		fixed++
	}
	nDomains := max(2, n/25)
	rest := n - fixed - nDomains
	if err := g.add("keys/keys.go", keysFile()); err != nil {
		return nil, err
	}
	for i := range nDomains {
		if err := g.domain(i); err != nil {
			return nil, err
		}
	}
	for i := range rest {
		var err error
		switch r := g.rng.IntN(100); {
		case i < 3 || r < 38:
			err = g.lib()
		case len(g.libs) > 0 && r < 48:
			err = g.model()
		default:
			err = g.svc()
		}
		if err != nil {
			return nil, err
		}
	}
	if err := g.server(); err != nil {
		return nil, err
	}
	if huge > 0 {
		if err := g.huge(huge); err != nil {
			return nil, err
		}
	}
	return g.files, nil
}

// add formats a Go file and keeps it.
func (g *gen) add(name string, src string) error {
	out, err := format.Source([]byte(src))
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", name, err, numbered(src))
	}
	g.files[name] = out
	return nil
}

func numbered(src string) string {
	var b strings.Builder
	for i, line := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%5d  %s\n", i+1, line)
	}
	return b.String()
}

// pick returns k distinct elements of xs, in the order of xs.
func pick[T any](r *rand.Rand, xs []T, k int) []T {
	if k >= len(xs) {
		return slices.Clone(xs)
	}
	idx := r.Perm(len(xs))[:k]
	slices.Sort(idx)
	out := make([]T, k)
	for i, j := range idx {
		out[i] = xs[j]
	}
	return out
}

// recent picks up to k elements among the last window of xs, which keeps
// the import graph deep rather than flat.
func recent[T any](r *rand.Rand, xs []T, k, window int) []T {
	if len(xs) > window {
		xs = xs[len(xs)-window:]
	}
	return pick(r, xs, min(k, r.IntN(k+1)+1))
}

// imports writes an import block: the standard library first, then the
// module's and go-redis.
func imports(std []string, other ...string) string {
	var b strings.Builder
	b.WriteString("import (\n")
	slices.Sort(std)
	for _, s := range slices.Compact(std) {
		fmt.Fprintf(&b, "\t%q\n", s)
	}
	if len(other) > 0 {
		b.WriteString("\n")
		for _, s := range other {
			b.WriteString("\t" + s + "\n")
		}
	}
	b.WriteString(")\n")
	return b.String()
}

// subst replaces @name@ placeholders.
func subst(s string, kv ...string) string {
	pairs := make([]string, 0, len(kv))
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, "@"+kv[i]+"@", kv[i+1])
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

var words = []string{
	"user", "order", "cart", "session", "invoice", "stock", "ticket", "feed",
	"match", "quota", "coupon", "review", "shipment", "payment", "profile",
	"board", "chat", "event", "metric", "lease", "seat", "wallet", "badge",
	"route", "slot", "offer", "bid", "alert", "token", "job",
}

func (g *gen) word() string { return words[g.rng.IntN(len(words))] }
