package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// go vet asks its -vettool for "-V=full" and makes the answer part of the
// cache key of every package's result: a line "NAME version devel ...
// buildID=ID", of which it keeps what follows the last "/" of ID (cmd/go's
// toolID). x/tools' analysisflags, which singlechecker runs, answers with a
// SHA-256 of the whole executable, 12 MB read and hashed on every go vet
// run, warm or not, where cmd/vet prints a line it knows. slotlint answers
// with the build ID that the go command writes into every executable it
// links instead: the link's action ID, the main package's action and content
// IDs, and the executable's content ID, a hash of every byte of the file but
// the build ID itself. So go vet keeps what follows the last "/", the
// content ID, which changes with any change to the executable that a build
// makes, and reading it costs one small read of the file's first page.
//
// An executable without a build ID of that form (linked with an empty or
// hand-made -ldflags=-buildid=, or not by the go command, or whose build ID
// is not in its first 32 KB) is hashed as before. (A hand-made ID of four
// parts is taken at its word. The content ID is the hash of what the
// linker wrote; a change made to the file afterwards, such as by strip,
// does not change it.)

// printVersion prints slotlint's answer to -V=full to w and reports
// whether it did; it did not when the executable has no build ID that
// versionID accepts.
func printVersion(w io.Writer) bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	f, err := os.Open(exe)
	if err != nil {
		return false
	}
	defer f.Close()
	id := versionID(readBuildID(f))
	if id == "" {
		return false
	}
	fmt.Fprintf(w, "%s version devel slotlint buildID=%s\n", exe, id)
	return true
}

// versionID returns the build ID of an executable if the go command wrote it
// and filled in its content ID, else "". The go command links an executable
// with the build ID linkActionID/mainActionID/mainContentID/linkActionID,
// then replaces the last part with the hash of the file's content, every
// byte but the build ID's own.
func versionID(buildID string) string {
	parts := strings.Split(buildID, "/")
	if len(parts) != 4 || parts[3] == parts[0] {
		return ""
	}
	for _, p := range parts {
		if p == "" {
			return ""
		}
	}
	return buildID
}

// readSize is how much of the start of an executable readBuildID looks at,
// as cmd/internal/buildid does: enough for ELF's headers and notes, and
// for the start of the text segment in the other formats the linker
// writes (Windows puts it at 0x600, Plan 9 at 0x20).
const readSize = 32 << 10

// readBuildID returns the Go build ID that the linker stores in an
// executable, or "" when it finds none: in ELF, the note "Go" of type 4;
// in other formats, the string `\xff Go build ID: "ID"\n \xff` at the start
// of the text segment. It is what "go tool buildid FILE" prints, for the
// formats it reads without parsing the whole file.
func readBuildID(f io.ReaderAt) string {
	data := make([]byte, readSize)
	n, err := f.ReadAt(data, 0)
	if err != nil && err != io.EOF {
		return ""
	}
	data = data[:n]
	if bytes.HasPrefix(data, []byte("\x7fELF")) {
		return readELFNote(f, data)
	}
	return readRawBuildID(data)
}

// readRawBuildID finds the build ID that the linker writes at the start of
// the text segment.
func readRawBuildID(data []byte) string {
	prefix, end := []byte("\xff Go build ID: \""), []byte("\"\n \xff")
	i := bytes.Index(data, prefix)
	if i < 0 {
		return ""
	}
	rest := data[i+len(prefix)-1:]
	j := bytes.Index(rest[1:], end)
	if j < 0 {
		return ""
	}
	id, err := strconv.Unquote(string(rest[:j+2]))
	if err != nil {
		return ""
	}
	return id
}

// readELFNote finds the Go build ID note in the program headers of an ELF
// file, whose first bytes are data.
func readELFNote(f io.ReaderAt, data []byte) string {
	if len(data) < 64 {
		return ""
	}
	var bo binary.ByteOrder
	switch data[5] { // EI_DATA
	case 1:
		bo = binary.LittleEndian
	case 2:
		bo = binary.BigEndian
	default:
		return ""
	}
	type prog struct{ typ, off, size uint64 }
	var progs []prog
	switch data[4] { // EI_CLASS
	case 1: // ELFCLASS32
		phoff, phentsize, phnum := uint64(bo.Uint32(data[28:])), uint64(bo.Uint16(data[42:])), uint64(bo.Uint16(data[44:]))
		for i := range phnum {
			at := phoff + i*phentsize // at most 2^32 + 2^32
			if phentsize < 32 || at+32 > uint64(len(data)) {
				return ""
			}
			p := data[at:]
			progs = append(progs, prog{uint64(bo.Uint32(p)), uint64(bo.Uint32(p[4:])), uint64(bo.Uint32(p[16:]))})
		}
	case 2: // ELFCLASS64
		phoff, phentsize, phnum := bo.Uint64(data[32:]), uint64(bo.Uint16(data[54:])), uint64(bo.Uint16(data[56:]))
		if phoff > uint64(len(data)) {
			return ""
		}
		for i := range phnum {
			at := phoff + i*phentsize
			if phentsize < 56 || at+56 > uint64(len(data)) {
				return ""
			}
			p := data[at:]
			progs = append(progs, prog{uint64(bo.Uint32(p)), bo.Uint64(p[8:]), bo.Uint64(p[32:])})
		}
	default:
		return ""
	}
	const ptNote, goBuildIDTag = 4, 4
	for _, p := range progs {
		if p.typ != ptNote || p.size < 16 || p.size > 1<<20 {
			continue
		}
		var note []byte
		if p.off <= uint64(len(data)) && p.size <= uint64(len(data))-p.off {
			note = data[p.off : p.off+p.size]
		} else if p.off < 1<<62 {
			note = make([]byte, p.size)
			if _, err := f.ReadAt(note, int64(p.off)); err != nil {
				continue
			}
		} else {
			continue
		}
		for len(note) >= 12 {
			nameSize, descSize, tag := uint64(bo.Uint32(note)), uint64(bo.Uint32(note[4:])), bo.Uint32(note[8:])
			nameEnd := 12 + (nameSize+3)&^3
			descEnd := nameEnd + (descSize+3)&^3
			if descEnd > uint64(len(note)) {
				break
			}
			if tag == goBuildIDTag && nameSize == 4 && string(note[12:16]) == "Go\x00\x00" {
				return string(note[nameEnd : nameEnd+descSize])
			}
			note = note[descEnd:]
		}
	}
	return ""
}
