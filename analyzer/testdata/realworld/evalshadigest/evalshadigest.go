// Package evalshadigest holds EVALSHA calls whose digest is constant text,
// reduced from real projects. The first argument of EVALSHA is a SHA1
// digest, never Lua source: a constant there names the package's script
// with that digest, or no script slotlint knows (Redis answers NOSCRIPT),
// and is not parsed as Lua. The keys of the call are checked either way.
package evalshadigest

import (
	"context"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

// Origin: go-redis/redismock v9.2.0 (commands_test.go): EvalSha and
// EvalShaRO with the placeholder digest "sha", a mock's expectation.
func placeholderDigest(ctx context.Context, rdb *redis.Client) {
	rdb.EvalSha(ctx, "sha", []string{"{job}:a", "{job}:b"}, "x")
	rdb.EvalShaRO(ctx, "abc", []string{"{job}:a"}, "x")
	rdb.Do(ctx, "EVALSHA", "sha-do", 1, "{job}:a", "x")
	digest := "sha-var"
	rdb.EvalSha(ctx, digest, []string{"{job}:a"})
	runSHA(ctx, rdb, "sha-wrapped", []string{"{job}:a"})
}

// Origin: alicebob/miniredis v2.5.0 (cmd_scripting_test.go): EVALSHA of
// an unknown digest through redigo, expecting NOSCRIPT.
func placeholderDigestRedigo(c redigo.Conn) {
	c.Do("EVALSHA", "foo", 0)
	c.Do("EVALSHA", "foo-keys", 2, "job:a", "job:b") // want `EVALSHA keys "job:a" \(slot \d+\) and "job:b" \(slot \d+\) hash to different slots`
}

// The keys of the call are still checked, whatever its digest.
func placeholderDigestKeys(ctx context.Context, rdb *redis.Client) {
	rdb.EvalSha(ctx, "sha", []string{"job:a", "job:b"}, "x") // want `EVALSHA keys "job:a" \(slot \d+\) and "job:b" \(slot \d+\) hash to different slots`
	rdb.Do(ctx, "EVALSHA", "sha", 2, "job:a", "job:b")       // want `EVALSHA keys "job:a" \(slot \d+\) and "job:b" \(slot \d+\) hash to different slots`
}

func runSHA(ctx context.Context, rdb *redis.Client, sha string, keys []string) error {
	return rdb.EvalSha(ctx, sha, keys).Err()
}

// The digest of a script the package makes is that script, and is checked.
const incrSrc = `return redis.call("INCR", "counter:total") + redis.call("INCR", KEYS[1])`

const incrSHA = "80f4cc7fd79b2bff1fe1c10432a9f2b6b5d45bb7" // SHA1 of incrSrc

var incr = redis.NewScript(incrSrc)

func knownDigest(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.EvalSha(ctx, incrSHA, []string{"{job}:a"}) // want `script incrSrc line 1: redis.call\("INCR", "counter:total"\) touches a key not declared in KEYS: the string literal "counter:total"`
}

// Origin: richelieu-yang/chimera (src/database/redisKit/script.go): a
// client whose EvalSha takes the digest its callers got from ScriptLoad
// at run time. The digest is unknown here, but the keys are still keys:
// they are checked where they are built.
type kitClient struct {
	universal redis.UniversalClient
}

func (c *kitClient) ScriptLoad(ctx context.Context, script string) (string, error) {
	return c.universal.ScriptLoad(ctx, script).Result()
}

func (c *kitClient) EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) (interface{}, error) { // want EvalSha:`keyWrapper\(EVALSHA "<keys...>" script \$1\)`
	return c.universal.EvalSha(ctx, sha1, keys, args...).Result()
}

type rateLimiter struct {
	kit *kitClient
	sha string // loaded at start-up
}

func (l *rateLimiter) allow(ctx context.Context, user string) (interface{}, error) {
	return l.kit.EvalSha(ctx, l.sha, []string{"rate:" + user, "rate:" + user + ":ts"}, 10) // want `EVALSHA \(through EvalSha at evalshadigest.go:\d+\) keys "rate:<user>" .* and "rate:<user>:ts" .* hash to different slots`
}

func (l *rateLimiter) allowFixed(ctx context.Context, user string) (interface{}, error) {
	return l.kit.EvalSha(ctx, l.sha, []string{"rate:{" + user + "}", "rate:{" + user + "}:ts"}, 10)
}

