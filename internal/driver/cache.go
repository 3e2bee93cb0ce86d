package driver

import (
	"bytes"
	"encoding/gob"
	"encoding/hex"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
)

// An entry is what the cache holds for a package: its facts, encoded, and
// its diagnostics.
type entry struct {
	Facts []byte
	Diags []storedDiag
}

// A storedDiag is a diagnostic with positions as file, line and column,
// which outlive the run's token.FileSet.
type storedDiag struct {
	Pos, End storedPos
	Category string
	URL      string
	Message  string
	Related  []storedRelated
	Fixes    []storedFix
}

type storedRelated struct {
	Pos, End storedPos
	Message  string
}

type storedFix struct {
	Message string
	Edits   []storedEdit
}

type storedEdit struct {
	Pos, End storedPos
	New      []byte
}

type storedPos struct {
	File         string
	Line, Column int
}

func storePos(fset *token.FileSet, pos token.Pos) storedPos {
	if !pos.IsValid() {
		return storedPos{}
	}
	p := fset.Position(pos)
	return storedPos{p.Filename, p.Line, p.Column}
}

func storeDiagnostic(fset *token.FileSet, d analysis.Diagnostic) storedDiag {
	sd := storedDiag{
		Pos: storePos(fset, d.Pos), End: storePos(fset, d.End),
		Category: d.Category, URL: d.URL, Message: d.Message,
	}
	for _, r := range d.Related {
		sd.Related = append(sd.Related, storedRelated{storePos(fset, r.Pos), storePos(fset, r.End), r.Message})
	}
	for _, f := range d.SuggestedFixes {
		sf := storedFix{Message: f.Message}
		for _, e := range f.TextEdits {
			sf.Edits = append(sf.Edits, storedEdit{storePos(fset, e.Pos), storePos(fset, e.End), e.NewText})
		}
		sd.Fixes = append(sd.Fixes, sf)
	}
	return sd
}

func (sd storedDiag) diagnostic(files *fileTable) analysis.Diagnostic {
	d := analysis.Diagnostic{
		Pos: files.pos(sd.Pos), End: files.pos(sd.End),
		Category: sd.Category, URL: sd.URL, Message: sd.Message,
	}
	for _, r := range sd.Related {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: files.pos(r.Pos), End: files.pos(r.End), Message: r.Message})
	}
	for _, f := range sd.Fixes {
		sf := analysis.SuggestedFix{Message: f.Message}
		for _, e := range f.Edits {
			sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: files.pos(e.Pos), End: files.pos(e.End), NewText: e.New})
		}
		d.SuggestedFixes = append(d.SuggestedFixes, sf)
	}
	return d
}

// A fileTable turns stored positions back into token.Pos values of a new
// FileSet, one token.File per file, its lines read from the file.
type fileTable struct {
	fset  *token.FileSet
	files map[string]*token.File
}

func newFileTable(fset *token.FileSet) *fileTable {
	return &fileTable{fset: fset, files: map[string]*token.File{}}
}

// fakeLine is the length of each line of a file that does not read: its
// positions keep their lines and columns, and nothing more.
const fakeLine = 1 << 16

func (t *fileTable) pos(p storedPos) token.Pos {
	if p.File == "" || p.Line < 1 {
		return token.NoPos
	}
	f, ok := t.files[p.File]
	if !ok {
		if data, err := os.ReadFile(p.File); err == nil {
			f = t.fset.AddFile(p.File, -1, len(data))
			f.SetLinesForContent(data)
		} else {
			const lines = 1 << 14
			f = t.fset.AddFile(p.File, -1, lines*fakeLine)
			offsets := make([]int, lines)
			for i := range offsets {
				offsets[i] = i * fakeLine
			}
			f.SetLines(offsets)
		}
		t.files[p.File] = f
	}
	if p.Line > f.LineCount() {
		return token.Pos(f.Base() + f.Size())
	}
	start := f.LineStart(p.Line)
	end := f.Base() + f.Size()
	if p.Line < f.LineCount() {
		end = int(f.LineStart(p.Line + 1))
	}
	return token.Pos(min(int(start)+p.Column-1, end))
}

// path is where an entry lives: its key in hex, under a directory named by
// the key's first byte, as the go command's build cache does.
func (d *run) path(n *node) string {
	k := hex.EncodeToString(n.key[:])
	return filepath.Join(d.cfg.CacheDir, k[:2], k+"-slotlint")
}

// cacheGet reads a package's entry into n.entry, and returns it, or nil.
func (d *run) cacheGet(n *node) *entry {
	path := d.path(n)
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil
	}
	data := make([]byte, info.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil
	}
	e := new(entry)
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(e); err != nil {
		return nil
	}
	// The entry's modification time is when it was last used, to a day,
	// for trim.
	if now := time.Now(); now.Sub(info.ModTime()) > day {
		os.Chtimes(path, now, now)
	}
	n.entry = e
	return e
}

// Entries unused for trimAge are removed, at most once every trimEvery,
// as the go command trims its build cache.
const (
	day       = 24 * time.Hour
	trimAge   = 7 * day
	trimEvery = day
)

// trim removes the entries of the cache that no run used for trimAge,
// and temporary files left by runs that stopped, when it has not done so
// for trimEvery. Errors are dropped: a cache that is not trimmed only
// takes room.
func trim(dir string, now time.Time) {
	marker := filepath.Join(dir, "trim.txt")
	if info, err := os.Stat(marker); err == nil && now.Sub(info.ModTime()) < trimEvery {
		return
	}
	subdirs, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, sub := range subdirs {
		if !sub.IsDir() || len(sub.Name()) != 2 {
			continue
		}
		files, err := os.ReadDir(filepath.Join(dir, sub.Name()))
		if err != nil {
			continue
		}
		for _, f := range files {
			info, err := f.Info()
			if err != nil {
				continue
			}
			age := now.Sub(info.ModTime())
			if strings.HasSuffix(f.Name(), "-slotlint") && age > trimAge || strings.HasPrefix(f.Name(), ".tmp-") && age > time.Hour {
				os.Remove(filepath.Join(dir, sub.Name(), f.Name()))
			}
		}
	}
	os.WriteFile(marker, []byte(now.UTC().Format(time.RFC3339)+"\n"), 0o666)
}

// cachePut stores an entry, in a temporary file renamed into place, so
// that a concurrent run reads a whole entry or none. A cache that cannot
// be written costs the next run time, nothing else: errors are dropped.
func (d *run) cachePut(n *node, e *entry) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(e); err != nil {
		return
	}
	path := d.path(n)
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}
