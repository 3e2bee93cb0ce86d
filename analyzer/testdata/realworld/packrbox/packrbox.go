// Package packrbox runs scripts read from a packr box. Origin:
// SevenTV/ServerGo (src/redis/redis.go, src/redis/tokens.go): the scripts
// are .lua files of a directory that packr.New boxes; each is loaded with
// SCRIPT LOAD at start, and its SHA1, kept in a package variable, is run
// by EVALSHA elsewhere. The token consumer builds its key from ARGV and
// passes no KEYS.
package packrbox

import (
	"context"

	"github.com/go-redis/redis/v8"
	"github.com/gobuffalo/packr/v2"
)

var Client *redis.Client

var (
	tokenConsumerLuaScriptSHA1      string
	tokenConsumerFixedLuaScriptSHA1 string
)

func loadScripts(ctx context.Context) error {
	box := packr.New("lua", "./lua")

	tokenConsumerLuaScript, err := box.FindString("token-consumer.lua")
	if err != nil {
		return err
	}
	v, err := Client.ScriptLoad(ctx, tokenConsumerLuaScript).Result()
	if err != nil {
		return err
	}
	tokenConsumerLuaScriptSHA1 = v

	fixed, err := box.FindString("token-consumer-fixed.lua")
	if err != nil {
		return err
	}
	v, err = Client.ScriptLoad(ctx, fixed).Result()
	if err != nil {
		return err
	}
	tokenConsumerFixedLuaScriptSHA1 = v
	return nil
}

func AuthTokenValues(ctx context.Context, token string) (interface{}, error) {
	return Client.EvalSha( // want `script tokenConsumerLuaScript line 3: redis.call\("GET", "temp:codes:" .. token\) touches a key not declared in KEYS` `script tokenConsumerLuaScript line 9: redis.call\("DEL", "temp:codes:" .. token\) touches a key not declared in KEYS`
		ctx,
		tokenConsumerLuaScriptSHA1, // scriptSHA1
		[]string{},                 // KEYS
		token,                      // ARGV[1]
	).Result()
}

// Fixed: the script takes the token's key in KEYS.
func AuthTokenValuesFixed(ctx context.Context, token string) (interface{}, error) {
	return Client.EvalSha(ctx, tokenConsumerFixedLuaScriptSHA1, []string{"temp:codes:" + token}).Result()
}
