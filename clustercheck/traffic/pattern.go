package traffic

import (
	"strings"

	"github.com/slotlint/slotlint/ruleset"
)

// Pattern returns the pattern of a key: the template of the first key
// family of rules that builds it, or else the key with its varying parts
// replaced: "<uuid>" for a UUID, "<hex>" for a run of 8 or more hex digits
// that holds a digit, "<n>" for a number, and "<id>" for a long token of
// letters and digits that looks random (16 or more, with digits and
// letters). The key's separators (":", "/", ".", "{", "}" and the like)
// and its words stay as they are, so "{user:42}:cart" is
// "{user:<n>}:cart". A nil rules matches no family.
func Pattern(rules *ruleset.Rules, key string) string {
	if rules != nil && len(rules.Families) > 0 {
		if f, _, ok := rules.Match(key); ok {
			return f.Template.String()
		}
	}
	return Generalize(key)
}

// Generalize replaces the varying parts of key, as Pattern describes.
func Generalize(key string) string {
	var b strings.Builder
	i := 0
	for i < len(key) {
		if isSep(key[i]) {
			b.WriteByte(key[i])
			i++
			continue
		}
		j := i
		for j < len(key) && !isSep(key[j]) {
			j++
		}
		// A UUID holds '-', which is a separator: try it first.
		if n := uuidAt(key, i); n > 0 {
			b.WriteString("<uuid>")
			i += n
			continue
		}
		writeSegment(&b, key[i:j])
		i = j
	}
	return b.String()
}

// isSep reports whether c separates the parts of a key.
func isSep(c byte) bool {
	switch c {
	case ':', '/', '.', '{', '}', '|', '#', ',', '=', '@', ' ', '-', '_', '[', ']', '(', ')', ';', '\'', '"':
		return true
	}
	return false
}

// uuidAt returns 36 when key holds a UUID at i, 8-4-4-4-12 hex digits.
func uuidAt(key string, i int) int {
	if len(key)-i < 36 {
		return 0
	}
	for k := range 36 {
		c := key[i+k]
		switch k {
		case 8, 13, 18, 23:
			if c != '-' {
				return 0
			}
		default:
			if !isHex(c) {
				return 0
			}
		}
	}
	if i+36 < len(key) && !isSep(key[i+36]) {
		return 0
	}
	return 36
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// writeSegment writes one segment between separators, generalized.
func writeSegment(b *strings.Builder, seg string) {
	var hex, dig, alnum, letters = true, 0, true, 0
	for k := 0; k < len(seg); k++ {
		c := seg[k]
		hex = hex && isHex(c)
		alnum = alnum && isAlnum(c)
		if isDigit(c) {
			dig++
		} else if isAlnum(c) {
			letters++
		}
	}
	switch {
	case dig == len(seg):
		b.WriteString("<n>")
		return
	case hex && dig > 0 && len(seg) >= 8:
		b.WriteString("<hex>")
		return
	case alnum && dig > 0 && letters > 0 && len(seg) >= 16:
		b.WriteString("<id>")
		return
	}
	// Numbers inside words: "sku123" is "sku<n>".
	for k := 0; k < len(seg); {
		if !isDigit(seg[k]) {
			b.WriteByte(seg[k])
			k++
			continue
		}
		for k < len(seg) && isDigit(seg[k]) {
			k++
		}
		b.WriteString("<n>")
	}
}
