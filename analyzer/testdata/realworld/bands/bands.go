// Package bands holds keys whose hashtag is a band a hash of the key
// picks, under a namespace the constructor refuses when it holds a brace.
package bands

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
)

// Origin: hussainpithawala/sluice-go (internal/shield/shield.go: New,
// BandFor, payloadKey, dirtyKey, scanKeys): every key of a correlation
// key carries its band, "{<band>}", and New refuses a namespace with a
// brace, which would move the hashtag. The write script takes the payload
// and the band's dirty set: one slot. scanKeys runs SCAN in a closure that
// the ForEachMaster callback calls with each master, and that the
// non-cluster branch calls with the client.
type Shield struct {
	client    redis.UniversalClient
	namespace string
	bandCount int
}

var errBrace = errors.New("namespace must not contain '{' or '}'")

func New(client redis.UniversalClient, namespace string, bandCount int) (*Shield, error) {
	if strings.ContainsAny(namespace, "{}") {
		return nil, errBrace
	}
	return &Shield{client: client, namespace: namespace, bandCount: bandCount}, nil
}

func BandForKey(correlationKey string, bandCount int) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(correlationKey))
	return int(h.Sum32() % uint32(bandCount))
}

func (s *Shield) BandFor(correlationKey string) int {
	return BandForKey(correlationKey, s.bandCount)
}

func PayloadKey(namespace string, band int, ck string) string { // want PayloadKey:`keyFunc\("sl:<namespace>:payload:{<band>}:<ck>"\)`
	return fmt.Sprintf("sl:%s:payload:{%d}:%s", namespace, band, ck)
}

func DirtyKey(namespace string, band int) string { // want DirtyKey:`keyFunc\("sl:<namespace>:dirty:{<band>}"\)`
	return fmt.Sprintf("sl:%s:dirty:{%d}", namespace, band)
}

func (s *Shield) payloadKey(ck string) string { return PayloadKey(s.namespace, s.BandFor(ck), ck) }

func (s *Shield) dirtyKey(ck string) string { return DirtyKey(s.namespace, s.BandFor(ck)) }

var writeScript = redis.NewScript(`
redis.call('HSET', KEYS[1], 'p', ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1
`)

func (s *Shield) Write(ctx context.Context, correlationKey, payload, ts string) error {
	return writeScript.Run(ctx, s.client, []string{s.payloadKey(correlationKey), s.dirtyKey(correlationKey)}, payload, ts, correlationKey).Err()
}

func (s *Shield) scanKeys(ctx context.Context, pattern string) (int, error) {
	scan := func(ctx context.Context, c redis.Cmdable) (int, error) {
		keys, _, err := c.Scan(ctx, 0, pattern, 1000).Result()
		return len(keys), err
	}
	cc, ok := s.client.(*redis.ClusterClient)
	if !ok {
		return scan(ctx, s.client)
	}
	var total atomic.Int64
	err := cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
		n, err := scan(ctx, c)
		total.Add(int64(n))
		return err
	})
	return int(total.Load()), err
}

// Bad: a store whose constructor takes any namespace: one with a '{'
// moves the hashtag of both keys into it, and they may part.
type LooseShield struct {
	client    redis.UniversalClient
	namespace string
	bandCount int
}

func NewLoose(client redis.UniversalClient, namespace string, bandCount int) *LooseShield {
	return &LooseShield{client: client, namespace: namespace, bandCount: bandCount}
}

func (s *LooseShield) Write(ctx context.Context, correlationKey, payload, ts string) error {
	band := BandForKey(correlationKey, s.bandCount)
	return writeScript.Run(ctx, s.client, []string{PayloadKey(s.namespace, band, correlationKey), DirtyKey(s.namespace, band)}, payload, ts, correlationKey).Err() // want `EVALSHA keys "sl:<s.namespace>:payload:{<BandForKey\(correlationKey, s.bandCount\)>}:<correlationKey>" \(hashtag unknown\) and "sl:<s.namespace>:dirty:{<BandForKey\(correlationKey, s.bandCount\)>}" \(hashtag unknown\) may hash to different slots`
}

// Bad: the closure also handed the client whatever it is.
func (s *Shield) scanAny(ctx context.Context, pattern string) (int, error) {
	scan := func(ctx context.Context, c redis.Cmdable) (int, error) {
		keys, _, err := c.Scan(ctx, 0, pattern, 1000).Result() // want `SCAN on c, a client that may be a cluster, reads one node's keys only`
		return len(keys), err
	}
	return scan(ctx, s.client)
}

// A band drawn from an error's text: error's Error belongs to no package,
// and a function that calls it is not taken to give one value of its
// arguments (go-redis's error handling in launchdarkly/ld-relay's helpers
// calls it beside key helpers).
func errBand(err error) int { return len(err.Error()) % 16 }

func FailKey(namespace string, err error) string { // want FailKey:`keyFunc\("sl:<namespace>:fail:{<errBand\(err\)>}"\)`
	return fmt.Sprintf("sl:%s:fail:{%d}", namespace, errBand(err))
}
