// Package appendedcmds is reduced from ndtdat/social-network-monorepo
// (gokit/pkg/cache/rueidis/util.go): a cache helper of rueidis deletes a
// list of keys in one MULTI/EXEC, a slice of commands that starts with
// MULTI, grows by one DEL per key, built by a helper of the package, and
// ends with EXEC, sent by DoMulti. Its callers delete the keys of a user
// under several prefixes. The slice grown by append was not read, so the
// transaction was not seen.
package appendedcmds

import (
	"context"

	"github.com/redis/rueidis"
)

func delMulti(ctx context.Context, r rueidis.Client, ks []string) error {
	cmds := []rueidis.Completed{r.B().Multi().Build()}
	for _, k := range ks {
		cmds = append(cmds, delCmd(ctx, r, k))
	}
	cmds = append(cmds, r.B().Exec().Build())
	for _, rep := range r.DoMulti(ctx, cmds...) {
		if err := rep.Error(); err != nil {
			return err
		}
	}
	return nil
}

func delCmd(_ context.Context, r rueidis.Client, k string) rueidis.Completed {
	return r.B().Del().Key(k).Build()
}

func forgetUser(ctx context.Context, r rueidis.Client, id string) error {
	return delMulti(ctx, r, []string{"profile:" + id, "feed:" + id}) // want `MULTI/EXEC transaction \(through delMulti at delmulti.go:\d+\) keys "profile:<id>" \(hashtag unknown\) and "feed:<id>" \(hashtag unknown\) may hash to different slots`
}

// The fix: the user's keys under the user's hashtag.
func forgetTaggedUser(ctx context.Context, r rueidis.Client, id string) error {
	return delMulti(ctx, r, []string{"user:{" + id + "}:profile", "user:{" + id + "}:feed"})
}
