// Package driver runs an analyzer over packages one at a time, in
// dependency order, and caches each package's facts and findings on disk.
//
// x/tools' checker loads the syntax and types of every package at once and
// keeps nothing between runs. This driver instead asks the go command for
// the packages and their export data ("go list -export -deps"), parses and
// type-checks only the package it analyses, takes the types of that
// package's dependencies from their export data, and stores the package's
// facts and diagnostics in a cache keyed by a hash of the package's files,
// its dependencies' keys and a salt (the analyzer's version, its flags and
// its rules). A rerun with nothing changed reads every result from the
// cache, loading no syntax and no types.
//
// The analyzer and everything it requires run on every package: the roots
// for their diagnostics, their dependencies for the facts that the roots
// import. Diagnostics are reported for the roots only.
package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/slotlint/slotlint/internal/jsonout"
)

// A Config says what to analyse, and how.
type Config struct {
	// Analyzer is the analysis to run, with all that it requires.
	Analyzer *analysis.Analyzer
	// Dir is the directory to run the go command in; "" is the current one.
	Dir string
	// Env is the go command's environment; nil is os.Environ().
	Env []string
	// Tests analyses the test variants of the packages too, as -test does.
	Tests bool
	// CacheDir holds the cache; "" runs without one.
	CacheDir string
	// Salt is everything besides the packages' files that the results
	// depend on: the analyzer's version, the values of its flags, the
	// content of its rules. It goes into every cache key.
	Salt []byte
}

// A Result is what a run found.
type Result struct {
	// Fset holds the positions of Diagnostics.
	Fset *token.FileSet
	// Packages are the root packages, in the go command's order, with the
	// diagnostics of each; a package that failed has Err set.
	Packages []*Package
	// Failures are the packages, roots or dependencies, that did not load,
	// type-check or analyse, one line each, in dependency order.
	Failures []string
	// Analysed counts the packages analysed from source in this run;
	// Cached, those whose results came from the cache.
	Analysed, Cached int

	run *run // for PackageFacts
}

// A Package is a root package and its diagnostics.
type Package struct {
	ID, PkgPath, Name string
	Diagnostics       []analysis.Diagnostic
	Err               error
}

// A node is one package of the graph.
type node struct {
	lp   *listPackage
	deps []*node
	root bool

	key  [sha256.Size]byte
	fail string // why the package was not analysed, or ""
	// depFail is true when fail comes from a dependency.
	depFail bool

	hit   bool   // the results come from the cache
	entry *entry // the results, once done is closed
	done  chan struct{}

	tpkg    *types.Package // from export data, when a dependent needs it
	facts   *decodedFacts
	factsMu sync.Mutex
}

// Run analyses the packages that patterns match.
func Run(cfg *Config, patterns ...string) (*Result, error) {
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	list, err := goList(cfg.Dir, env, cfg.Tests, nil, patterns)
	if err != nil {
		return nil, err
	}
	d := &run{
		cfg:       cfg,
		fset:      token.NewFileSet(),
		nodes:     map[string]*node{},
		analyzers: order(cfg.Analyzer),
		goarch:    goEnv(env, "GOARCH", runtime.GOARCH),
	}
	for _, lp := range list {
		d.nodes[lp.ImportPath] = &node{lp: lp, root: !lp.DepOnly, done: make(chan struct{})}
	}
	var roots []*node
	for _, lp := range list {
		n := d.nodes[lp.ImportPath]
		for _, id := range lp.depIDs {
			if dep := d.nodes[id]; dep != nil {
				n.deps = append(n.deps, dep)
			}
		}
		if n.root {
			roots = append(roots, n)
		}
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	d.order = topo(list, d.nodes)
	if err := d.keys(); err != nil {
		return nil, err
	}
	d.analyse()
	if cfg.CacheDir != "" {
		trim(cfg.CacheDir, time.Now())
	}

	res := &Result{Fset: token.NewFileSet(), Analysed: int(d.analysed.Load()), Cached: int(d.cached.Load()), run: d}
	for _, n := range d.order {
		if n.fail != "" && !(n.depFail && !n.root) {
			res.Failures = append(res.Failures, n.lp.ImportPath+": "+n.fail)
		}
	}
	files := newFileTable(res.Fset)
	for _, n := range roots {
		p := &Package{ID: n.lp.ImportPath, PkgPath: n.lp.pkgPath, Name: n.lp.Name}
		if n.fail != "" {
			p.Err = errors.New(n.fail)
		} else {
			for _, sd := range n.entry.Diags {
				p.Diagnostics = append(p.Diagnostics, sd.diagnostic(files))
			}
		}
		res.Packages = append(res.Packages, p)
	}
	return res, nil
}

// A run is the state of one Run.
type run struct {
	cfg       *Config
	fset      *token.FileSet
	nodes     map[string]*node
	order     []*node // dependencies first
	analyzers []*analysis.Analyzer
	goarch    string

	typesMu sync.Mutex
	pkgIDs  map[*types.Package]*node // the export data packages' nodes

	analysed, cached atomic.Int32
}

// topo returns the nodes, dependencies first, in the go command's order
// where that allows.
func topo(list []*listPackage, nodes map[string]*node) []*node {
	var out []*node
	seen := map[*node]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, dep := range n.deps {
			visit(dep)
		}
		out = append(out, n)
	}
	for _, lp := range list {
		visit(nodes[lp.ImportPath])
	}
	return out
}

