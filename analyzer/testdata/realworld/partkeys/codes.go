package partkeys

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Origin: ashuaiy/LocalLife-Go (internal/cache/auth.go): codeKeys returns
// a phone's code key and cooldown key, both under the hashtag of the
// phone's SHA-256 that it computes once; IssueCode runs a script on both.
// One call's two results share that hashtag.
var issueCode = redis.NewScript(`
if redis.call("EXISTS", KEYS[2]) == 1 then return 0 end
redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
redis.call("SET", KEYS[2], "1", "PX", ARGV[3])
return 1`)

func codeKeys(phone string) (string, string) {
	prefix := fmt.Sprintf("locallife:auth:{%x}", sha256.Sum256([]byte(phone)))
	return prefix + ":code", prefix + ":cooldown"
}

func IssueCode(ctx context.Context, rdb *redis.Client, phone, digest string) (bool, error) {
	key, limitKey := codeKeys(phone)
	n, err := issueCode.Run(ctx, rdb, []string{key, limitKey}, digest, 300000, 60000).Int()
	return n == 1, err
}

// Bad: the keys of two phones, each call's own hashtag, in one DEL.
func ForgetCodes(ctx context.Context, rdb *redis.Client, phones []string) error {
	var keys []string
	for _, phone := range phones {
		key, _ := codeKeys(phone)
		keys = append(keys, key)
	}
	return rdb.Del(ctx, keys...).Err() // want `DEL keys built as "locallife:auth:\{<sha256.Sum256\(\[\]byte\(phone\)\)>\}:code" from different values may hash to different slots`
}
