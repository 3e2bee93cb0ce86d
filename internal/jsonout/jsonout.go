// Package jsonout writes the JSON that slotlint's commands print, as people
// read it: a key template such as "emq:{<q.name>}:pending" stays as it is,
// where encoding/json would write its < and > as \u003c and \u003e, an
// escape meant for JSON pasted into HTML.
package jsonout

import (
	"bytes"
	"encoding/json"
	"io"
)

// NewEncoder returns an encoder on w that indents by two spaces and does not
// escape <, > and &.
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc
}

// Marshal is json.Marshal without the escaping of <, > and &.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Unescape rewrites JSON that another encoder wrote with HTML escaping on
// (x/tools' JSON diagnostics tree is written with json.MarshalIndent): each
// \u003c, \u003e and \u0026 in a string becomes the character it stands
// for. Every other byte, and every other escape, is kept as it is; an
// escaped backslash followed by "u003c" is text, and stays.
func Unescape(data []byte) []byte {
	if !bytes.Contains(data, []byte(`\u00`)) {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\\' || i+1 >= len(data) {
			out = append(out, c)
			continue
		}
		if data[i+1] == 'u' && i+6 <= len(data) {
			switch string(data[i+2 : i+6]) {
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			}
		}
		// Any other escape: the backslash and the byte it escapes, so that
		// an escaped backslash is never read as the start of another.
		out = append(out, c, data[i+1])
		i++
	}
	return out
}

// Writer returns a writer that passes what is written to w through
// Unescape, once, when Close is called.
func Writer(w io.Writer) *UnescapeWriter {
	return &UnescapeWriter{w: w}
}

// An UnescapeWriter buffers JSON and writes it unescaped on Close.
type UnescapeWriter struct {
	w   io.Writer
	buf bytes.Buffer
}

func (u *UnescapeWriter) Write(p []byte) (int, error) { return u.buf.Write(p) }

// Close writes what was buffered, unescaped.
func (u *UnescapeWriter) Close() error {
	_, err := u.w.Write(Unescape(u.buf.Bytes()))
	u.buf.Reset()
	return err
}
