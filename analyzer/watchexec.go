package analyzer

import "github.com/slotlint/slotlint/keyflow"

// execs reports whether the function of a Watch runs EXEC: whether it
// queues a MULTI/EXEC on its *redis.Tx, with TxPipelined or TxPipeline.
// Only then can EXEC fail because a watched key changed; a function that
// never does runs every command at once, and WATCH guards nothing. A
// function out of sight is taken to run EXEC.
func execs(w *watchTx) bool {
	if w.lit == nil || w.tx == nil {
		return true
	}
	for _, site := range w.tx.Sites {
		if site.Tx != nil && site.Tx.Kind == keyflow.TxMulti {
			return true
		}
	}
	return false
}
