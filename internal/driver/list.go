package driver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
)

// A listPackage is what "go list -json" says of a package, as much of it
// as the driver reads.
type listPackage struct {
	ImportPath      string // the package's ID: "p", "p [p.test]", "p.test"
	Name            string
	Dir             string
	GoFiles         []string
	CompiledGoFiles []string
	OtherFiles      []string // C, assembly and other files, for the pass
	IgnoredGoFiles  []string
	EmbedFiles      []string
	Export          string
	Imports         []string
	ImportMap       map[string]string
	DepOnly         bool
	Standard        bool
	ForTest         string
	Module          *struct {
		Path      string
		Version   string
		GoVersion string
	}
	Error      *listError
	DepsErrors []*listError

	// Set by the driver.
	pkgPath string            // ImportPath without " [p.test]"
	deps    map[string]string // import path in the source -> ID
	depIDs  []string          // the IDs of the imported packages
	files   []string          // CompiledGoFiles, absolute
}

type listError struct {
	Pos string
	Err string
}

// String returns the error on one line: the first of the compiler's
// errors, with how many follow.
func (e *listError) String() string {
	var lines []string
	for line := range strings.SplitSeq(e.Err, "\n") {
		// The compiler's output starts with "# package".
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "# ") {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		lines = []string{"does not load"}
	}
	msg := lines[0]
	if len(lines) > 1 {
		msg += fmt.Sprintf(" (and %d more lines of errors)", len(lines)-1)
	}
	if e.Pos != "" && !strings.HasPrefix(msg, e.Pos) {
		msg = e.Pos + ": " + msg
	}
	return msg
}

// listFields are the fields that goList asks for; the go command computes
// only these.
var listFields = "ImportPath,Name,Dir,GoFiles,CompiledGoFiles,CFiles,CXXFiles,SFiles,HFiles,SysoFiles,IgnoredGoFiles,EmbedFiles," +
	"Export,Imports,ImportMap,DepOnly,Standard,ForTest,Module,Error,DepsErrors"

// goList lists the packages that patterns match and all their
// dependencies, in dependency order, with the export data of each: the go
// command compiles what its build cache lacks.
func goList(dir string, env []string, tests bool, buildFlags, patterns []string) ([]*listPackage, error) {
	args := []string{"list", "-e", "-export", "-compiled", "-deps", "-json=" + listFields}
	if tests {
		args = append(args, "-test")
	}
	args = append(args, buildFlags...)
	args = append(args, "--")
	args = append(args, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(msg)
	}
	var pkgs []*listPackage
	dec := json.NewDecoder(&stdout)
	for {
		p := new(struct {
			listPackage
			CFiles, CXXFiles, SFiles, HFiles, SysoFiles []string
		})
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's output: %v", err)
		}
		lp := &p.listPackage
		for _, other := range [][]string{p.CFiles, p.CXXFiles, p.SFiles, p.HFiles, p.SysoFiles} {
			lp.OtherFiles = append(lp.OtherFiles, other...)
		}
		lp.pkgPath, _, _ = strings.Cut(lp.ImportPath, " ")
		// Imports holds the IDs of the imported packages; ImportMap maps
		// the import paths that the source spells differently, such as
		// vendored packages and test variants, to their IDs.
		lp.deps = map[string]string{}
		for _, id := range lp.Imports {
			if id != "C" {
				lp.depIDs = append(lp.depIDs, id)
				lp.deps[id] = id
			}
		}
		for src, id := range lp.ImportMap {
			lp.deps[src] = id
		}
		compiled := lp.CompiledGoFiles
		if len(compiled) == 0 {
			// A test's main package: its file is in the go command's
			// cache, and listed in GoFiles only.
			compiled = lp.GoFiles
		}
		if lp.ImportPath == "unsafe" {
			compiled = nil
		}
		for _, f := range compiled {
			// The go command lists assembly and C files among the
			// compiled files of some packages (golang.org/issue/28749);
			// files of its cache, such as cgo's output, have no
			// extension.
			if ext := filepath.Ext(f); ext != ".go" && ext != "" {
				continue
			}
			lp.files = append(lp.files, abs(lp.Dir, f))
		}
		lp.OtherFiles = absAll(lp.Dir, lp.OtherFiles)
		lp.IgnoredGoFiles = absAll(lp.Dir, lp.IgnoredGoFiles)
		lp.EmbedFiles = absAll(lp.Dir, lp.EmbedFiles)
		pkgs = append(pkgs, lp)
	}
	return pkgs, nil
}

func abs(dir, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(dir, file)
}

func absAll(dir string, files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = abs(dir, f)
	}
	return out
}
