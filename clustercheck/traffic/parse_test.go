package traffic

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		line   string
		time   int64
		db     int
		client string
		args   []string
	}{
		{`1796153228.765133 [0 127.0.0.1:39144] "MULTI"`, 1796153228765133, 0, "127.0.0.1:39144", []string{"MULTI"}},
		{`1796153228.774483 [0 lua] "SET" "{s}:k" "1"`, 1796153228774483, 0, "lua", []string{"SET", "{s}:k", "1"}},
		{`1796156167.934207 [1 unix:/tmp/trx/r.sock] "select" "1"`, 1796156167934207, 1, "unix:/tmp/trx/r.sock", []string{"select", "1"}},
		{`1796156177.168184 [0 [::1]:36934] "set" "v6" "1"`, 1796156177168184, 0, "[::1]:36934", []string{"set", "v6", "1"}},
		{`1796156166.653997 [15 127.0.0.1:56310] "set" "a b" "x\"y\\z"`, 1796156166653997, 15, "127.0.0.1:56310", []string{"set", "a b", `x"y\z`}},
		// Written by a real redis-server 7.0 for a key of binary bytes.
		{`1796156185.900074 [0 127.0.0.1:38696] "SET" "bin\x00key\x01\xff\x7f\"\\ \r\n\a\b\t" ""`, 1796156185900074, 0, "127.0.0.1:38696",
			[]string{"SET", "bin\x00key\x01\xff\x7f\"\\ \r\n\a\b\t", ""}},
		{`1796156185.905750 [0 127.0.0.1:38696] "SET" "\xd0\xba\xD0\xBB" "v"`, 1796156185905750, 0, "127.0.0.1:38696", []string{"SET", "кл", "v"}},
		{`1.5 [0 c] "PING"`, 1500000, 0, "c", []string{"PING"}},
		{`1796153228.774389 [0 127.0.0.1:39144] "EVAL" "redis.call('SET', KEYS[1], 1) return redis.call('GET', 'undeclared:key')" "1" "{s}:k"`, 1796153228774389, 0, "127.0.0.1:39144",
			[]string{"EVAL", "redis.call('SET', KEYS[1], 1) return redis.call('GET', 'undeclared:key')", "1", "{s}:k"}},
	}
	for _, tt := range tests {
		var l Line
		if err := ParseLine([]byte(tt.line), &l); err != nil {
			t.Errorf("ParseLine(%q): %v", tt.line, err)
			continue
		}
		if l.Time != tt.time || l.DB != tt.db || l.Client != tt.client || !slices.Equal(l.Args, tt.args) {
			t.Errorf("ParseLine(%q) = %d %d %q %q, want %d %d %q %q", tt.line, l.Time, l.DB, l.Client, l.Args, tt.time, tt.db, tt.client, tt.args)
		}
	}
}

func TestParseLineErrors(t *testing.T) {
	tests := []struct {
		line, want string
		cut        bool
	}{
		{`OK`, "column 1: does not start with a timestamp", false},
		{`hello world`, "does not start with a timestamp", false},
		{`1796153228 [0 a] "GET"`, "does not start with a timestamp", false},
		{`1796153228.765133 "GET"`, `has no "[DB CLIENT]"`, false},
		{`1796153228.765133 [x a] "GET"`, "has no database number", false},
		{`1796153228.765133 [0 127.0.0.1:1`, `ends before the "]"`, true},
		{`1796153228.765133 [0 127.0.0.1:1]`, "ends before the command", true},
		{`1796153228.765133 [0 ] "GET"`, "has no client address", false},
		{`1796153228.765133 [0 a] "SET" "k" "val`, "column 39: ends inside argument 3, which has no closing quote", true},
		{`1796153228.765133 [0 a] "SET" "k\`, "ends inside an escape of argument 2", true},
		{`1796153228.765133 [0 a] "SET" "k\x4`, `ends inside a \x escape of argument 2`, true},
		{`1796153228.765133 [0 a] "SET" "k\xZZ"`, `has a bad escape "\\xZZ"`, false},
		{`1796153228.765133 [0 a] "SET" "k\q"`, `has an escape "\\q" that MONITOR does not write`, false},
		{`1796153228.765133 [0 a] "SET" "k"x`, `has "x" after argument 2`, false},
		{`1796153228.765133 [0 a] "SET"  "k"`, `after argument 1`, false},
		{`1796153228.765133 [0 a] "SET" `, `after argument 1`, false},
	}
	for _, tt := range tests {
		var l Line
		err := ParseLine([]byte(tt.line), &l)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.want) || se.cut != tt.cut {
			t.Errorf("ParseLine(%q) = %v, want %q (cut %v)", tt.line, err, tt.want, tt.cut)
		}
	}
}

