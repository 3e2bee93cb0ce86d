package matrix

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// notYetRead are the clients whose rows slotlint does not judge yet,
// by module: it does not read their code. Once rules.yaml has them, delete
// their entry here: TestVerdicts then holds their rows to what they did.
// Every client of the matrix is read now.
var notYetRead = map[string]string{}

// knownMisses are rows that fail on the cluster and that slotlint does not
// report yet, by function, and why. The test holds them to that: once
// slotlint reports one, delete its entry.
var knownMisses = map[string]string{
	"radix4PipelineSpread": "radix's Cluster refuses a Pipeline whose commands' keys span slots, even one-key commands; slotlint checks each command of a radix Pipeline on its own, not the pipeline's keys together",
	// cluster-db reports UniversalOptions whose Addrs holds two or more
	// addresses in the code, or IsClusterMode; here Addrs comes from a
	// variable, which may hold one address (a *redis.Client that keeps DB).
	"goRedis9DB": "UniversalOptions{Addrs: addrs, DB: 3} with addrs of a length slotlint cannot see",
	"goRedis8DB": "the same, go-redis v8",
	"goRedis7DB": "the same, go-redis v7",
	// Options and commands of the other clients that the rules do not
	// describe yet: rueidis's and valkey-go's SelectDB with several
	// InitAddress, redigo's and radix's database dial options, and the
	// KEYS of radix v4's raw commands.
	"rueidisDB":  "rueidis ClientOption.SelectDB is not described",
	"valkeyDB":   "valkey-go ClientOption.SelectDB is not described",
	"redigoDB":   "redigo's DialDatabase is not described",
	"garyburdDB": "the same, redigo's first import path",
	"radix3DB":   "radix v3's DialSelectDB is not described",
	"radix4DB":   "radix v4's Dialer.SelectDB is not described",
	"radix4Keys": "radix v4's raw KEYS on a Cluster is not reported",
}

// notJudged are the shapes whose rows slotlint gives no verdict for, and why.
// KEYS, SCAN and the database option are judged: the keyspace-wide and
// cluster-db checks report them.
var notJudged = map[Shape]string{
	Connect: "whether the client can read the cluster's slots at all",
}

// judged tells whether slotlint's verdict on the row is checked, and
// whether it must report it. A row that fails must be reported; so must a
// transaction, a WATCH or a script that the client split by slot, which
// is then no longer atomic. A row that works must not be, nor a command
// sent alone that the client splits (go-redis with a command policy
// resolver that reads Redis's command tips).
func judged(o Outcome, connectErr map[string]string, cl Client) (judge, report bool, why string) {
	if why, ok := notYetRead[cl.Module]; ok {
		return false, false, why
	}
	if why, ok := notJudged[o.Shape]; ok {
		return false, false, why
	}
	if o.Kind == Varies {
		if racyRows[o.Func].report {
			return true, true, ""
		}
		return false, false, "its outcome is a race in the client: " + o.Text
	}
	if o.Kind == Failed && o.Text == connectErr[o.Client] {
		return false, false, "the client cannot read the cluster's slots (row " + string(Connect) + ")"
	}
	if o.Kind == Failed && (!cl.Cluster || slices.Contains(cl.OneNode, o.Shape)) && strings.HasPrefix(o.Text, "MOVED ") && !cross(o.Shape) {
		return false, false, "a client of one node sent a key to a master that does not serve it"
	}
	switch o.Kind {
	case Failed, Wrong, OneNode, Dropped:
		return true, true, ""
	case Split:
		switch o.Shape {
		case MultiCross, WatchCross, ScriptCross:
			return true, true, ""
		}
	}
	return true, false, ""
}

