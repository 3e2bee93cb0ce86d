package filled

import (
	redigo "github.com/gomodule/redigo/redis"
)

// Origin: cloudreve/Cloudreve (v3, pkg/cache/redis.go, RedisStore.Sets):
// a settings cache writes many values at once (there under the caller's
// prefix, here a constant one), a map of prefixed keys to
// values filled in a loop and flattened into MSET by redigo's
// Args.AddFlat, which sends each key, then its value (internal/matrix's
// TestMSetFlattened). The keys were not seen.
func setSettings(pool *redigo.Pool, values map[string]string) error {
	rc := pool.Get()
	defer rc.Close()
	set := make(map[string]interface{})
	for k, v := range values {
		set["setting_"+k] = v
	}
	_, err := rc.Do("MSET", redigo.Args{}.AddFlat(set)...) // want `MSET keys built as "setting_<k>" from different values may hash to different slots`
	return err
}

// The fix: every setting under one hashtag.
func setSettingsTagged(pool *redigo.Pool, values map[string]string) error {
	rc := pool.Get()
	defer rc.Close()
	set := make(map[string]interface{})
	for k, v := range values {
		set["{settings}:"+k] = v
	}
	_, err := rc.Do("MSET", redigo.Args{}.AddFlat(set)...)
	return err
}