// keys computes each package's cache key, or why it cannot be analysed.
func (d *run) keys() error {
	// Hash the files first, in parallel: they are most of the work of a
	// run that the cache answers.
	type job struct {
		path string
		sum  *[sha256.Size]byte
		err  *error
	}
	sums := map[string]*[sha256.Size]byte{}
	errs := map[string]*error{}
	var jobs []job
	for _, n := range d.order {
		for _, f := range slices.Concat(n.lp.files, n.lp.EmbedFiles) {
			if _, ok := sums[f]; !ok {
				sums[f], errs[f] = new([sha256.Size]byte), new(error)
				jobs = append(jobs, job{f, sums[f], errs[f]})
			}
		}
	}
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		*j.sum, *j.err = hashFile(j.path)
	})

	salt := sha256.New()
	salt.Write([]byte(version()))
	salt.Write(d.cfg.Salt)
	fmt.Fprintf(salt, "\x00goarch %s\x00tests %v\x00", d.goarch, d.cfg.Tests)
	for _, a := range d.analyzers {
		fmt.Fprintf(salt, "analyzer %s\x00", a.Name)
	}
	base := salt.Sum(nil)

	for _, n := range d.order {
		lp := n.lp
		if lp.Error != nil {
			n.fail = lp.Error.String()
			continue
		}
		h := sha256.New()
		h.Write(base)
		fmt.Fprintf(h, "id %s\x00name %s\x00", lp.ImportPath, lp.Name)
		if lp.Module != nil {
			fmt.Fprintf(h, "module %s %s go %s\x00", lp.Module.Path, lp.Module.Version, lp.Module.GoVersion)
		}
		for _, group := range [][]string{lp.files, lp.EmbedFiles} {
			fmt.Fprintf(h, "files %d\x00", len(group))
			for _, f := range group {
				if err := *errs[f]; err != nil && n.fail == "" {
					n.fail = err.Error()
				}
				fmt.Fprintf(h, "%s\x00%x\x00", f, sums[f][:])
			}
		}
		fmt.Fprintf(h, "other %q\x00", lp.OtherFiles)
		for _, dep := range sortedDeps(n) {
			if dep.fail != "" && n.fail == "" && dep.lp.Export == "" {
				n.fail, n.depFail = fmt.Sprintf("not analysed: it imports %s, which does not load", dep.lp.ImportPath), true
			}
			fmt.Fprintf(h, "dep %s %x\x00", dep.lp.ImportPath, dep.key[:])
		}
		copy(n.key[:], h.Sum(nil))
	}
	return nil
}

func sortedDeps(n *node) []*node {
	return slices.SortedFunc(slices.Values(n.deps), func(a, b *node) int {
		return strings.Compare(a.lp.ImportPath, b.lp.ImportPath)
	})
}

