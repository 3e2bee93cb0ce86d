package scanned

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Origin: kvtools/redis (valkeyrie's Redis store, used by Traefik's KV
// provider; redis.go, Store.list, Store.keys, Store.mget and DeleteTree):
// a helper SCANs by the pattern its caller passes, "<directory>*", and
// returns every key it listed; the callers MGET them, through a helper
// that takes the keys as ...string, or DEL them in one call. The same
// helper is Aoi-hosizora/ahlib-db's xredis.ScanAll (SCAN by a caller's
// match, the batches appended and returned).
type store struct {
	client *redis.Client
}

func scanPattern(directory string) string {
	return fmt.Sprintf("%s*", directory)
}

func (s *store) keys(ctx context.Context, pattern string) ([]string, error) {
	var all []string
	keys, cursor, err := s.client.Scan(ctx, 0, pattern, 10).Result()
	if err != nil {
		return nil, err
	}
	all = append(all, keys...)
	for cursor != 0 {
		keys, cursor, err = s.client.Scan(ctx, cursor, pattern, 10).Result()
		if err != nil {
			return nil, err
		}
		all = append(all, keys...)
	}
	return all, nil
}

func (s *store) mget(ctx context.Context, keys ...string) ([]interface{}, error) {
	return s.client.MGet(ctx, keys...).Result()
}

func (s *store) list(ctx context.Context, directory string) ([]interface{}, error) {
	all, err := s.keys(ctx, scanPattern(directory))
	if err != nil {
		return nil, err
	}
	return s.mget(ctx, all...) // want `MGET \(through mget at helper.go:43\) keys built as "<directory><\*>" from different values may hash to different slots`
}

func (s *store) deleteTree(ctx context.Context, directory string) error {
	all, err := s.keys(ctx, scanPattern(directory))
	if err != nil {
		return err
	}
	return s.client.Del(ctx, all...).Err() // want `DEL keys built as "<directory><\*>" from different values may hash to different slots`
}

// Fixed: the directory is a hashtag, so every key under it, and every key
// the pattern "{<directory>}*" lists, is in its slot.
func (s *store) listFixed(ctx context.Context, directory string) ([]interface{}, error) {
	all, err := s.keys(ctx, "{"+directory+"}*")
	if err != nil {
		return nil, err
	}
	return s.mget(ctx, all...)
}

func (s *store) deleteTreeFixed(ctx context.Context, directory string) error {
	all, err := s.keys(ctx, "{"+directory+"}*")
	if err != nil {
		return err
	}
	return s.client.Del(ctx, all...).Err()
}

// A pattern the caller does not know either says nothing of the keys: not
// reported.
func (s *store) deleteMatching(ctx context.Context, pattern string) error {
	all, err := s.keys(ctx, pattern)
	if err != nil {
		return err
	}
	return s.client.Del(ctx, all...).Err()
}