// A digest handed in as a parameter, run on the client itself.
func runDigest(ctx context.Context, rdb *redis.ClusterClient, sha, order string) error {
	return rdb.EvalSha(ctx, sha, []string{"order:" + order, "stock:" + order}).Err() // want `EVALSHA keys "order:<order>" .* and "stock:<order>" .* hash to different slots`
}

func runDigestFixed(ctx context.Context, rdb *redis.ClusterClient, sha, order string) error {
	return rdb.EvalSha(ctx, sha, []string{"order:{" + order + "}", "stock:{" + order + "}"}).Err()
}

// A caller that hands runDigest the digest of the package's own script:
// the script is checked here with runDigest's keys, which were checked
// in runDigest, not again here.
func settle(ctx context.Context, rdb *redis.ClusterClient) {
	runDigest(ctx, rdb, incrSHA, "o1") // want `script incrSrc line 1: redis.call\("INCR", "counter:total"\) touches a key not declared in KEYS` `script incrSrc: the call passes 2 keys but the script never reads KEYS\[2\] \("stock:o1"\)`
}

// Origin: Pacific73/gorm-cache (data_layer/redis.go, RedisLayer): scripts
// loaded with SCRIPT LOAD when the layer starts, through one variable set
// twice, their digests kept in fields and run with EVALSHA. The clean
// script deletes what KEYS finds, and a literal key, none of them in KEYS.
type cacheLayer struct {
	client    *redis.Client
	prefix    string
	cleanSha  string
	existsSha string
	delSha    string
}

func (r *cacheLayer) initScripts(ctx context.Context) error {
	existsScript := `
		for _, k in pairs(KEYS) do
			if redis.call('EXISTS', k) == 0 then return 0 end
		end
		return 1`
	cleanScript := `
		local keys = redis.call('keys', ARGV[1])
		for i = 1, #keys, 5000 do
			redis.call('del', 'defaultKey', unpack(keys, i, math.min(i + 4999, #keys)))
		end
		return 1`
	result := r.client.ScriptLoad(ctx, existsScript)
	if result.Err() != nil {
		return result.Err()
	}
	r.existsSha = result.Val()
	result = r.client.ScriptLoad(ctx, cleanScript)
	if result.Err() != nil {
		return result.Err()
	}
	r.cleanSha = result.Val()
	result = r.client.ScriptLoad(ctx, "return redis.call('del', unpack(KEYS))")
	r.delSha = result.Val()
	return result.Err()
}

func (r *cacheLayer) cleanCache(ctx context.Context) error {
	return r.client.EvalSha(ctx, r.cleanSha, []string{"0"}, r.prefix+":*").Err() // want `script cleanScript line 4: redis.call\("del", "defaultKey", unpack\(\.\.\.\)\) touches a key not declared in KEYS: the string literal "defaultKey"` `script cleanScript line 4: .* passes a value read from Redis by redis.call\("keys", ARGV\[1\]\) at line 2` `script cleanScript: the call passes 1 key but the script never reads KEYS\[1\] \("0"\)`
}

// The fixed form: the keys to delete are listed beforehand (SCAN on each
// node) and passed in KEYS, a batch of one hashtag at a time.
func (r *cacheLayer) cleanCacheFixed(ctx context.Context, table string) error {
	return r.client.EvalSha(ctx, r.delSha, []string{"{" + r.prefix + ":" + table + "}:p", "{" + r.prefix + ":" + table + "}:s"}).Err()
}

func (r *cacheLayer) keysExist(ctx context.Context, id string) (bool, error) {
	return r.client.EvalSha(ctx, r.existsSha, []string{r.prefix + ":p:" + id, r.prefix + ":s:" + id}).Bool() // want `EVALSHA keys "<r.prefix>:p:<id>" \(hashtag unknown\) and "<r.prefix>:s:<id>" \(hashtag unknown\) may hash to different slots`
}

func (r *cacheLayer) keysExistFixed(ctx context.Context, id string) (bool, error) {
	return r.client.EvalSha(ctx, r.existsSha, []string{"{" + r.prefix + ":" + id + "}:p", "{" + r.prefix + ":" + id + "}:s"}).Bool()
}
