package luaembed

import (
	"context"

	"github.com/redis/rueidis"
)

// Origin: alirezadp10/Hokm-WIP (pkg/repository/redis/cards.go,
// PlaceCard, and lua/place-card.lua): a card game's move is one EVAL
// built with rueidis's builder, Eval().Script(src).Numkeys(1), whose one
// key is the game's id; the script writes the hash "game:" .. KEYS[1],
// a key it was not given, which may be in another slot.
const placeCardScript = `redis.call("HSET", "game:" .. KEYS[1], "center_cards", ARGV[1])
redis.call("HSET", "game:" .. KEYS[1], "turn", ARGV[2])
return 1`

func PlaceCard(ctx context.Context, c rueidis.Client, gameID, cards, turn string) error { // want PlaceCard:`keyWrapper\(EVAL "<gameID>" on \$1\)`
	cmd := c.B().Eval().Script(placeCardScript).Numkeys(1).Key(gameID).Arg(cards, turn).Build()
	return c.Do(ctx, cmd).Error() // want `script placeCardScript line 1: redis.call\("HSET", "game:" .. KEYS\[1\], "center_cards", ARGV\[1\]\) touches a key not declared in KEYS` `script placeCardScript line 2:`
}

// The fixed form: the script is given the game's hash itself.
const placeCardScriptFixed = `redis.call("HSET", KEYS[1], "center_cards", ARGV[1])
redis.call("HSET", KEYS[1], "turn", ARGV[2])
return 1`

func PlaceCardFixed(ctx context.Context, c rueidis.Client, gameID, cards, turn string) error { // want PlaceCardFixed:`keyWrapper\(EVAL "game:<gameID>" on \$1\)`
	cmd := c.B().Eval().Script(placeCardScriptFixed).Numkeys(1).Key("game:"+gameID).Arg(cards, turn).Build()
	return c.Do(ctx, cmd).Error()
}
