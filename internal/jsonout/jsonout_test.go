package jsonout

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestUnescape(t *testing.T) {
	for _, s := range []string{
		`emq:{<q.name>}:pending`,
		`a & b`,
		`\u003c is text here`,
		`\\u003c`,
		"tab\there \"quoted\" \x01 \u2028",
		``,
	} {
		escaped, err := json.Marshal(map[string]string{"k<&>": s})
		if err != nil {
			t.Fatal(err)
		}
		got := Unescape(escaped)
		var back map[string]string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q: unescaped %s does not parse: %v", s, got, err)
		}
		if back["k<&>"] != s {
			t.Errorf("%q: unescaped JSON %s reads back as %q", s, got, back["k<&>"])
		}
		if bytes.Contains(got, []byte(`\u003c`)) && !bytes.Contains([]byte(s), []byte(`\u003c`)) {
			t.Errorf("%q: %s still escapes <", s, got)
		}
		plain, err := Marshal(map[string]string{"k<&>": s})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(plain, got) {
			t.Errorf("%q: Unescape gives %s, Marshal %s", s, got, plain)
		}
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := Writer(&b)
	w.Write([]byte(`{"m": "\u003c`))
	w.Write([]byte(`x\u003e"}`))
	if b.Len() != 0 {
		t.Fatalf("wrote before Close: %q", b.String())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), `{"m": "<x>"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