// analyse gives every package its results: from the cache, or by running
// the analyzers, in dependency order and in parallel.
func (d *run) analyse() {
	var misses []*node
	for _, n := range d.order {
		switch {
		case n.fail != "":
			close(n.done)
		case n.lp.ImportPath == "unsafe":
			// No files, no facts, no findings.
			n.entry = &entry{}
			close(n.done)
		case d.cfg.CacheDir != "" && d.cacheGet(n) != nil:
			// An entry that does not read is a miss, and is rewritten.
			n.hit = true
			d.cached.Add(1)
			close(n.done)
		default:
			misses = append(misses, n)
		}
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, n := range misses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(n.done)
			for _, dep := range n.deps {
				<-dep.done
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			e, err := d.analysePackage(n)
			if err != nil {
				n.fail = err.Error()
				return
			}
			n.entry = e
			d.analysed.Add(1)
			if d.cfg.CacheDir != "" {
				d.cachePut(n, e)
			}
		}()
	}
	wg.Wait()
}

// entryOf returns a package's results, or nil.
func (d *run) entryOf(n *node) *entry {
	return n.entry
}

// parallel calls f(0), ..., f(n-1) on as many goroutines as there are
// processors.
func parallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

func hashFile(path string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

var versionOnce = sync.OnceValue(func() string {
	// The executable's content: a rebuilt slotlint, with other checks or
	// other built-in rules, misses the cache of the previous one.
	exe, err := os.Executable()
	if err == nil {
		var sum [sha256.Size]byte
		if sum, err = hashFile(exe); err == nil {
			return runtime.Version() + " " + hex.EncodeToString(sum[:])
		}
	}
	// Without it, no run shares results with another.
	return fmt.Sprintf("%s pid %d %p", runtime.Version(), os.Getpid(), &err)
})

func version() string { return versionOnce() }

// goEnv returns a variable of env, or def.
func goEnv(env []string, name, def string) string {
	for _, kv := range slices.Backward(env) {
		if v, ok := strings.CutPrefix(kv, name+"="); ok && v != "" {
			return v
		}
	}
	return def
}

// DefaultCacheDir returns where the cache lives: $SLOTLINT_CACHE, or the
// slotlint directory of the user's cache directory (os.UserCacheDir).
func DefaultCacheDir() (string, error) {
	if dir := os.Getenv("SLOTLINT_CACHE"); dir != "" {
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (%v); set SLOTLINT_CACHE or run with -cache=false", err)
	}
	return filepath.Join(dir, "slotlint"), nil
}

// Graph returns the result as x/tools' checker would have: one root action
// per package, so that its printers print it.
func (r *Result) Graph(a *analysis.Analyzer) *checker.Graph {
	g := new(checker.Graph)
	for _, p := range r.Packages {
		g.Roots = append(g.Roots, &checker.Action{
			Analyzer:    a,
			Package:     &packages.Package{ID: p.ID, PkgPath: p.PkgPath, Name: p.Name, Fset: r.Fset},
			IsRoot:      p.Err == nil,
			Err:         p.Err,
			Diagnostics: p.Diagnostics,
		})
	}
	return g
}

// PrintText prints the failures, one a line, then the diagnostics as
// "file:line:col: message" lines, with contextLines of source around each
// when it is not negative, as x/tools' checker does.
func (r *Result) PrintText(w io.Writer, a *analysis.Analyzer, contextLines int) error {
	var buf bytes.Buffer
	for _, f := range r.Failures {
		fmt.Fprintf(&buf, "slotlint: %s\n", f)
	}
	g := r.Graph(a)
	g.Roots = slices.DeleteFunc(g.Roots, func(act *checker.Action) bool { return act.Err != nil })
	if err := g.PrintText(&buf, contextLines); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// PrintJSON prints x/tools' JSON tree: diagnostics by package ID and
// analyzer name, and an error for each root package that failed.
func (r *Result) PrintJSON(w io.Writer, a *analysis.Analyzer) error {
	out := jsonout.Writer(w)
	if err := r.Graph(a).PrintJSON(out); err != nil {
		return err
	}
	return out.Close()
}

// Count is the number of diagnostics, each counted once even when it is in
// a package and its test variant.
func (r *Result) Count() int {
	type key struct {
		pos, end token.Position
		msg      string
	}
	seen := map[key]bool{}
	for _, p := range r.Packages {
		for _, diag := range p.Diagnostics {
			seen[key{r.Fset.Position(diag.Pos), r.Fset.Position(diag.End), diag.Message}] = true
		}
	}
	return len(seen)
}
