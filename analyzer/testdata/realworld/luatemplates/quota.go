// Package luatemplates runs Lua that the code renders from text/template
// templates into a buffer, piece by piece, with the names of the keys
// written into the script's text.
package luatemplates

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"text/template"

	"github.com/gomodule/redigo/redis"
)

// Origin: LUCI (server/quotabeta: quota.go, admin.go): UpdateQuota
// renders updateEntry for each quota entry it adjusts, then setEntry for
// each, into one buffer, and runs it with NewScript(0, ...): every entry's
// hash is named in the script's text, none is declared in KEYS, so a
// cluster runs the script on a node that holds none of them.
var updateEntry = template.Must(template.New("updateEntry").Parse(`
	{{.Var}} = {}
	{{.Var}}["name"] = "{{.Name}}"
	{{.Var}}["resources"] = redis.call("HINCRBY", "{{.Name}}", "resources", 0)
	if {{.Var}}["resources"] + {{.Amount}} < 0 then
		return redis.error_reply("\"{{.Name}}\" has insufficient resources")
	end
	{{.Var}}["resources"] = {{.Var}}["resources"] + {{.Amount}}
`))

var setEntry = template.Must(template.New("setEntry").Parse(`
	redis.call("HMSET", {{.Var}}["name"], "resources", {{.Var}}["resources"])
`))

func entryName(policy string) string {
	return fmt.Sprintf("entry:%x", sha256.Sum256([]byte(policy)))
}

func UpdateQuota(conn redis.Conn, updates map[string]int64) error {
	s := bytes.NewBufferString("local entries = {}\n")
	i := 0
	for policy, adj := range updates {
		if err := updateEntry.Execute(s, map[string]any{
			"Var":    fmt.Sprintf("entries[%d]", i),
			"Name":   entryName(policy),
			"Amount": adj,
		}); err != nil {
			return err
		}
		i++
	}
	for i--; i >= 0; i-- {
		if err := setEntry.Execute(s, map[string]any{"Var": fmt.Sprintf("entries[%d]", i)}); err != nil {
			return err
		}
	}
	_, err := redis.NewScript(0, s.String()).Do(conn) // want `script s line 5: redis.call\("HINCRBY", "<.Name>", "resources", 0\) touches a key not declared in KEYS` `script s line 11: redis.call\("HMSET", tmpl_Var.name, "resources", tmpl_Var.resources\) touches a key not declared in KEYS: the string literal "<.Name>"`
	return err
}

// Fixed: the entries' names are passed as KEYS, under one hashtag, and
// the script reads them from there.
var updateDeclared = template.Must(template.New("updateDeclared").Parse(`
	local {{.Var}} = redis.call("HINCRBY", KEYS[{{.Index}}], "resources", 0) + ARGV[{{.Index}}]
	redis.call("HSET", KEYS[{{.Index}}], "resources", {{.Var}})
`))

func UpdateQuotaDeclared(conn redis.Conn, updates map[string]int64) error {
	var s bytes.Buffer
	args := redis.Args{}
	var amounts []interface{}
	i := 0
	for policy, adj := range updates {
		i++
		if err := updateDeclared.Execute(&s, map[string]any{"Var": fmt.Sprintf("e%d", i), "Index": i}); err != nil {
			return err
		}
		args = args.Add("{quota}:" + entryName(policy))
		amounts = append(amounts, adj)
	}
	_, err := redis.NewScript(len(args), s.String()).Do(conn, append(args, amounts...)...)
	return err
}
