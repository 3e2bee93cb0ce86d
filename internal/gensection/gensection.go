// Package gensection rewrites a generated section of a text file, such as
// rules.yaml: the lines from a begin marker line to an end marker line,
// both included. slotlint's generators of rules.yaml sections
// (internal/genmethods, internal/genrueidis) share it; internal/gencommands
// shares its comment wrapping.
package gensection

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// A Section is a generated section of a file.
type Section struct {
	// Name names the section in errors: "clients".
	Name string
	// Begin and End are the marker lines, without their newlines.
	Begin, End string
	// Where, if set, says where the markers belong, for the error when
	// the begin marker is missing.
	Where string
	// Generator is the command that writes the section.
	Generator string
}

// Bounds returns the offset of the line that is exactly s.Begin and the
// offset just past the first line after it that is exactly s.End.
func (s Section) Bounds(data []byte) (begin, end int, err error) {
	begin = lineOf(data, s.Begin, 0)
	if begin < 0 {
		if s.Where != "" {
			return 0, 0, fmt.Errorf("no line %q; put the markers %s", s.Begin, s.Where)
		}
		return 0, 0, fmt.Errorf("no line %q", s.Begin)
	}
	e := lineOf(data, s.End, begin)
	if e < 0 {
		return 0, 0, fmt.Errorf("no line %q after %q", s.End, s.Begin)
	}
	end = e + len(s.End)
	if end < len(data) && data[end] == '\n' {
		end++
	}
	return begin, end, nil
}

// Replace replaces the lines from the begin marker to the end marker, both
// included, with text.
func (s Section) Replace(data []byte, text string) ([]byte, error) {
	begin, end, err := s.Bounds(data)
	if err != nil {
		return nil, err
	}
	var out []byte
	out = append(out, data[:begin]...)
	out = append(out, text...)
	return append(out, data[end:]...), nil
}

// Update replaces the section of the file at path with what build returns
// for the file's contents. With check, it writes nothing and returns an
// error if the file would change.
func (s Section) Update(path string, check bool, build func(data []byte) (string, error)) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text, err := build(data)
	if err != nil {
		return err
	}
	updated, err := s.Replace(data, text)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if bytes.Equal(updated, data) {
		return nil
	}
	if check {
		return fmt.Errorf("%s: the %s section is out of date; run %s", path, s.Name, s.Generator)
	}
	return os.WriteFile(path, updated, 0o666)
}

// WrapComment writes text as YAML comment lines of at most 78 columns
// (longer only for a word that does not fit), each starting with indent.
func WrapComment(b *strings.Builder, indent, text string) {
	line := indent + "#"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > 78 && len(line) > len(indent)+1 {
			b.WriteString(line + "\n")
			line = indent + "#"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
}

// lineOf returns the offset of the first line at or after from that is
// exactly marker (a trailing \r aside), or -1.
func lineOf(data []byte, marker string, from int) int {
	for off := from; off < len(data); {
		next := bytes.IndexByte(data[off:], '\n')
		line := data[off:]
		if next >= 0 {
			line = data[off : off+next]
		}
		if string(bytes.TrimRight(line, "\r")) == marker {
			return off
		}
		if next < 0 {
			break
		}
		off += next + 1
	}
	return -1
}
