package fields

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Origin: mcoder2014/home_server (domain/service/webanalytics/redis.go,
// mergeHLLBaseline): a function-local struct type pairs each HyperLogLog
// with a temporary key, both built from one project base; the pairs are
// collected in a slice and merged in one MULTI/EXEC. The base's receiver
// field and parameter are one value for every pair of one call: with the
// project id in a hashtag the keys share a slot, without one they do not.
type analytics struct {
	client redis.UniversalClient
	prefix string
}

func (s *analytics) projectBase(id int64) string {
	return fmt.Sprintf("%s:analytics:v1:{%d}:", s.prefix, id)
}

func (s *analytics) untaggedBase(id int64) string {
	return fmt.Sprintf("%s:analytics:v1:%d:", s.prefix, id)
}

func (s *analytics) mergeBaseline(ctx context.Context, id int64, days []string) error {
	type mergePair struct{ destination, temporary string }
	base := s.untaggedBase(id)
	pairs := []mergePair{{destination: base + "uv:all", temporary: base + "merge:all"}}
	for _, day := range days {
		pairs = append(pairs, mergePair{destination: base + "uv:" + day, temporary: base + "merge:" + day})
	}
	_, err := s.client.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys "<s.prefix>:analytics:v1:<id>:uv:all" \(hashtag unknown\) and "<s.prefix>:analytics:v1:<id>:merge:all" \(hashtag unknown\) may hash to different slots`
		for _, pair := range pairs {
			pipe.PFMerge(ctx, pair.destination, pair.destination, pair.temporary) // want `PFMERGE keys "<s.prefix>:analytics:v1:<id>:uv:all" \(hashtag unknown\) and "<s.prefix>:analytics:v1:<id>:merge:all" \(hashtag unknown\) may hash to different slots`
			pipe.Del(ctx, pair.temporary)
		}
		return nil
	})
	return err
}

// Fixed, as the project has it: the project id is the keys' hashtag.
func (s *analytics) mergeBaselineFixed(ctx context.Context, id int64, days []string) error {
	type mergePair struct{ destination, temporary string }
	base := s.projectBase(id)
	pairs := []mergePair{{destination: base + "uv:all", temporary: base + "merge:all"}}
	for _, day := range days {
		pairs = append(pairs, mergePair{destination: base + "uv:" + day, temporary: base + "merge:" + day})
	}
	_, err := s.client.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, pair := range pairs {
			pipe.PFMerge(ctx, pair.destination, pair.destination, pair.temporary)
			pipe.Del(ctx, pair.temporary)
		}
		return nil
	})
	return err
}

// Pairs of several projects in one MULTI/EXEC: each pair's id is another.
func (s *analytics) mergeProjects(ctx context.Context, ids []int64) error {
	type mergePair struct{ destination, temporary string }
	var pairs []mergePair
	for _, id := range ids {
		base := s.projectBase(id)
		pairs = append(pairs, mergePair{destination: base + "uv:all", temporary: base + "merge:all"})
	}
	_, err := s.client.TxPipelined(ctx, func(pipe redis.Pipeliner) error { // want `MULTI/EXEC transaction keys built as "<s.prefix>:analytics:v1:\{<id>\}:uv:all" from different values may hash to different slots`
		for _, pair := range pairs {
			pipe.PFMerge(ctx, pair.destination, pair.destination, pair.temporary)
		}
		return nil
	})
	return err
}
