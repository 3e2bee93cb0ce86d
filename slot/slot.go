// Package slot computes Redis Cluster hash slots.
//
// A key's slot is CRC16 (XMODEM) of its hash subject, modulo 16384. The hash
// subject is the hashtag, the text between the first '{' and the first '}'
// after it, when that text is not empty; otherwise it is the whole key. The
// functions here give the same answer as CLUSTER KEYSLOT for every key,
// arbitrary bytes included, and never allocate.
package slot

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unsafe"
)

// Count is the number of hash slots in a Redis Cluster.
const Count = 16384

// Of returns the hash slot of key. The empty key is in slot 0.
func Of(key string) int {
	if n := len(key); n >= 8 && n <= 16 {
		// Most keys are short: find the '{' in two overlapping 8-byte
		// words, then the '}' byte by byte in the few bytes after it.
		b := unsafe.Slice(unsafe.StringData(key), n)
		open := -1
		if m := bytesEqual(binary.LittleEndian.Uint64(b), '{'); m != 0 {
			open = bits.TrailingZeros64(m) >> 3
		} else if m := bytesEqual(binary.LittleEndian.Uint64(b[n-8:]), '{'); m != 0 {
			// Bytes n-8 to 7 are in both words and hold no '{'.
			open = n - 8 + bits.TrailingZeros64(m)>>3
		}
		if open >= 0 {
			j := open + 1
			for j < n && key[j] != '}' {
				j++
			}
			if j < n && j > open+1 {
				key = key[open+1 : j]
			}
		}
		return int(CRC16(key) & (Count - 1))
	}
	i, j := tagBounds(key)
	return int(CRC16(key[i:j]) & (Count - 1))
}

// OfBytes is Of for a key held in a byte slice.
func OfBytes(key []byte) int {
	return Of(bytesView(key))
}

// bytesEqual returns x with 0x80 in each byte that equals c and 0 in the
// others. Unlike the usual haszero trick it is exact for every byte, with no
// false matches above a true one, so any byte's result can be read.
func bytesEqual(x uint64, c byte) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	y := x ^ 0x0101010101010101*uint64(c) // 0 in the bytes equal to c
	return ^((y&low7 + low7) | y | low7)
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
// IndexByte, whose call costs more than it saves on a few bytes. Hashtags are
// usually near the start of a key, so the first 8 bytes are searched for the
// '{' a word at a time before IndexByte is called.
func tagBounds(key string) (i, j int) {
	var open int
	if len(key) >= 8 {
		b := unsafe.Slice(unsafe.StringData(key), len(key))
		if m := bytesEqual(binary.LittleEndian.Uint64(b), '{'); m != 0 {
			open = bits.TrailingZeros64(m) >> 3
		} else if open = indexByte(key[8:], '{'); open >= 0 {
			open += 8
		}
	} else {
		open = indexByte(key, '{')
	}
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