// TestVerdicts runs slotlint over the rows' own code and checks that it
// reports every row that fails on the cluster, at the row's function, and
// no row that works.
func TestVerdicts(t *testing.T) {
	outs := run(t)
	reported := slotlintFindings(t)
	byLabel := map[string]Client{}
	connectErr := map[string]string{}
	for _, cl := range clients {
		l, err := label(cl)
		if err != nil {
			t.Fatal(err)
		}
		byLabel[l] = cl
	}
	for _, o := range outs {
		if _, ok := byLabel[o.Client]; !ok {
			byLabel[o.Client] = GoRedis9 // goredis9old's rows
		}
		if o.Shape == Connect && o.Kind == Failed {
			connectErr[o.Client] = o.Text
		}
	}
	for _, o := range outs {
		cl := byLabel[o.Client]
		judge, want, why := judged(o, connectErr, cl)
		got := reported[o.Func]
		if !judge {
			t.Logf("%s %s (%s): not judged: %s; slotlint: %q", o.Client, o.Shape, o.Func, why, got)
			continue
		}
		if why, ok := knownMisses[o.Func]; ok {
			if len(got) > 0 {
				t.Errorf("%s %s (%s) is reported now (%q): delete it from knownMisses", o.Client, o.Shape, o.Func, got)
			} else {
				t.Logf("%s %s (%s) %s: a known miss: %s", o.Client, o.Shape, o.Func, o.Kind, why)
			}
			continue
		}
		switch {
		case want && len(got) == 0:
			t.Errorf("%s %s (%s) %s (%s), but slotlint does not report it", o.Client, o.Shape, o.Func, o.Kind, o.Text)
		case !want && len(got) > 0:
			t.Errorf("%s %s (%s) %s, but slotlint reports it: %q", o.Client, o.Shape, o.Func, o.Kind, got)
		}
	}
}

// slotlintFindings builds slotlint from the repository, runs it over this
// package (not its tests) and returns its findings by the function they
// are in.
func slotlintFindings(t *testing.T) map[string][]string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "slotlint")
	build := exec.Command("go", "build", "-o", bin, "./cmd/slotlint")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/slotlint: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-json", "-test=false", "./...")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("slotlint -json: %v\n%s", err, stderr.String())
	}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &tree); err != nil {
		t.Fatalf("slotlint -json: %v\n%s", err, stdout.String())
	}
	var diags []struct {
		Posn, Message string
	}
	for _, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var ds []struct{ Posn, Message string }
			if err := json.Unmarshal(raw, &ds); err != nil {
				t.Fatalf("slotlint -json, analyzer %s: %v\n%s", name, err, raw)
			}
			diags = append(diags, ds...)
		}
	}
	funcs := funcLines(t)
	found := map[string][]string{}
	for _, d := range diags {
		file, line := splitPosn(t, d.Posn)
		name := funcs.at(filepath.Base(filepath.Dir(file))+"/"+filepath.Base(file), line)
		if name == "" {
			t.Errorf("slotlint reports %s outside a row: %s", d.Posn, d.Message)
			continue
		}
		found[name] = append(found[name], strconv.Itoa(line)+": "+d.Message)
	}
	return found
}

// splitPosn splits "file:line:col".
func splitPosn(t *testing.T, posn string) (string, int) {
	t.Helper()
	parts := strings.Split(posn, ":")
	if len(parts) < 3 {
		t.Fatalf("position %q", posn)
	}
	line, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil {
		t.Fatalf("position %q: %v", posn, err)
	}
	return strings.Join(parts[:len(parts)-2], ":"), line
}

// lines maps each file of the package to the line ranges of its functions.
type lines map[string][]struct {
	name       string
	start, end int
}

func (l lines) at(file string, line int) string {
	for _, f := range l[file] {
		if f.start <= line && line <= f.end {
			return f.name
		}
	}
	return ""
}

func funcLines(t *testing.T) lines {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	sub, err := filepath.Glob("resolver/*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, sub...)
	l := lines{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				abs, err := filepath.Abs(name)
				if err != nil {
					t.Fatal(err)
				}
				fn := fd.Name.Name
				if dir := filepath.Dir(name); dir != "." {
					fn = dir + "." + fn
				}
				key := filepath.Base(filepath.Dir(abs)) + "/" + filepath.Base(name)
				l[key] = append(l[key], struct {
					name       string
					start, end int
				}{fn, fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
			}
		}
	}
	return l
}
