package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/internal/jsonout"
	"github.com/slotlint/slotlint/slot"
)

const slotHelp = `slotcheck slot: show the hash slot and hashtag of each key.

Usage:
  slotcheck slot KEY... [--addr HOST:PORT] [--json]
  slotcheck slot [flags] -- KEY...     (keys that start with "-")

Without --addr the slots are computed here, as Redis Cluster computes them.
With --addr the server's CLUSTER KEYSLOT confirms each slot and the master
that serves it is shown; a disagreement exits with status 1. Keys and
hashtags are quoted, Go-style; a key longer than 64 bytes is cut, with its
length shown. With --json, a key, hashtag or hashed string that is not
valid UTF-8 is written in base64, in the field's "_base64" twin.

Examples:
  slotcheck slot 'user:{42}:cart' 'user:{42}:profile'
  slotcheck slot 'emq:{}:job:1' --addr 127.0.0.1:7000
  REDISCLI_AUTH=secret slotcheck slot foo --addr redis.internal:6379 --user app --tls
`

// A slotRow is one key's line of output. In JSON, a key, hashtag or hashed
// string that is not valid UTF-8 is written in base64 in the field's
// _base64 twin instead (see keyEncoding).
type slotRow struct {
	Key           string `json:"key,omitempty"`
	KeyBase64     string `json:"key_base64,omitempty"`
	Slot          int    `json:"slot"`
	HashTag       string `json:"hashtag,omitempty"`
	HashTagBase64 string `json:"hashtag_base64,omitempty"`
	Hashed        string `json:"hashed,omitempty"` // what Redis hashes
	HashedBase64  string `json:"hashed_base64,omitempty"`
	Note          string `json:"note,omitempty"`
	Server        *int   `json:"server_slot,omitempty"`
	Node          string `json:"node,omitempty"`

	key, tag string // as given, and the hashtag, for text output
	tagged   bool
}

func runSlot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("slot", slotHelp+aclHelp(ACLSlot), stdout)
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
		r := slotRow{Slot: slot.Of(k), key: k, tag: subject, tagged: tagged}
		r.Key, r.KeyBase64 = keyFields(k)
		r.Hashed, r.HashedBase64 = keyFields(subject)
		if tagged {
			r.HashTag, r.HashTagBase64 = keyFields(subject)
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
		enc := jsonout.NewEncoder(stdout)
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
			if r.tagged {
				tag = showKey(r.tag)
			}
			if r.Note != "" {
				tag += "  " + r.Note
			}
			line := fmt.Sprintf("%s\t%d\t%s", showKey(r.key), r.Slot, tag)
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
