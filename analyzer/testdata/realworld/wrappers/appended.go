package wrappers

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Origin: a public go-redis wrapper package of the code corpus (package
// redis, type Service with getTimeout; the corpus gives no repository
// name): SInter, SDiff, SUnion and their STORE forms take (key string,
// keys ...string) and send append([]string{key}, keys...). The callers'
// keys are checked, and the command is reported where it is sent, for the
// callers in other modules.
type Service struct{ client *redis.Client }

func (s *Service) SInter(ctx context.Context, key string, keys ...string) ([]string, error) { // want SInter:`keyWrapper\(SINTER "<key>" "<keys...>"\)` SInter:`keyReply\(SINTER\)`
	return s.client.SInter(ctx, append([]string{key}, keys...)...).Result() // want `SINTER of the callers' keys "<key>" and "<keys...>": callers in other modules are not checked`
}

func (s *Service) commonTags(ctx context.Context, a, b string) {
	s.SInter(ctx, "tags:"+a, "tags:"+b) // want `SINTER \(through SInter at appended.go:\d+\) keys "tags:<a>" \(hashtag unknown\) and "tags:<b>" \(hashtag unknown\) may hash to different slots`
}

// Fixed: the tag sets share one hashtag.
func (s *Service) commonTagsFixed(ctx context.Context, a, b string) {
	s.SInter(ctx, "{tags}:"+a, "{tags}:"+b)
}

// A script run with a fixed key before the caller's keys.
var lockAll = redis.NewScript(`for i, k in ipairs(KEYS) do redis.call("SET", k, ARGV[1]) end return 1`)

func (s *Service) lockJobs(ctx context.Context, token string, jobs ...string) error {
	return lockAll.Run(ctx, s.client, append([]string{"lock:global"}, jobs...), token).Err()
}

func (s *Service) lockTwo(ctx context.Context, token string) {
	s.lockJobs(ctx, token, "job:1", "job:2") // want `EVALSHA \(through lockJobs at appended.go:\d+\) keys "lock:global" \(slot \d+\) and "job:1" \(slot \d+\) hash to different slots`
}

// Fixed: every key of the lock holds the hashtag "{lock}".
func (s *Service) lockJobsFixed(ctx context.Context, token string, jobs ...string) error {
	return lockAll.Run(ctx, s.client, append([]string{"{lock}:global"}, jobs...), token).Err()
}

func (s *Service) lockTwoFixed(ctx context.Context, token string) {
	s.lockJobsFixed(ctx, token, "{lock}:job:1", "{lock}:job:2")
}
