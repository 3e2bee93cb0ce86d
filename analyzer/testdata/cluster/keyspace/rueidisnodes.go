package keyspace

import (
	"context"
	"fmt"

	"github.com/redis/rueidis"
)

// Origin: skif48/leaderboard-engine (repositories/leaderboard.go, Purge):
// a leaderboard store over a rueidis.Client empties the server between
// test runs. FLUSHALL on the client reaches one node; sent on each client
// of Nodes(), it reaches every one.
type leaderboardRepo struct{ c rueidis.Client }

func (l *leaderboardRepo) purge(ctx context.Context) error {
	return l.c.Do(ctx, l.c.B().Flushall().Build()).Error() // want `FLUSHALL on l.c, a client that may be a cluster, changes one node's keys only, with no error; run it on every master with the per-node clients of Nodes\(\)`
}

// Fixed, as the project has it: each node's client.
func (l *leaderboardRepo) purgeFixed(ctx context.Context) error {
	for _, node := range l.c.Nodes() {
		if err := node.Do(ctx, node.B().Flushall().Build()).Error(); err != nil {
			return err
		}
	}
	return nil
}

// Fixed, with the node clients kept in a variable first.
func (l *leaderboardRepo) purgeHeld(ctx context.Context) error {
	nodes := l.c.Nodes()
	for addr, node := range nodes {
		if err := node.Do(ctx, node.B().Flushall().Build()).Error(); err != nil {
			return fmt.Errorf("FLUSHALL on %s: %w", addr, err)
		}
	}
	return nil
}
