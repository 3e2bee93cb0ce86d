package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/slot"
)

const slotHelp = `slotcheck slot: show the hash slot and hashtag of each key.

Usage:
  slotcheck slot KEY... [--addr HOST:PORT] [--json]

Without --addr the slots are computed here, as Redis Cluster computes them.
With --addr the server's CLUSTER KEYSLOT confirms each slot and the master
that serves it is shown; a disagreement exits with status 1.

Examples:
  slotcheck slot 'user:{42}:cart' 'user:{42}:profile'
  slotcheck slot 'emq:{}:job:1' --addr 127.0.0.1:7000
  REDISCLI_AUTH=secret slotcheck slot foo --addr redis.internal:6379 --user app --tls
`

type slotRow struct {
	Key     string `json:"key"`
	Slot    int    `json:"slot"`
	HashTag string `json:"hashtag,omitempty"`
	Hashed  string `json:"hashed"` // what Redis hashes
	Note    string `json:"note,omitempty"`
	Server  *int   `json:"server_slot,omitempty"`
	Node    string `json:"node,omitempty"`
}

func runSlot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("slot", slotHelp, stdout)
	var cf connFlags
	cf.register(fs, "")
	asJSON := fs.Bool("json", false, "write JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	keys := fs.Args()
	if len(keys) == 0 {
		return usagef("no keys given")
	}
	rows := make([]slotRow, len(keys))
	for i, k := range keys {
		subject, tagged := slot.HashTag(k)
		r := slotRow{Key: k, Slot: slot.Of(k), Hashed: subject}
		if tagged {
			r.HashTag = subject
		}
		r.Note = braceNote(k)
		rows[i] = r
	}
	mismatches := 0
	if cf.addr != "" {
		cn, err := cf.connect(ctx, true)
		if err != nil {
			return err
		}
		defer cn.Close()
		res, err := clustercheck.Verify(ctx, cn.client, keys)
		if err != nil {
			return connError(cf.addr, err)
		}
		for i, ks := range res.Keys {
			s := ks.ServerSlot
			rows[i].Server = &s
			rows[i].Node = ks.Node
			if !ks.OK() {
				mismatches++
			}
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		head := "KEY\tSLOT\tHASHTAG"
		if cf.addr != "" {
			head += "\tSERVER\tNODE"
		}
		fmt.Fprintln(tw, head)
		for _, r := range rows {
			tag := "(none: whole key)"
			if r.HashTag != "" {
				tag = "{" + r.HashTag + "}"
			}
			if r.Note != "" {
				tag += "  " + r.Note
			}
			line := fmt.Sprintf("%s\t%d\t%s", strconv.Quote(r.Key), r.Slot, tag)
			if r.Server != nil {
				ok := "agrees"
				if *r.Server != r.Slot {
					ok = fmt.Sprintf("DISAGREES: %d", *r.Server)
				}
				line += fmt.Sprintf("\t%s\t%s", ok, r.Node)
			}
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
	}
	if mismatches > 0 {
		return &mismatchError{fmt.Sprintf("%d of %d keys: the server's CLUSTER KEYSLOT disagrees with slotlint", mismatches, len(keys))}
	}
	return nil
}

// braceNote explains braces that do not make a hashtag.
func braceNote(k string) string {
	open := strings.IndexByte(k, '{')
	if open < 0 {
		return ""
	}
	end := strings.IndexByte(k[open+1:], '}')
	switch {
	case end < 0:
		return `'{' without '}': the whole key is hashed`
	case end == 0:
		return `empty "{}": the whole key is hashed`
	}
	return ""
}
