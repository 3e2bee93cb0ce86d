package traffic

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// A Line is one line of MONITOR output:
//
//	1796153228.774141 [0 127.0.0.1:39144] "SET" "x:1" "v"
//	1796153228.774483 [0 lua] "SET" "{s}:k" "1"
//	1796153228.934207 [1 unix:/tmp/redis.sock] "select" "1"
type Line struct {
	// Time is the server's timestamp in microseconds since the Unix epoch.
	Time int64
	// DB is the database the command ran in; for a SELECT, the one it
	// selected.
	DB int
	// Client is the client's address as the server shows it:
	// "127.0.0.1:39144", "[::1]:5000", "unix:/tmp/redis.sock", or "lua"
	// for a command run by a script.
	Client string
	// Args are the command and its arguments, unescaped: binary bytes are
	// given back as they were sent.
	Args []string
}

// Lua reports whether the command was run by a script (EVAL, FCALL).
func (l *Line) Lua() bool { return l.Client == "lua" }

// A SyntaxError says why a line is not a MONITOR line, in predicate form.
type SyntaxError struct {
	// Col is the byte offset in the line, from 1, where it goes wrong.
	Col int
	Msg string
	cut bool // the line ends inside an argument: a capture cut mid-line
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

func syntaxErr(col int, format string, args ...any) error {
	return &SyntaxError{Col: col + 1, Msg: fmt.Sprintf(format, args...)}
}

// ParseLine parses one line of MONITOR output, without its line ending,
// into l, reusing l.Args. The arguments are substrings of one copy of the
// line, or new strings where they held escapes.
func ParseLine(b []byte, l *Line) error {
	i := 0
	// Timestamp: seconds '.' microseconds.
	sec, n := digits(b, i)
	if n == 0 || n > 12 || i+n >= len(b) || b[i+n] != '.' {
		return syntaxErr(i, "does not start with a timestamp such as 1700000000.123456")
	}
	i += n + 1
	usec, n := digits(b, i)
	if n == 0 || n > 6 {
		return syntaxErr(i, "does not start with a timestamp such as 1700000000.123456")
	}
	for range 6 - n {
		usec *= 10
	}
	i += n
	l.Time = sec*1_000_000 + usec
	if i+1 >= len(b) || b[i] != ' ' || b[i+1] != '[' {
		return syntaxErr(i, `has no "[DB CLIENT]" after the timestamp`)
	}
	i += 2
	db, n := digits(b, i)
	if n == 0 || n > 9 || i+n >= len(b) || b[i+n] != ' ' {
		return syntaxErr(i, `has no database number after "["`)
	}
	l.DB = int(db)
	i += n + 1
	// The client runs to `] "`: an IPv6 address holds ']' but no '"'.
	end := bytes.Index(b[i:], []byte(`] "`))
	if end < 0 {
		if bytes.IndexByte(b[i:], ']') < 0 {
			return &SyntaxError{Col: len(b) + 1, Msg: `ends before the "]" that closes "[DB CLIENT]"`, cut: true}
		}
		return &SyntaxError{Col: len(b) + 1, Msg: "ends before the command, after [DB CLIENT]", cut: true}
	}
	if end == 0 {
		return syntaxErr(i, "has no client address in [DB CLIENT]")
	}
	s := string(b) // one copy; the arguments are its substrings
	l.Client = s[i : i+end]
	i += end + 2
	l.Args = l.Args[:0]
	for {
		arg, next, err := quoted(s, i, len(l.Args)+1)
		if err != nil {
			return err
		}
		l.Args = append(l.Args, arg)
		i = next
		if i == len(s) {
			return nil
		}
		if s[i] != ' ' || i+1 == len(s) || s[i+1] != '"' {
			return syntaxErr(i, "has %q after argument %d where a space and a quoted argument should be", clip(s[i:]), len(l.Args))
		}
		i++
	}
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// digits reads a decimal number at b[i:]; n is the number of digits.
func digits(b []byte, i int) (v int64, n int) {
	for i+n < len(b) && b[i+n] >= '0' && b[i+n] <= '9' {
		if n < 18 {
			v = v*10 + int64(b[i+n]-'0')
		}
		n++
	}
	return v, n
}

// quoted reads the quoted argument at s[i], which is '"', as Redis's
// sdscatrepr writes it: \\ \" \n \r \t \a \b and \xHH escapes, other bytes
// as they are. It returns the argument and the index after its closing
// quote.
func quoted(s string, i, nth int) (string, int, error) {
	start := i + 1
	j := start
	for j < len(s) && s[j] != '"' && s[j] != '\\' {
		j++
	}
	if j < len(s) && s[j] == '"' {
		return s[start:j], j + 1, nil // no escape: a substring
	}
	buf := []byte(s[start:j])
	for j < len(s) {
		c := s[j]
		switch c {
		case '"':
			return string(buf), j + 1, nil
		case '\\':
			if j+1 >= len(s) {
				return "", 0, &SyntaxError{Col: j + 1, Msg: fmt.Sprintf("ends inside an escape of argument %d", nth), cut: true}
			}
			switch e := s[j+1]; e {
			case '\\', '"':
				buf = append(buf, e)
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'a':
				buf = append(buf, '\a')
			case 'b':
				buf = append(buf, '\b')
			case 'x':
				if j+4 > len(s) {
					return "", 0, &SyntaxError{Col: j + 1, Msg: fmt.Sprintf("ends inside a \\x escape of argument %d", nth), cut: true}
				}
				v, err := strconv.ParseUint(s[j+2:j+4], 16, 8)
				if err != nil {
					return "", 0, syntaxErr(j, "has a bad escape %q: \\x takes two hex digits", s[j:j+4])
				}
				buf = append(buf, byte(v))
				j += 2
			default:
				return "", 0, syntaxErr(j, "has an escape %q that MONITOR does not write", s[j:j+2])
			}
			j += 2
		default:
			buf = append(buf, c)
			j++
		}
	}
	return "", 0, &SyntaxError{Col: len(s) + 1, Msg: fmt.Sprintf("ends inside argument %d, which has no closing quote", nth), cut: true}
}

// A Reader reads MONITOR lines from a capture, as "redis-cli monitor >
// FILE" writes it, or from a MONITOR connection's replies with their "+"
// stripped.
type Reader struct {
	r    *bufio.Reader
	buf  []byte
	line int
	// Skipped counts the lines skipped without a word: blank lines and
	// the "OK" that redis-cli writes first.
	Skipped int
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 256<<10)}
}

