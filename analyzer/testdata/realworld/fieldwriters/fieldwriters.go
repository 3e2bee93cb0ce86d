// Package fieldwriters holds a field that a constructor sets from its
// parameter and other code sets to literals, read twice through methods'
// summaries: one object's field is one value in both keys (r.repo), not
// the literals chosen apart, which made the fixed form cross-slot, nor the
// engine's identity for the parameter in the message. Reduced from distribution/distribution's
// repository-scoped blob descriptor cache (registry/storage/cache/redis),
// whose test sets the field to literal repositories. It was found on the
// third held-out batch, whose figure is therefore measured before this
// case.
package fieldwriters

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

type cache struct{ pool redis.UniversalClient }

type scoped struct {
	repo     string
	upstream *cache
}

func (c *cache) Scoped(repo string) *scoped {
	return &scoped{repo: repo, upstream: c}
}

func fixtures(c *cache) []*scoped {
	return []*scoped{{repo: "foo/repo-a", upstream: c}, {repo: "foo/repo-b", upstream: c}}
}

func (r *scoped) setKey() string          { return "repository::" + r.repo + "::blobs" }
func (r *scoped) hashKey(d string) string { return "repository::" + r.repo + "::blobs::" + d }

func (r *scoped) Clear(ctx context.Context, d string) error {
	pipe := r.upstream.pool.TxPipeline() // want `MULTI/EXEC transaction keys "repository::<r.repo>::blobs" \(hashtag unknown\) and "repository::<r.repo>::blobs::<d>" \(hashtag unknown\) may hash to different slots`
	pipe.SRem(ctx, r.setKey(), d)
	pipe.Del(ctx, r.hashKey(d))
	_, err := pipe.Exec(ctx)
	return err
}

// The fix: the repository as the keys' hashtag.
func (r *scoped) setKeyFixed() string { return "repository::{" + r.repo + "}::blobs" }
func (r *scoped) hashKeyFixed(d string) string {
	return "repository::{" + r.repo + "}::blobs::" + d
}

func (r *scoped) ClearFixed(ctx context.Context, d string) error {
	pipe := r.upstream.pool.TxPipeline()
	pipe.SRem(ctx, r.setKeyFixed(), d)
	pipe.Del(ctx, r.hashKeyFixed(d))
	_, err := pipe.Exec(ctx)
	return err
}

// Origin: libi/dcron (driver/redisdriver.go): a node's key, a prefix and a
// fresh uuid.New().String(), set once in Init and read twice in one DEL.
// The field holds the one value it was given: both arguments are one key.
type node struct {
	c      *redis.Client
	nodeID string
}

func newID(service string) string { return "distributed-cron:" + service + ":" + freshID() }

func freshID() string { return strconv.FormatInt(time.Now().UnixNano(), 36) }

func (n *node) Init(service string) { n.nodeID = newID(service) }

func (n *node) stop(ctx context.Context) error {
	return n.c.Del(ctx, n.nodeID, n.nodeID).Err()
}

// The bad form: two nodes' keys, two values.
func (n *node) stopBoth(ctx context.Context, other *node) error {
	return n.c.Del(ctx, n.nodeID, other.nodeID).Err() // want `DEL keys built as "distributed-cron:<service>:<.*>" from different values may hash to different slots`
}
