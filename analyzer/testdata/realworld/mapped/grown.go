package mapped

import (
	"context"
	"encoding/json"

	"github.com/redis/rueidis"
)

// Origin: mhrlife/kingscomp (internal/repository/commonbehaviour.go,
// MSet): a repository saves several entities in one JSON.MSET, its
// builder started with the first entity and grown in place in a loop,
// cmd = cmd.Key(...).Path(".").Value(...), one link for each other
// entity. Each entity's key is "<type>:<id>": the ids differ, and so may
// the slots.
type Repository struct {
	client rueidis.Client
}

type Account struct {
	ID   string
	Name string
}

func accountKey(id string) string { return "account:" + id }

func (r Repository) MSet(ctx context.Context, accounts ...Account) error {
	if len(accounts) == 0 {
		return nil
	}
	first, _ := json.Marshal(accounts[0])
	cmd := r.client.B().JsonMset().Key(accountKey(accounts[0].ID)).Path(".").Value(string(first))
	for i, a := range accounts {
		if i == 0 {
			continue
		}
		v, _ := json.Marshal(a)
		cmd = cmd.Key(accountKey(a.ID)).Path(".").Value(string(v))
	}
	return r.client.Do(ctx, cmd.Build()).Error() // want `JSON.MSET keys "account:<accounts\[0\].ID>" \(hashtag unknown\) and "account:<a.ID>" \(hashtag unknown\) may hash to different slots`
}

// Fixed: one JSON.SET an entity, in one DoMulti, which a cluster client
// sends to each key's node.
func (r Repository) MSetEach(ctx context.Context, accounts ...Account) error {
	cmds := make(rueidis.Commands, 0, len(accounts))
	for _, a := range accounts {
		v, _ := json.Marshal(a)
		cmds = append(cmds, r.client.B().JsonSet().Key(accountKey(a.ID)).Path(".").Value(string(v)).Build())
	}
	for _, resp := range r.client.DoMulti(ctx, cmds...) {
		if err := resp.Error(); err != nil {
			return err
		}
	}
	return nil
}