// A BadLine is a line that is not MONITOR output. Reading goes on after it.
type BadLine struct {
	Line int    // from 1
	Text string // the line, cut to 60 bytes
	Err  error  // what is wrong with it: a *SyntaxError
}

func (e *BadLine) Error() string {
	return fmt.Sprintf("line %d, %s (%s): %s", e.Line, e.Err, e.hint(), strconv.Quote(e.Text))
}

// At writes the bad line as name:line:column: what is wrong (hint):
// "the line".
func (e *BadLine) At(name string) string {
	msg, col := e.Err.Error(), 0
	var se *SyntaxError
	if errors.As(e.Err, &se) {
		msg, col = se.Msg, se.Col
	}
	return fmt.Sprintf("%s:%d:%d: %s (%s): %s", name, e.Line, col, msg, e.hint(), strconv.Quote(e.Text))
}

func (e *BadLine) hint() string {
	if e.Cut() {
		return "the line is cut short: a capture cut mid-line?"
	}
	return "not MONITOR output: a line from another tool?"
}

// Cut reports whether the line ends inside its "[DB CLIENT]" or inside an
// argument, as the last line of a capture cut mid-line does.
func (e *BadLine) Cut() bool {
	var se *SyntaxError
	return errors.As(e.Err, &se) && se.cut
}

// LineNumber is the number, from 1, of the line Next returned last.
func (r *Reader) LineNumber() int { return r.line }

// Next reads the next line into l. It returns io.EOF at the end, a
// *BadLine for a line that is not MONITOR output (the next call reads on),
// or the reader's error.
func (r *Reader) Next(l *Line) error {
	for {
		b, err := r.readLine()
		if err != nil {
			return err
		}
		r.line++
		b = bytes.TrimSuffix(b, []byte{'\r'})
		if len(b) > 0 && b[0] == '+' { // a raw RESP simple string
			b = b[1:]
		}
		if len(bytes.TrimSpace(b)) == 0 || (r.line == 1 && string(b) == "OK") {
			r.Skipped++
			continue
		}
		if err := ParseLine(b, l); err != nil {
			text := b
			if len(text) > 60 {
				text = text[:60]
			}
			return &BadLine{Line: r.line, Text: string(text), Err: err}
		}
		return nil
	}
}

// readLine returns the next line without its '\n'; the last line of the
// input may have none. The slice is valid until the next call.
func (r *Reader) readLine() ([]byte, error) {
	b, err := r.r.ReadSlice('\n')
	if err == nil {
		return b[:len(b)-1], nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		if err == io.EOF && len(b) > 0 {
			return b, nil
		}
		return nil, err
	}
	r.buf = append(r.buf[:0], b...)
	for {
		b, err = r.r.ReadSlice('\n')
		r.buf = append(r.buf, b...)
		switch {
		case err == nil:
			return r.buf[:len(r.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			return r.buf, nil
		default:
			return nil, err
		}
	}
}
