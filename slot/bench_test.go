package slot

import (
	"fmt"
	"strings"
	"testing"
)

// baselineTable and baselineCRC16 are the plain byte-at-a-time table CRC16
// that the benchmarks measure Of against.
var baselineTable = func() (t [256]uint16) {
	for x := range 256 {
		t[x] = referenceCRC16([]byte{byte(x)})
	}
	return t
}()

func baselineCRC16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc = crc<<8 ^ baselineTable[byte(crc>>8)^s[i]]
	}
	return crc
}

// baselineOf is Redis's keyHashSlot from cluster.c with the baseline CRC:
// byte loops for the braces, then the CRC byte by byte.
func baselineOf(key string) int {
	s := 0
	for s < len(key) && key[s] != '{' {
		s++
	}
	if s < len(key) {
		e := s + 1
		for e < len(key) && key[e] != '}' {
			e++
		}
		if e < len(key) && e > s+1 {
			key = key[s+1 : e]
		}
	}
	return int(baselineCRC16(key) & 0x3FFF)
}

// benchKeys are keys of 16 B, 64 B and 1 KiB, without a hashtag and with one
// whose tag is a quarter of the key (at least 4 bytes).
func benchKeys() []struct{ name, key string } {
	var keys []struct{ name, key string }
	for _, n := range []int{16, 64, 1024} {
		plain := strings.Repeat("user:123:cache:", n/15+1)[:n]
		tagLen := max(n/4, 4)
		tagged := ("emq:{" + strings.Repeat("q", tagLen) + "}:job:" + strings.Repeat("9", n))[:n]
		keys = append(keys,
			struct{ name, key string }{fmt.Sprintf("%dB/plain", n), plain},
			struct{ name, key string }{fmt.Sprintf("%dB/tagged", n), tagged})
	}
	return keys
}

var sink int

func BenchmarkOf(b *testing.B) {
	for _, k := range benchKeys() {
		if Of(k.key) != baselineOf(k.key) {
			b.Fatalf("Of and the baseline disagree on %q", k.key)
		}
		b.Run(k.name+"/baseline", func(b *testing.B) {
			b.SetBytes(int64(len(k.key)))
			for b.Loop() {
				sink += baselineOf(k.key)
			}
		})
		b.Run(k.name+"/slot.Of", func(b *testing.B) {
			b.SetBytes(int64(len(k.key)))
			for b.Loop() {
				sink += Of(k.key)
			}
		})
	}
}

func BenchmarkOfBytes(b *testing.B) {
	for _, k := range benchKeys() {
		key := []byte(k.key)
		b.Run(k.name, func(b *testing.B) {
			b.SetBytes(int64(len(key)))
			for b.Loop() {
				sink += OfBytes(key)
			}
		})
	}
}
