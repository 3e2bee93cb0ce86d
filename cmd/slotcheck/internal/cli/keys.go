package cli

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/slotlint/slotlint/internal/jsonout"
)

// keyEncoding says, in JSON output, how keys are written.
const keyEncoding = `"key" holds a key that is valid UTF-8, as JSON text; "key_base64" holds any other key, its bytes in standard base64`

// A jsonKey writes a key to JSON so that it can be read back exactly:
// {"key": "text"} for a valid UTF-8 key, {"key_base64": "..."} for any
// other (encoding/json would replace its invalid bytes with U+FFFD).
type jsonKey string

func (k jsonKey) MarshalJSON() ([]byte, error) {
	if utf8.ValidString(string(k)) {
		return jsonout.Marshal(struct {
			Key string `json:"key"`
		}{string(k)})
	}
	return jsonout.Marshal(struct {
		Key string `json:"key_base64"`
	}{base64.StdEncoding.EncodeToString([]byte(k))})
}

// keyFields fills a text field and its base64 twin: text when s is valid
// UTF-8, base64 otherwise.
func keyFields(s string) (text, b64 string) {
	if utf8.ValidString(s) {
		return s, ""
	}
	return "", base64.StdEncoding.EncodeToString([]byte(s))
}

// maxKeyShown is the longest key shown whole in text output, in bytes.
const maxKeyShown = 64

// showKey quotes a key for text output, Go-style (binary bytes escaped), and
// cuts a long one, saying its length: "user:123:…" (200 bytes).
func showKey(k string) string {
	if len(k) <= maxKeyShown {
		return strconv.Quote(k)
	}
	cut := maxKeyShown - 16
	for cut > 0 && !utf8.RuneStart(k[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(k[:cut]), len(k))
}
