package matrix

import (
	"context"
	"strings"
	"testing"

	"github.com/mediocregopher/radix.v2/pool"
)

// TestRadix2PoolCmd shows, on a live cluster, that radix.v2's Pool.Cmd
// sends its command and arguments as they are to the one node the pool
// dials (the rules' raw Pool.Cmd): MGET of two slots gets CROSSSLOT from
// that node, and MGET of one hashtag the values.
func TestRadix2PoolCmd(t *testing.T) {
	l := sharedLab(t)
	if err := l.reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	p, err := pool.New("tcp", l.env.Owner("{price}:1"), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Empty()
	vals, err := p.Cmd("MGET", "{price}:1", "{price}:2").List()
	if err != nil || strings.Join(vals, " ") != "1 2" {
		t.Fatalf("Pool.Cmd MGET of one hashtag: %q, %v; want \"1 2\"", vals, err)
	}
	cross, err := pool.New("tcp", l.env.Owner("price:1"), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer cross.Empty()
	if err := cross.Cmd("MGET", "price:1", "price:2").Err; err == nil || !crossRE.MatchString(err.Error()) {
		t.Fatalf("Pool.Cmd MGET of two slots: %v; want CROSSSLOT", err)
	}
}
