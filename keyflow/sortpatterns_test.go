package keyflow

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/slotlint/slotlint/internal/redistest"
	"github.com/slotlint/slotlint/keyspace"
)

// TestSortPatternsOnCluster sends SORT with BY and GET options to a real
// cluster and checks that appendRefused tells apart the options the
// server refuses from those it accepts, as slotlint reports them for
// go-redis's Sort and for raw SORT commands: Redis 7.0 in cluster mode
// refuses every GET and every BY with a '*' pattern, even one with the
// sorted key's hashtag.
func TestSortPatternsOnCluster(t *testing.T) {
	c := redistest.StartCluster(t)
	rdb := c.Client(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const key = "{pkgs}:index"
	if err := rdb.RPush(ctx, key, "1", "2").Err(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opt, pattern string
		refused      bool
	}{
		{"BY", "pkg:*->score", true},
		{"GET", "pkg:*->path", true},
		{"BY", "weight_*", true},
		{"BY", "{pkgs}:w_*", true},
		{"GET", "{pkgs}:*->path", true},
		{"GET", "#", true},
		{"BY", "nosort", false},
		{"BY", "weight", false}, // no '*': no sorting, nothing read
	} {
		err := rdb.Do(ctx, "SORT", key, tc.opt, tc.pattern).Err()
		refused := err != nil && strings.Contains(err.Error(), "denied in Cluster mode")
		if err != nil && !refused {
			t.Fatalf("SORT %s %s %s: %v", key, tc.opt, tc.pattern, err)
		}
		if refused != tc.refused {
			t.Errorf("SORT %s %s %q: refused %v, want %v (%v)", key, tc.opt, tc.pattern, refused, tc.refused, err)
		}
		got := appendRefused(nil, tc.opt, Group{{Key: keyspace.Lit(tc.pattern)}})
		if (len(got) == 1) != refused {
			t.Errorf("appendRefused(%s %q) = %v; the server refused it: %v", tc.opt, tc.pattern, got, refused)
		}
	}
}
