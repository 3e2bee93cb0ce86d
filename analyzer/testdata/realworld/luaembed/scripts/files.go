package scripts

import (
	"embed"
	"fmt"
)

// Origin: a matchmaking service's files package
// (internal/shared/utils/redisutils/scripts.go): script names as
// constants, the scripts in an embed.FS, and a getter the other packages
// call with a constant.
const (
	LuaAddPlayerToRoom = "add_player.lua"
	LuaCGroupAckDelMsg = "ack_del.lua"
)

// RoomScripts is exported: the stream package reads it itself.
//
//go:embed rooms/*.lua
var RoomScripts embed.FS // want RoomScripts:`keyScriptFS\("rooms/ack_del.lua", "rooms/add_player.lua"\)`

func GetLuaScript(name string) (string, error) { // want GetLuaScript:`keyFunc\(.*\)` GetLuaScript:`keyScriptFunc\("add_player.lua", "ack_del.lua"\)`
	content, err := RoomScripts.ReadFile("rooms/" + name)
	if err != nil {
		return "", fmt.Errorf("failed to read embedded Lua script: %s, error: %v", name, err)
	}
	return string(content), nil
}
