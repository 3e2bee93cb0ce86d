package slot

import (
	"strings"
	"testing"
)

// vectors are slots as CLUSTER KEYSLOT reports them.
var vectors = []struct {
	key  string
	slot int
}{
	{"123456789", 12739},
	{"foo", 12182},
	{"bar", 5061},
	{"{user1000}.following", 3443},
	{"{user1000}.followers", 3443},
	{"foo{}{bar}", 8363},
	{"foo{{bar}}zap", 4015},
	{"foo{bar}{zap}", 5061},
	{"", 0},
	{"emq:{orders}:pending", 105},
	{"emq:{orders}:job:42", 105},
	{"tmp:user:123:cache", 4489},
	{"user:123:cache", 7641},
	{"ingress", 13597},
	{"{ingress}_x", 13597},
	{"inventory:sku123", 5242},
	{"order:456:status", 9813},
}

func TestVectors(t *testing.T) {
	for _, v := range vectors {
		if got := Of(v.key); got != v.slot {
			t.Errorf("Of(%q) = %d, want %d", v.key, got, v.slot)
		}
		if got := OfBytes([]byte(v.key)); got != v.slot {
			t.Errorf("OfBytes(%q) = %d, want %d", v.key, got, v.slot)
		}
	}
}

func TestCRC16CheckValue(t *testing.T) {
	if got := CRC16("123456789"); got != 0x31C3 {
		t.Fatalf("CRC16(%q) = %#04x, want 0x31c3", "123456789", got)
	}
	// Every length around the 8-byte block boundary agrees with the reference.
	long := strings.Repeat("0123456789abcdef{}\x00\xff", 20)
	for n := 0; n <= len(long); n++ {
		if got, want := CRC16(long[:n]), referenceCRC16([]byte(long[:n])); got != want {
			t.Fatalf("CRC16 of %d bytes = %#04x, want %#04x", n, got, want)
		}
	}
}

func TestHashTag(t *testing.T) {
	tests := []struct {
		key, subject string
		tagged       bool
	}{
		{"foo", "foo", false},
		{"{user1000}.following", "user1000", true},
		{"foo{}{bar}", "foo{}{bar}", false},
		{"foo{{bar}}zap", "{bar", true},
		{"foo{bar}{zap}", "bar", true},
		{"foo{bar", "foo{bar", false},
		{"foo}bar{", "foo}bar{", false},
		{"}{x}", "x", true},
		{"", "", false},
	}
	for _, tt := range tests {
		subject, tagged := HashTag(tt.key)
		if subject != tt.subject || tagged != tt.tagged {
			t.Errorf("HashTag(%q) = %q, %v; want %q, %v", tt.key, subject, tagged, tt.subject, tt.tagged)
		}
		bsubject, btagged := HashTagBytes([]byte(tt.key))
		if string(bsubject) != tt.subject || btagged != tt.tagged {
			t.Errorf("HashTagBytes(%q) = %q, %v; want %q, %v", tt.key, bsubject, btagged, tt.subject, tt.tagged)
		}
	}
}

func TestNoAllocation(t *testing.T) {
	key := "emq:{orders}:job:" + strings.Repeat("x", 100)
	bkey := []byte(key)
	if n := testing.AllocsPerRun(100, func() { Of(key); OfBytes(bkey); HashTag(key) }); n != 0 {
		t.Fatalf("Of and OfBytes allocate %v times per call, want 0", n)
	}
}

func TestTagFor(t *testing.T) {
	for s := range Count {
		tag := TagFor(s)
		if tag == "" || len(tag) > 3 || strings.ContainsAny(tag, "{}") {
			t.Fatalf("TagFor(%d) = %q, want 1 to 3 characters without braces", s, tag)
		}
		if got := Of("{" + tag + "}:anything"); got != s {
			t.Fatalf("TagFor(%d) = %q, whose keys land in slot %d", s, tag, got)
		}
		if got := Of(tag); got != s {
			t.Fatalf("TagFor(%d) = %q, which alone lands in slot %d", s, tag, got)
		}
	}
}

func TestTagForOutOfRange(t *testing.T) {
	for _, s := range []int{-1, Count} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("TagFor(%d) did not panic", s)
				}
			}()
			TagFor(s)
		}()
	}
}

// referenceCRC16 is CRC16-XMODEM bit by bit, straight from its definition.
func referenceCRC16(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// referenceSlot is Redis's keyHashSlot from cluster.c, written out literally.
func referenceSlot(key []byte) int {
	s := -1
	for i := range key {
		if key[i] == '{' {
			s = i
			break
		}
	}
	if s == -1 {
		return int(referenceCRC16(key) & 0x3FFF)
	}
	e := -1
	for i := s + 1; i < len(key); i++ {
		if key[i] == '}' {
			e = i
			break
		}
	}
	if e == -1 || e == s+1 {
		return int(referenceCRC16(key) & 0x3FFF)
	}
	return int(referenceCRC16(key[s+1:e]) & 0x3FFF)
}

func FuzzOf(f *testing.F) {
	for _, v := range vectors {
		f.Add([]byte(v.key))
	}
	f.Add([]byte("{{}}"))
	f.Add([]byte("\x00{\xff}"))
	f.Fuzz(func(t *testing.T, key []byte) {
		want := referenceSlot(key)
		if got := OfBytes(key); got != want {
			t.Fatalf("OfBytes(%q) = %d, want %d", key, got, want)
		}
		if got := Of(string(key)); got != want {
			t.Fatalf("Of(%q) = %d, want %d", key, got, want)
		}
	})
}

// TestBraceLayouts compares Of with the reference on every key of up to 12
// bytes over '{', '}' and 'a', and on every placement of one '{' and one '}'
// in keys of up to 64 bytes, which cover the word-at-a-time search of short
// keys, the handover to IndexByte and the lengths around them.
func TestBraceLayouts(t *testing.T) {
	check := func(key []byte) {
		want := referenceSlot(key)
		if got := Of(string(key)); got != want {
			t.Fatalf("Of(%q) = %d, want %d", key, got, want)
		}
		if subject, _ := HashTag(string(key)); int(CRC16(subject)&(Count-1)) != want {
			t.Fatalf("HashTag(%q) = %q, which is not in slot %d", key, subject, want)
		}
	}
	for n := 0; n <= 12; n++ {
		key := make([]byte, n)
		for code := 0; code < pow3(n); code++ {
			for i, c := 0, code; i < n; i, c = i+1, c/3 {
				key[i] = "{}a"[c%3]
			}
			check(key)
		}
	}
	for n := 0; n <= 64; n++ {
		for open := -1; open < n; open++ {
			for close := -1; close < n; close++ {
				key := []byte(strings.Repeat("x", n))
				if open >= 0 {
					key[open] = '{'
				}
				if close >= 0 {
					key[close] = '}'
				}
				check(key)
			}
		}
	}
}

func pow3(n int) int {
	p := 1
	for range n {
		p *= 3
	}
	return p
}
