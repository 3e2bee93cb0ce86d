package keyspace

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// bulkDelete reduces me2seeks/echo's deploy/redis_scripts/bulk_delete_keys.lua
// (KEYS ARGV[1], then DEL in batches), run on a cluster client: KEYS sees
// the keys of the node that runs the script.
var bulkDelete = redis.NewScript(`
local keys = redis.call('KEYS', ARGV[1])
for i=1,#keys,5000 do
    redis.call('DEL', unpack(keys, i, math.min(i+4999, #keys)))
end
return #keys
`)

// scanDelete reduces metacraft-labs/DendrETH's
// relay/implementations/redis-scripts/deletePattern.lua (a SCAN MATCH loop
// that deletes what it finds).
const scanDelete = `
local cursor = "0"
repeat
    local result = redis.call('SCAN', cursor, 'MATCH', ARGV[1])
    for _, key in ipairs(result[2]) do
        redis.call('DEL', key)
    end
    cursor = result[1]
until cursor == "0"
return 0
`

func purge(ctx context.Context, rdb *redis.ClusterClient, one *redis.Client) {
	bulkDelete.Run(ctx, rdb, nil, "session:*")  // want `script bulkDelete line 2: redis.call\("KEYS", ARGV\[1\]\) reads the keys of one node: on a cluster the script runs on the node of its KEYS and sees only that node's keys, with no error; keep the keys it needs in a set under the hashtag of its KEYS and pass the set in KEYS, or run KEYS on every master from the client` `script bulkDelete line 4: redis.call\("DEL", unpack\(...\)\) touches a key not declared in KEYS`
	rdb.Eval(ctx, scanDelete, nil, "session:*") // want `script scanDelete line 4: redis.call\("SCAN", cursor, "MATCH", ARGV\[1\]\) reads the keys of one node` `script scanDelete line 6: redis.call\("DEL", key\) touches a key not declared in KEYS`
	// On a client of one server, the keys it reads are its keys: not
	// reported. The keys it deletes undeclared are judged whatever the
	// client is, at each run.
	bulkDelete.Run(ctx, one, nil, "session:*") // want `script bulkDelete line 4: redis.call\("DEL", unpack\(...\)\) touches a key not declared in KEYS`
}

// Fixed: the sessions are the fields of one hash, which the script is
// given in KEYS.
var bulkDeleteFixed = redis.NewScript(`
local n = redis.call('HLEN', KEYS[1])
redis.call('DEL', KEYS[1])
return n
`)

func purgeFixed(ctx context.Context, rdb *redis.ClusterClient) {
	bulkDeleteFixed.Run(ctx, rdb, []string{"sessions"})
}
