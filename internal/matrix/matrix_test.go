package matrix

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/slot"
)

var update = flag.Bool("update", false, "rewrite README.md's matrix and goredis9old's copy of the go-redis v9 rows")

func TestMain(m *testing.M) { redistest.Main(m) }

// clients are the clients of the matrix, in the README's order.
var clients = []Client{GoRedis9, GoRedis9Resolver, GoRedis8, GoRedis7, GoRedis6, Rueidis, Valkey, Redigo, Garyburd, Radix2, Radix3, Radix4}

// An Outcome is what a row did, classified.
type Outcome struct {
	Client string // "go-redis v9.23.0"
	Shape  Shape
	Func   string // the function that holds the row's code: "goRedis9AloneCross", "resolver.Alone"
	Kind   Kind
	Text   string // the error, normalized; the values read; or the number of keys found
}

// A Kind says how a row went.
type Kind string

const (
	Works   Kind = "works"   // no error, the right values; the keys share a slot
	Split   Kind = "split"   // no error and the right values, although the keys are in two slots: the client split the command
	Failed  Kind = "error"   // the client or the server returned an error
	Wrong   Kind = "wrong"   // no error, but not the values written
	OneNode Kind = "onenode" // KEYS or SCAN found the keys of one master only, without an error
	AllKeys Kind = "all"     // KEYS or SCAN found every key
	Dropped Kind = "dropped" // the database number was dropped: no error, the data is in database 0
	Varies  Kind = "varies"  // one of the outcomes of a row that races in the client (racyRows)
)

// racyRows are the rows whose outcome the client leaves to a race, by
// row function: the outcomes the row may have, as classify gives them
// (the error's text up to its first space for Failed), and why. A row
// that gives one of them is Varies, with the reason as its text; any
// other outcome is shown as it is.
var racyRows = map[string]struct {
	outcomes []string
	why      string
	// report is true when slotlint must report the row whatever the
	// race gives: every outcome fails or splits a transaction.
	report bool
}{
	// go-redis v7 cannot parse Redis 7's COMMAND reply ("got 10 elements
	// in COMMAND reply, wanted 7"), so it knows no command's key position
	// and sends each command by the slot of its name first, then follows
	// MOVED. A MULTI first sent to the wrong master ends in EXECABORT
	// there; v7 retries it on the right one, but its retry sends the
	// commands to both masters at once, and TxPipelined returns whichever
	// answer it stores last: most runs no error, one in 40 to 80 the
	// EXECABORT. TestGoRedis7CommandReply shows the first part.
	"goRedis7MultiOne": {[]string{string(Works), "EXECABORT"}, "MULTI: works, or `EXECABORT` now and then (v7 cannot read Redis 7's COMMAND reply, sends the MULTI to another master first, and its retry races)", false},
	// The same race with keys of two slots: most runs split the MULTI
	// by slot, one now and then ends in EXECABORT (seen in a CI run).
	"goRedis7MultiCross": {[]string{string(Split), "EXECABORT"}, "no error: split by slot, not atomic; or `EXECABORT` now and then (the same race as its one-slot MULTI)", true},
}

// racy turns the outcome of a racy row into Varies when it is one of the
// row's outcomes.
func racy(o Outcome) Outcome {
	r, ok := racyRows[o.Func]
	if !ok {
		return o
	}
	got := string(o.Kind)
	if o.Kind == Failed {
		got, _, _ = strings.Cut(o.Text, " ")
	}
	if slices.Contains(r.outcomes, got) {
		o.Kind, o.Text = Varies, r.why
	}
	return o
}

var (
	runOnce  sync.Once
	outcomes []Outcome
	runErr   error
)

// run runs every row once for the tests of this package.
func run(t *testing.T) []Outcome {
	t.Helper()
	c := redistest.Shared(t)
	runOnce.Do(func() { outcomes, runErr = runAll(c) })
	if runErr != nil {
		t.Fatal(runErr)
	}
	return outcomes
}

// A lab is the cluster the rows run on, and what the tests know of it.
type lab struct {
	c   *redistest.Cluster
	rdb *redis.ClusterClient
	env *Env
	// perNode is how many of the keys scan:* each master holds.
	perNode map[int]bool
}

