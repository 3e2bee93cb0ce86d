// Package slot computes Redis Cluster hash slots.
//
// A key's slot is CRC16 (XMODEM) of its hash subject, modulo 16384. The hash
// subject is the hashtag, the text between the first '{' and the first '}'
// after it, when that text is not empty; otherwise it is the whole key. The
// functions here give the same answer as CLUSTER KEYSLOT for every key,
// arbitrary bytes included, and never allocate.
package slot

import (
	"strings"
	"unsafe"
)

// Count is the number of hash slots in a Redis Cluster.
const Count = 16384

// Of returns the hash slot of key. The empty key is in slot 0.
func Of(key string) int {
	i, j := tagBounds(key)
	return int(CRC16(key[i:j]) & (Count - 1))
}

// OfBytes is Of for a key held in a byte slice.
func OfBytes(key []byte) int {
	i, j := tagBounds(bytesView(key))
	return int(CRC16(key[i:j]) & (Count - 1))
}

// HashTag returns the part of key that Redis Cluster hashes. When key has a
// non-empty hashtag, it returns the hashtag and true; otherwise it returns the
// whole key and false.
func HashTag(key string) (subject string, tagged bool) {
	i, j := tagBounds(key)
	return key[i:j], i > 0
}

// HashTagBytes is HashTag for a key held in a byte slice. The returned slice
// aliases key.
func HashTagBytes(key []byte) (subject []byte, tagged bool) {
	i, j := tagBounds(bytesView(key))
	return key[i:j], i > 0
}

// tagBounds returns the bounds of key's hash subject, the hashtag or the whole
// key, by finding the first '{' and the first '}' after it. Short stretches are
// scanned by an inlined loop, longer ones by the runtime's vectorised
// IndexByte, whose call costs more than it saves on a few bytes.
func tagBounds(key string) (i, j int) {
	open := indexByte(key, '{')
	if open < 0 {
		return 0, len(key)
	}
	n := indexByte(key[open+1:], '}')
	if n <= 0 { // no closing brace, or "{}"
		return 0, len(key)
	}
	return open + 1, open + 1 + n
}

func indexByte(s string, c byte) int {
	if len(s) > 16 {
		return strings.IndexByte(s, c)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// bytesView returns b's bytes as a string without copying. The string is only
// read, and never outlives the call that made it.
func bytesView(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
