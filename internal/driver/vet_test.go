package driver

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"reflect"
	"testing"
)

// TestDecodeVetx: a facts file is read whether it has types or not:
// unitchecker's, with its types section (which is skipped), slotlint's
// without, and an empty one.
func TestDecodeVetx(t *testing.T) {
	gob.Register(new(constFact))
	want := []vetFact{
		{PkgPath: "example.com/keys", Object: "User", Fact: &constFact{"user:{1}"}},
		{PkgPath: "example.com/model", Object: "T.M0", Fact: &constFact{"model"}},
	}
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode(want); err != nil {
		t.Fatal(err)
	}
	file := func(types []byte) []byte {
		b := []byte(vetxMagic)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(types)))
		b = binary.LittleEndian.AppendUint32(b, uint32(body.Len()))
		return append(append(b, types...), body.Bytes()...)
	}
	for name, data := range map[string][]byte{
		"unitchecker's, with types": file([]byte("i\x00some export data")),
		"without types":             file(nil),
	} {
		got, err := decodeVetx(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
	if got, err := decodeVetx(nil); err != nil || got != nil {
		t.Errorf("empty file: %v, %v; want no facts", got, err)
	}
	for name, data := range map[string][]byte{
		"bad magic": append([]byte("xxxx"), file(nil)[4:]...),
		"truncated": file(nil)[:20],
	} {
		if _, err := decodeVetx(data); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestHasExportData: slotlint's go vet driver takes a package when go vet
// gave the export data of every import, and it has one besides unsafe.
func TestHasExportData(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  VetConfig
		want bool
	}{
		{"every import", VetConfig{ImportMap: map[string]string{"fmt": "fmt", "unsafe": "unsafe"}, PackageFile: map[string]string{"fmt": "/x/fmt.a"}}, true},
		{"vendored import", VetConfig{ImportMap: map[string]string{"golang.org/x/net/dns/dnsmessage": "vendor/golang.org/x/net/dns/dnsmessage"}, PackageFile: map[string]string{"vendor/golang.org/x/net/dns/dnsmessage": "/x/d.a"}}, true},
		{"one missing", VetConfig{ImportMap: map[string]string{"fmt": "fmt", "os": "os"}, PackageFile: map[string]string{"fmt": "/x/fmt.a"}}, false},
		{"only unsafe", VetConfig{ImportMap: map[string]string{"unsafe": "unsafe"}}, false},
		{"no imports", VetConfig{}, false},
	} {
		if got := c.cfg.HasExportData(); got != c.want {
			t.Errorf("%s: HasExportData() = %v, want %v", c.name, got, c.want)
		}
	}
}