func newLab(c *redistest.Cluster) (*lab, error) {
	l := &lab{c: c, rdb: redis.NewClusterClient(c.ClusterOptions()), perNode: map[int]bool{}}
	owner := func(key string) (*redistest.Node, error) { return c.Owner(slot.Of(key)) }
	l.env = &Env{Addrs: c.Addrs(), Owner: func(key string) string {
		n, err := owner(key)
		if err != nil {
			return ""
		}
		return n.Addr
	}}
	slots, err := l.rdb.ClusterSlots(context.Background()).Result()
	if err != nil {
		return nil, err
	}
	for _, s := range slots {
		l.env.Slots = append(l.env.Slots, Slots{Start: s.Start, End: s.End, Addr: s.Nodes[0].Addr})
	}
	// The cross-slot keys must be on different masters, and the one-slot
	// keys in one slot.
	for _, p := range [][2]string{PriceCross, OrderCross, StockCross} {
		a, err := owner(p[0])
		if err != nil {
			return nil, err
		}
		b, err := owner(p[1])
		if err != nil {
			return nil, err
		}
		if a == b {
			return nil, fmt.Errorf("%s and %s are served by the same master %s; the rows need keys of two masters", p[0], p[1], a.Addr)
		}
	}
	for _, p := range [][2]string{PriceOne, OrderOne, StockOne} {
		if slot.Of(p[0]) != slot.Of(p[1]) {
			return nil, fmt.Errorf("%s and %s are in different slots", p[0], p[1])
		}
	}
	count := map[string]int{}
	for i := range ScanKeys {
		n, err := owner("scan:" + strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		count[n.Addr]++
	}
	for _, n := range count {
		l.perNode[n] = true
	}
	return l, nil
}

// sharedLab is a lab on the shared cluster for one test, closed when the
// test ends.
func sharedLab(t *testing.T) *lab {
	t.Helper()
	l, err := newLab(redistest.Shared(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.rdb.Close() })
	return l
}

// reset writes the keys every row starts from.
func (l *lab) reset(ctx context.Context) error {
	if err := l.c.FlushAll(); err != nil {
		return err
	}
	for _, p := range [][2]string{PriceOne, PriceCross} {
		for i, k := range p {
			if err := l.rdb.Set(ctx, k, strconv.Itoa(i+1), 0).Err(); err != nil {
				return err
			}
		}
	}
	for i := range ScanKeys {
		if err := l.rdb.Set(ctx, "scan:"+strconv.Itoa(i), "x", 0).Err(); err != nil {
			return err
		}
	}
	return nil
}

func runAll(c *redistest.Cluster) ([]Outcome, error) {
	l, err := newLab(c)
	if err != nil {
		return nil, err
	}
	defer l.rdb.Close()
	var out []Outcome
	for _, cl := range clients {
		label, err := label(cl)
		if err != nil {
			return nil, err
		}
		for _, r := range cl.Rows {
			res, err := l.runRow(r)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %v", label, r.Shape, err)
			}
			o, err := l.classify(r.Shape, res, l.probe)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %v", label, r.Shape, err)
			}
			o.Client, o.Func = label, funcName(r.Run)
			if f, ok := rowFunc[r.Shape]; ok {
				o.Func = f
			}
			out = append(out, racy(o))
		}
	}
	old, err := l.runOld()
	if err != nil {
		return nil, err
	}
	return append(old, out...), nil
}

func (l *lab) runRow(r Row) (Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := l.reset(ctx); err != nil {
		return Result{}, err
	}
	return runRecover(ctx, r, l.env), nil
}

// runRecover runs a row, and turns a panic of the client into an error
// whose text starts with "panic: ".
func runRecover(ctx context.Context, r Row, e *Env) (res Result) {
	defer func() {
		if v := recover(); v != nil {
			res = Result{Err: fmt.Errorf("panic: %v", v)}
		}
	}()
	return r.Run(ctx, e)
}

// probe tells whether the DB row's key is in the cluster.
func (l *lab) probe() (bool, error) {
	n, err := l.rdb.Exists(context.Background(), "db:probe").Result()
	return n == 1, err
}

// label names a client with the version this module requires:
// "go-redis v9.23.0".
func label(c Client) (string, error) {
	data, err := os.ReadFile("go.mod")
	if err != nil {
		return "", err
	}
	v, err := ModuleVersion(data, c.Module)
	if err != nil {
		return "", err
	}
	return c.Name + " " + v, nil
}

