// Package session keeps a user's sessions as go-zero applications do,
// through the wrapper of package redisx.
package session

import (
	"context"
	"strconv"

	"slotlint.test/realworld/zerowrap/redisx"
)

// Origin: ryanreadbooks/whimer (wslink/internal/infra/dao/session_op.go,
// GetByUid and DeleteByUid, over go-zero's redis): a user's session ids
// are the members of a set, read back with the wrapper's SmembersCtx;
// their hashes are read in one MULTI/EXEC of the wrapper's TxPipeline,
// which returns the pipeline with an error, and deleted with the set in
// one DEL.
type Dao struct{ cache *redisx.Redis }

func uidKey(uid int64) string { return "wslink:uid:" + strconv.FormatInt(uid, 10) }

func (d *Dao) getByUid(ctx context.Context, uid int64) error {
	ids, err := d.cache.SmembersCtx(ctx, uidKey(uid))
	if err != nil || len(ids) == 0 {
		return err
	}
	pipe, err := d.cache.TxPipeline() // want `MULTI/EXEC transaction keys built as "<id>" from different values may hash to different slots`
	if err != nil {
		return err
	}
	for _, id := range ids {
		pipe.HGetAll(ctx, id)
	}
	_, err = pipe.Exec(ctx)
	return err
}

// Fixed: a plain pipeline, which a cluster client sends to each key's
// node.
func (d *Dao) getByUidFixed(ctx context.Context, uid int64, c redisClient) error {
	ids, err := d.cache.SmembersCtx(ctx, uidKey(uid))
	if err != nil || len(ids) == 0 {
		return err
	}
	pipe := c.Pipeline()
	for _, id := range ids {
		pipe.HGetAll(ctx, id)
	}
	_, err = pipe.Exec(ctx)
	return err
}

type redisClient interface {
	Pipeline() redisx.Pipeliner
}

func (d *Dao) deleteByUid(ctx context.Context, uid int64) error {
	k := uidKey(uid)
	ids, err := d.cache.SmembersCtx(ctx, k)
	if err != nil || len(ids) == 0 {
		return err
	}
	del := append(ids, k)
	_, err = d.cache.DelCtx(ctx, del...) // want `DEL \(through DelCtx at redisx.go:\d+\) keys built as "<SMEMBERS reply>" from different values may hash to different slots`
	return err
}

// Fixed: one DEL a key, in a plain pipeline.
func (d *Dao) deleteByUidFixed(ctx context.Context, uid int64, c redisClient) error {
	k := uidKey(uid)
	ids, err := d.cache.SmembersCtx(ctx, k)
	if err != nil {
		return err
	}
	pipe := c.Pipeline()
	for _, id := range append(ids, k) {
		pipe.Del(ctx, id)
	}
	_, err = pipe.Exec(ctx)
	return err
}

// Origin: FouGuai/FUZOJ (services/rank_ws_service, leaderboard_repository.go,
// loadPageRows, over go-zero's redis): a script made with the wrapper's
// NewScript reads each member's detail hash by a prefix passed in ARGV,
// keys it is not given.
var rankLoadPage = redisx.NewScript(`
local ids = redis.call("ZREVRANGE", KEYS[1], ARGV[2], ARGV[3])
local out = {}
for i = 1, #ids do
	table.insert(out, redis.call("HGET", ARGV[1] .. ids[i], "summary"))
end
return out
`)

func (d *Dao) loadPage(ctx context.Context, contestID string) (any, error) {
	return d.cache.ScriptRunCtx(ctx, rankLoadPage, []string{"contest:lb:" + contestID}, "contest:lb:detail:"+contestID+":", 0, 9) // want `script rankLoadPage line 5: redis.call\("HGET", ARGV\[1\] \.\. ids\[i\], "summary"\) touches a key not declared in KEYS: the concatenation ARGV\[1\] \.\. <value read from Redis at line 2>; it may be in another slot than KEYS\[1\]`
}

// Fixed: the script returns the page's member ids, and each detail hash
// is read with a command of its own.
var rankPageIDs = redisx.NewScript(`return redis.call("ZREVRANGE", KEYS[1], ARGV[1], ARGV[2])`)

func (d *Dao) loadPageFixed(ctx context.Context, contestID string) (any, error) {
	return d.cache.ScriptRunCtx(ctx, rankPageIDs, []string{"contest:lb:{" + contestID + "}"}, 0, 9)
}
