package prefixed

import (
	"context"
	"encoding/json"

	"github.com/redis/go-redis/v9"
)

// Origin: go-oauth2/redis v3.2.1 (redis.go, TokenStore.Create and
// wrapperKey): every key is the store's configured namespace joined to a
// token, with no literal text of its own; one MULTI/EXEC sets the access
// and refresh tokens and the token's data. Two tokens of one namespace
// are keys of one template, which may hash to different slots.
type tokenStore struct {
	cli redis.UniversalClient
	ns  string
}

func newTokenStore(cli redis.UniversalClient, ns string) *tokenStore {
	return &tokenStore{cli: cli, ns: ns}
}

func (s *tokenStore) wrapperKey(key string) string { return s.ns + key }

type tokenInfo struct{ Access, Refresh, ID string }

func (s *tokenStore) Create(ctx context.Context, info tokenInfo) error {
	jv, err := json.Marshal(info)
	if err != nil {
		return err
	}
	pipe := s.cli.TxPipeline() // want `MULTI/EXEC transaction keys "<s.ns><info.ID>" \(hashtag unknown\) and "<s.ns><info.Access>" \(hashtag unknown\) may hash to different slots`
	pipe.Set(ctx, s.wrapperKey(info.ID), jv, 0)
	pipe.Set(ctx, s.wrapperKey(info.Access), info.ID, 0)
	pipe.Set(ctx, s.wrapperKey(info.Refresh), info.ID, 0)
	_, err = pipe.Exec(ctx)
	return err
}

// CreateFixed is the fixed form: each key is set by itself, the token's
// data first, so a reader that finds a token finds its data.
func (s *tokenStore) CreateFixed(ctx context.Context, info tokenInfo) error {
	jv, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if err := s.cli.Set(ctx, s.wrapperKey(info.ID), jv, 0).Err(); err != nil {
		return err
	}
	if err := s.cli.Set(ctx, s.wrapperKey(info.Access), info.ID, 0).Err(); err != nil {
		return err
	}
	return s.cli.Set(ctx, s.wrapperKey(info.Refresh), info.ID, 0).Err()
}

// Origin: TykTechnologies/tyk-pump v1.8.3 (storage/redis.go, Init,
// fixKey and GetAndDeleteSet): the key prefix is the configured one or
// "analytics-", set when the store starts; one transaction reads and
// trims one key, the prefix joined to the set's name by a helper, and so
// reads one prefix throughout.
type analyticsStore struct {
	db        redis.UniversalClient
	config    struct{ RedisKeyPrefix string }
	KeyPrefix string // want KeyPrefix:`keyField\("analytics-", "<r.config.RedisKeyPrefix>"\)`
}

func (r *analyticsStore) Init() {
	if r.config.RedisKeyPrefix == "" {
		r.KeyPrefix = "analytics-"
	} else {
		r.KeyPrefix = r.config.RedisKeyPrefix
	}
}

func (r *analyticsStore) hashKey(in string) string { return in }

func (r *analyticsStore) fixKey(keyName string) string {
	setKeyName := r.KeyPrefix + r.hashKey(keyName)
	return setKeyName
}

func (r *analyticsStore) GetAndDeleteSet(ctx context.Context, keyName string, chunk int64) ([]string, error) {
	fixedKey := r.fixKey(keyName)
	var lrange *redis.StringSliceCmd
	_, err := r.db.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		lrange = pipe.LRange(ctx, fixedKey, 0, chunk-1)
		if chunk == 0 {
			pipe.Del(ctx, fixedKey)
		} else {
			pipe.LTrim(ctx, fixedKey, chunk, -1)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return lrange.Val(), nil
}