var (
	addrRE  = regexp.MustCompile(`(127\.0\.0\.1|localhost|\[::1\]):\d+`)
	crossRE = regexp.MustCompile(`^CROSSSLOT `)
)

// normalize gives an error's text without the cluster's ports.
func normalize(err error) string {
	s := addrRE.ReplaceAllString(err.Error(), "ADDR")
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// cross reports whether the shape's keys are in two slots.
func cross(s Shape) bool {
	switch s {
	case AloneCross, DelCross, ExistsCross, MSetCross, PipelineCross, MultiCross, WatchCross, ScriptCross, ScriptCounted, ResolverAlone, ResolverDel, ResolverExists, ResolverMSet, UniversalCross:
		return true
	}
	return false
}

// want is what a shape reads when it works: "" for the writes.
func want(s Shape) string {
	switch s {
	case ResolverDel, ResolverExists:
		return "2" // both keys deleted, both keys there
	case AloneOne, AloneCross, PipelineCross, PipelineSpread, ScriptOne, ScriptCross, ScriptCounted, ResolverAlone, UniversalCross:
		return "1 2"
	}
	return ""
}

// classify says what a row did; probe tells whether the DB row's key is in
// the cluster.
func (l *lab) classify(s Shape, res Result, probe func() (bool, error)) (Outcome, error) {
	o := Outcome{Shape: s}
	switch {
	case res.Err != nil:
		o.Kind, o.Text = Failed, normalize(res.Err)
	case s == Keys || s == Scan || s == ResolverKeys:
		n, err := strconv.Atoi(res.Got)
		if err != nil {
			return o, err
		}
		o.Text = res.Got
		switch {
		case n == ScanKeys:
			o.Kind = AllKeys
		case l.perNode[n]:
			o.Kind = OneNode
		default:
			o.Kind = Wrong
		}
	case s == DB:
		// A cluster has only database 0: the probe is there, or nowhere.
		there, err := probe()
		if err != nil {
			return o, err
		}
		if !there {
			return o, errors.New("the DB row returned no error but db:probe is not in the cluster")
		}
		o.Kind = Dropped
	case res.Got != want(s):
		o.Kind, o.Text = Wrong, res.Got
	case cross(s):
		o.Kind, o.Text = Split, res.Got
	default:
		o.Kind, o.Text = Works, res.Got
	}
	return o, nil
}

// TestMatrix runs every row on a real cluster and checks README.md's table
// against what the clients did (go test -update rewrites it).
func TestMatrix(t *testing.T) {
	outs := run(t)
	for _, o := range outs {
		t.Logf("%-22s %-18s %-8s %s", o.Client, o.Shape, o.Kind, o.Text)
	}
	checkFile(t, readme, "<!-- BEGIN matrix -->\n", "<!-- END matrix -->", table(outs))
}

// TestOldCopy checks that goredis9old runs the rows of this module.
func TestOldCopy(t *testing.T) {
	for _, name := range []string{"row.go", "goredis9.go"} {
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("goredis9old", name)
		got, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		if string(got) == string(want) {
			continue
		}
		if !*update {
			t.Errorf("%s is not a copy of %s; run go test -run TestOldCopy -update in internal/matrix", path, name)
			continue
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readme is the repository's README.md.
var readme = filepath.Join("..", "..", "README.md")

// checkFile checks that the text between the markers begin and end in the
// file is body, or writes it there with -update.
func checkFile(t *testing.T, path, begin, end, body string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, begin)
	j := strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, strings.TrimSpace(begin), end)
	}
	if text[i+len(begin):j] == body {
		return
	}
	if !*update {
		t.Fatalf("%s's section %s differs from what the clients did on the cluster; run go test -run %s -update in internal/matrix and review the diff.\nwant:\n%s", path, strings.TrimSpace(begin), t.Name(), body)
	}
	if err := os.WriteFile(path, []byte(text[:i+len(begin)]+body+text[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}

// columns are the shapes of the README's table, with their titles.
var columns = []struct {
	shapes []Shape
	title  string
}{
	{[]Shape{AloneOne, MultiOne, WatchOne, ScriptOne}, "keys with one hashtag (alone, MULTI/EXEC, WATCH, script)"},
	{[]Shape{AloneCross}, "MGET across slots, alone"},
	{[]Shape{PipelineCross}, "MGET across slots, in a pipeline"},
	{[]Shape{PipelineSpread}, "GETs of two slots in one pipeline"},
	{[]Shape{MultiCross}, "MULTI/EXEC across slots"},
	{[]Shape{WatchCross}, "WATCH across slots"},
	{[]Shape{ScriptCross}, "script with KEYS across slots"},
	{[]Shape{Keys}, "KEYS"},
	{[]Shape{Scan}, "SCAN to the end"},
	{[]Shape{DB}, "database 3 in the options"},
}

// cell says in a few words what a row did.
func cell(o Outcome) string {
	switch o.Kind {
	case Works:
		return "works"
	case Split:
		return "no error: split by slot, not atomic"
	case Failed:
		if crossRE.MatchString(o.Text) {
			return "`CROSSSLOT` from the server"
		}
		if p, ok := strings.CutPrefix(o.Text, "panic: "); ok {
			return "panics: `" + p + "`"
		}
		return "error `" + strings.ReplaceAll(o.Text, "|", `\|`) + "`"
	case Wrong:
		return "no error, wrong answer: " + o.Text
	case OneNode:
		// Which master answers changes from run to run, and so the count.
		return "one master's keys, no error"
	case AllKeys:
		return "all keys"
	case Dropped:
		return "no error: ignored, data in database 0"
	case Varies:
		return o.Text
	}
	return string(o.Kind)
}

// table is README.md's matrix: a table of the shapes every client runs, and
// one of go-redis v9's other rows.
func table(outs []Outcome) string {
	var b strings.Builder
	var clientsInOrder []string
	by := map[string]map[Shape]Outcome{}
	for _, o := range outs {
		if by[o.Client] == nil {
			by[o.Client] = map[Shape]Outcome{}
			clientsInOrder = append(clientsInOrder, o.Client)
		}
		by[o.Client][o.Shape] = o
	}
	b.WriteString("| client |")
	for _, c := range columns {
		b.WriteString(" " + c.title + " |")
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(columns)))
	b.WriteString("\n")
	for _, name := range clientsInOrder {
		row := by[name]
		if _, ok := row[AloneCross]; !ok {
			continue
		}
		b.WriteString("| " + name + " |")
		for _, c := range columns {
			var cells []string
			for _, s := range c.shapes {
				o, ok := row[s]
				if !ok {
					continue
				}
				if t := cell(o); !slices.Contains(cells, t) {
					cells = append(cells, t)
				}
			}
			if len(cells) == 0 {
				cells = []string{"no such option"} // radix.v2's cluster has no database
			}
			b.WriteString(" " + strings.Join(cells, "; ") + " |")
		}
		b.WriteString("\n")
	}
	// The other rows, one line for the clients that did the same.
	b.WriteString("\n| clients | command | what it does |\n|---|---|---|\n")
	for _, s := range []Shape{Connect, DelCross, ExistsCross, MSetCross, ScriptCounted, UniversalCross, ResolverAlone, ResolverDel, ResolverExists, ResolverMSet, ResolverKeys} {
		var cells []string
		who := map[string][]string{}
		for _, name := range clientsInOrder {
			if o, ok := by[name][s]; ok {
				c := cell(o)
				if who[c] == nil {
					cells = append(cells, c)
				}
				who[c] = append(who[c], name)
			}
		}
		for _, c := range cells {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", strings.Join(who[c], ", "), shapeText[s], c)
		}
	}
	return b.String()
}

// shapeText describes the shapes of the second table.
var shapeText = map[Shape]string{
	Connect:        "a one-key `GET` on a cluster client made with the addresses alone",
	DelCross:       "`Del(ctx, \"price:1\", \"price:2\")` on a `ClusterClient`",
	ExistsCross:    "`Exists(ctx, \"price:1\", \"price:2\")` on a `ClusterClient`",
	MSetCross:      "`MSet(ctx, \"price:1\", \"1\", \"price:2\", \"2\")` on a `ClusterClient`",
	ScriptCounted:  "a `NewScript(-1, src)` script run with `redis.Args{}.Add(len(keys)).AddFlat(keys)`, keys `price:1`, `price:2`",
	UniversalCross: "`MGet(ctx, \"price:1\", \"price:2\")` on `NewUniversalClient` with several addresses",
	ResolverAlone:  "`MGet(ctx, \"price:1\", \"price:2\")` after `c.SetCommandInfoResolver(c.NewDynamicResolver())`",
	ResolverDel:    "`Del(ctx, \"price:1\", \"price:2\")` after the same",
	ResolverExists: "`Exists(ctx, \"price:1\", \"price:2\")` after the same",
	ResolverMSet:   "`MSet(ctx, \"price:1\", \"1\", \"price:2\", \"2\")` after the same",
	ResolverKeys:   "`Keys(ctx, \"scan:*\")` after the same",
}

// funcName is the name of a row's function, without its package.
func funcName(f any) string {
	name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	return name[strings.LastIndex(name, ".")+1:]
}

// oldModfiles are the go.mod files of goredis9old, one a go-redis v9
// release: v9.0.0-rc.1, a release candidate, published at the module's
// earlier path (oldPaths); v9.0.0, the first release; v9.10.0 and
// v9.11.0, the last that split a cross-slot MULTI/EXEC pipeline into one
// transaction a slot and the first that refuses it; v9.18.0, the first
// with a command policy resolver.
var oldModfiles = []string{"go.v9rc.mod", "go.mod", "go.v9.10.mod", "go.v9.11.mod", "go.v9.18.mod"}

// oldPaths are the import paths of go-redis v9 that a go.mod file of
// goredis9old requires instead of github.com/redis/go-redis/v9: its
// files are given to the go command rewritten to that path (-overlay).
var oldPaths = map[string]string{"go.v9rc.mod": "github.com/go-redis/redis/v9"}

// overlay writes goredis9old's Go files with go-redis v9's import path
// replaced by path into a directory, and returns the go command's
// -overlay file that puts them in place of the originals.
func overlay(path string) (string, error) {
	dir, err := os.MkdirTemp("", "matrix-overlay-")
	if err != nil {
		return "", err
	}
	files, err := filepath.Glob(filepath.Join("goredis9old", "*.go"))
	if err != nil {
		return "", err
	}
	replace := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return "", err
		}
		to := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(to, []byte(strings.ReplaceAll(string(src), GoRedis9.Module, path)), 0o644); err != nil {
			return "", err
		}
		replace[abs] = to
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	file := filepath.Join(dir, "overlay.json")
	return file, os.WriteFile(file, data, 0o644)
}

// runOld runs the go-redis v9 rows with go-redis v9's older releases, in
// the module goredis9old, on the same cluster: its test writes what each
// row saw to a file, and the outcomes are classified here.
func (l *lab) runOld() ([]Outcome, error) {
	var outs []Outcome
	for _, modfile := range oldModfiles {
		o, err := l.runOldWith(modfile)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o...)
	}
	return outs, nil
}

func (l *lab) runOldWith(modfile string) ([]Outcome, error) {
	out, err := os.CreateTemp("", "matrix-old-*.json")
	if err != nil {
		return nil, err
	}
	out.Close()
	defer os.Remove(out.Name())
	args := []string{"test", "-modfile=" + modfile, "-count=1", "-run=^TestRows$"}
	if path, ok := oldPaths[modfile]; ok {
		file, err := overlay(path)
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(filepath.Dir(file))
		args = append(args, "-overlay="+file)
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = "goredis9old"
	cmd.Env = append(os.Environ(), "MATRIX_ADDRS="+strings.Join(l.env.Addrs, ","), "MATRIX_OUT="+out.Name(), "MATRIX_GOMOD="+modfile)
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go test -modfile=%s in goredis9old: %v\n%s", modfile, err, b)
	}
	data, err := os.ReadFile(out.Name())
	if err != nil {
		return nil, err
	}
	var recs []Record
	if err := json.Unmarshal(data, &recs); err != nil {
		return nil, fmt.Errorf("goredis9old's results: %v", err)
	}
	var outs []Outcome
	for _, r := range recs {
		res := Result{Got: r.Got}
		if r.Err != "" {
			res.Err = errors.New(r.Err)
		}
		o, err := l.classify(r.Shape, res, func() (bool, error) { return r.DBProbe, nil })
		if err != nil {
			return nil, fmt.Errorf("go-redis %s %s: %v", r.Version, r.Shape, err)
		}
		o.Client, o.Func = "go-redis "+r.Version, r.Func
		outs = append(outs, o)
	}
	return outs, nil
}
