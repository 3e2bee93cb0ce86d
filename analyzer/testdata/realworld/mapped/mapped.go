// Package mapped is a cache over rueidis whose multi-key methods map the
// caller's keys to the cache's own with a generic helper and a closure,
// after mattermost/mattermost (server/platform/services/cache/redis.go,
// GetMulti and RemoveMulti). A generic map of a []E by a func(E) R can
// make its results only by calling the function on the elements: each
// key is the closure's "<name>:<elem>", for elements that differ.
package mapped

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

type Redis struct {
	name   string
	client rueidis.Client
}

func sliceMapper[S ~[]E, E, R any](slice S, mapper func(E) R) []R {
	out := make([]R, len(slice))
	for i, v := range slice {
		out[i] = mapper(v)
	}
	return out
}

// mapIndexed has the signature of samber/lo's Map: the function takes
// each element and its index.
func mapIndexed[T, R any](collection []T, iteratee func(item T, index int) R) []R {
	out := make([]R, len(collection))
	for i := range collection {
		out[i] = iteratee(collection[i], i)
	}
	return out
}

func (r *Redis) GetMulti(keys []string) ([]string, error) {
	newKeys := sliceMapper(keys, func(elem string) string {
		return r.name + ":" + elem
	})
	return r.client.DoCache(context.Background(), r.client.B().Mget().Key(newKeys...).Cache(), time.Minute).AsStrSlice() // want `MGET keys built as "<r.name>:<elem>" from different values may hash to different slots`
}

func (r *Redis) RemoveMulti(keys []string) error {
	newKeys := mapIndexed(keys, func(elem string, _ int) string {
		return r.name + ":" + elem
	})
	return r.client.Do(context.Background(), r.client.B().Del().Key(newKeys...).Build()).Error() // want `DEL keys built as "<r.name>:<elem>" from different values may hash to different slots`
}

// Fixed: the cache's name is the hashtag of its keys, so that one cache's
// keys share a slot.
func (r *Redis) GetMultiFixed(keys []string) ([]string, error) {
	newKeys := sliceMapper(keys, func(elem string) string {
		return "{" + r.name + "}:" + elem
	})
	return r.client.DoCache(context.Background(), r.client.B().Mget().Key(newKeys...).Cache(), time.Minute).AsStrSlice()
}

func (r *Redis) RemoveMultiFixed(keys []string) error {
	newKeys := mapIndexed(keys, func(elem string, _ int) string {
		return "{" + r.name + "}:" + elem
	})
	return r.client.Do(context.Background(), r.client.B().Del().Key(newKeys...).Build()).Error()
}