func TestReader(t *testing.T) {
	in := "OK\n" +
		"1.000001 [0 a:1] \"GET\" \"k\"\r\n" +
		"\n" +
		"garbage here\n" +
		"+2.000002 [0 a:1] \"GET\" \"" + strings.Repeat("x", 300000) + "\"\n" +
		"3.000003 [0 a:1] \"SET\" \"k\" \"cut"
	var got []string
	r := eachLine(t, []byte(in), func(l *Line, n int) {
		got = append(got, l.Args[0]+" "+l.Args[1][:1]+" line "+string(rune('0'+n)))
	}, func(bl *BadLine) { got = append(got, bl.Error()) })
	want := []string{
		"GET k line 2",
		`line 4, column 1: does not start with a timestamp such as 1700000000.123456 (not MONITOR output: a line from another tool?): "garbage here"`,
		"GET x line 5",
		`line 6, column 32: ends inside argument 3, which has no closing quote (the line is cut short: a capture cut mid-line?): "3.000003 [0 a:1] \"SET\" \"k\" \"cut"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if r.Skipped != 2 {
		t.Errorf("skipped %d lines, want 2", r.Skipped)
	}
}

// eachLine reads data with a Reader, calling fn with each line and its
// number, and bad with each bad line; it returns the Reader.
func eachLine(tb testing.TB, data []byte, fn func(*Line, int), bad func(*BadLine)) *Reader {
	tb.Helper()
	r := NewReader(bytes.NewReader(data))
	var l Line
	for {
		err := r.Next(&l)
		var bl *BadLine
		switch {
		case err == io.EOF:
			return r
		case errors.As(err, &bl):
			bad(bl)
		case err != nil:
			tb.Fatal(err)
		default:
			fn(&l, r.LineNumber())
		}
	}
}

// FuzzParseLine checks that ParseLine never panics, and that a line it
// accepts, written again as MONITOR writes it, parses to the same.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`1796153228.765133 [0 127.0.0.1:39144] "MULTI"`,
		`1796153228.774483 [0 lua] "SET" "{s}:k" "1"`,
		`1796156167.934207 [1 unix:/tmp/r.sock] "select" "1"`,
		`1796156177.168184 [0 [::1]:36934] "set" "v6" "1"`,
		`1796156185.900074 [0 127.0.0.1:38696] "SET" "bin\x00key\x01\xff\x7f\"\\ \r\n\a\b\t" ""`,
		`1796153228.765133 [0 a] "SET" "k" "val`,
		`1796153228.765133 [0 a] "SET" "k\x4`,
		`OK`,
		``,
		`1796153228.765133 [3 a] "SELECT" "99999999999999999999"`,
		`1796153228.765133 [0 a] "SCAN" "0" "MATCH"`,
		`1796153228.765133 [0 a] "EVAL" "s" "-1" "k"`,
		`1796153228.765133 [0 a] "COPY" "a" "b" "DB" "x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var l Line
		if err := ParseLine(b, &l); err != nil {
			return
		}
		again := format(&l)
		var m Line
		if err := ParseLine([]byte(again), &m); err != nil {
			t.Fatalf("%q parsed, but its rewrite %q does not: %v", b, again, err)
		}
		if m.DB != l.DB || m.Client != l.Client || !slices.Equal(m.Args, l.Args) {
			t.Fatalf("%q and its rewrite %q parse differently: %q %q", b, again, l.Args, m.Args)
		}
		// The analyser takes any line: as a client's, and as a script's
		// after an EVAL.
		a := New(Options{})
		a.Feed(&l, 1)
		a.Feed(&Line{Client: "c:1", Args: []string{"EVAL", "", "1", "k"}}, 2)
		l.Client = "lua"
		a.Feed(&l, 3)
		a.Report()
	})
}

// format writes a line as Redis's replicationFeedMonitors does, with
// sdscatrepr's escapes.
func format(l *Line) string {
	var b strings.Builder
	b.WriteString("1.000001 [")
	b.WriteString(strings.Repeat("", 0))
	b.WriteString(itoa(l.DB))
	b.WriteString(" " + l.Client + "]")
	for _, a := range l.Args {
		b.WriteString(" \"")
		for i := 0; i < len(a); i++ {
			switch c := a[i]; c {
			case '\\', '"':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			case '\a':
				b.WriteString(`\a`)
			case '\b':
				b.WriteString(`\b`)
			default:
				if c < 0x20 || c >= 0x7f {
					b.WriteString(`\x` + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15]))
				} else {
					b.WriteByte(c)
				}
			}
		}
		b.WriteByte('"')
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
