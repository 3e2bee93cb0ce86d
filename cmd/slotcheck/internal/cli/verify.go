package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	slotlint "github.com/slotlint/slotlint"
	"github.com/slotlint/slotlint/clustercheck"
	"github.com/slotlint/slotlint/internal/jsonout"
)

const verifyHelp = `slotcheck verify: check the rules' key families against a live cluster.

Usage:
  slotcheck verify --addr HOST:PORT [--rules FILE] [--samples N] [--json]

For each key family of the rules (the built-in rules with FILE merged over
them), verify builds N sample keys from the family's template, with values
that spread the keys over many slots, and confirms with CLUSTER KEYSLOT that
slotlint computes the slot the cluster does. For each colocation group it
builds the member families' keys from the same values and confirms that
they land in one slot. It sends only CLUSTER KEYSLOT and read-only cluster
commands, and exits with status 1 on any mismatch.

Examples:
  slotcheck verify --addr 127.0.0.1:7000 --rules slotlint.yaml
  slotcheck verify --addr 127.0.0.1:7000 --rules slotlint.yaml --samples 1000 --json
`

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify", verifyHelp+aclHelp(ACLVerify), stdout)
	var cf connFlags
	cf.register(fs, "")
	rulesFile := fs.String("rules", "", "rules file merged over the built-in rules")
	samples := fs.Int("samples", 64, "sample keys per family and per group")
	asJSON := fs.Bool("json", false, "write JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *samples < 1 {
		return usagef("--samples must be at least 1")
	}
	rules, err := slotlint.LoadRules(*rulesFile)
	if err != nil {
		return &inputError{err}
	}
	cn, err := cf.connect(ctx, true)
	if err != nil {
		return err
	}
	defer cn.Close()
	res, err := clustercheck.VerifyRules(ctx, cn.client, rules, *samples)
	if err != nil {
		return connError(cf.addr, err)
	}
	if *asJSON {
		writeVerifyJSON(stdout, res)
	} else {
		writeVerifyText(stdout, cf.addr, res)
	}
	if !res.OK() {
		return &mismatchError{"the cluster disagrees with the rules; see the report above"}
	}
	return nil
}

func writeVerifyText(w io.Writer, addr string, r *clustercheck.RulesCheck) {
	fmt.Fprintf(w, "verify against %s: a cluster of %d masters\n", addr, len(r.Topology.Shards))
	if len(r.Families) == 0 {
		fmt.Fprintln(w, "the rules define no key family; give slotcheck your rules with --rules FILE")
	}
	for _, f := range r.Families {
		status := "ok"
		if f.Mismatches > 0 {
			status = fmt.Sprintf("%d MISMATCHES", f.Mismatches)
		}
		fmt.Fprintf(w, "family %-16s %-36s %4d keys over %4d slots: %s\n", f.Family.Name, strconv.Quote(f.Family.Template.String()), len(f.Keys), f.Slots, status)
		shown := 0
		for _, k := range f.Keys {
			if !k.OK() && shown < 3 {
				fmt.Fprintf(w, "    %s: slotlint says slot %d, the cluster %d\n", showKey(k.Key), k.Slot, k.ServerSlot)
				shown++
			}
		}
	}
	for _, g := range r.Groups {
		status := "each sample in one slot"
		if len(g.Split) > 0 {
			status = fmt.Sprintf("%d SAMPLES SPLIT", len(g.Split))
		}
		fmt.Fprintf(w, "group  %-16s %-36s %4d samples: %s\n", g.Group.Name, "("+strings.Join(g.Group.Families, ", ")+")", g.Samples, status)
		for i, ks := range g.Split {
			if i == 3 {
				break
			}
			parts := make([]string, len(ks))
			for j, k := range ks {
				parts[j] = fmt.Sprintf("%s (slot %d)", showKey(k.Key), k.ServerSlot)
			}
			fmt.Fprintf(w, "    %s\n", strings.Join(parts, ", "))
		}
	}
	if r.OK() {
		fmt.Fprintf(w, "OK: %d keys; slotlint and the cluster agree on every slot\n", r.Keys)
	} else {
		fmt.Fprintf(w, "FAILED: %d keys checked\n", r.Keys)
	}
}

func writeVerifyJSON(w io.Writer, r *clustercheck.RulesCheck) {
	type key struct {
		Key        string `json:"key"`
		Slot       int    `json:"slot"`
		ServerSlot int    `json:"server_slot"`
		Node       string `json:"node"`
	}
	type fam struct {
		Name       string `json:"name"`
		Template   string `json:"template"`
		Keys       int    `json:"keys"`
		Slots      int    `json:"slots"`
		Mismatches []key  `json:"mismatches"`
	}
	type group struct {
		Name     string   `json:"name"`
		Families []string `json:"families"`
		Samples  int      `json:"samples"`
		Split    [][]key  `json:"split"`
	}
	out := struct {
		OK       bool    `json:"ok"`
		Keys     int     `json:"keys"`
		Masters  int     `json:"masters"`
		Families []fam   `json:"families"`
		Groups   []group `json:"groups"`
	}{OK: r.OK(), Keys: r.Keys, Masters: len(r.Topology.Shards), Families: []fam{}, Groups: []group{}}
	conv := func(k clustercheck.KeySlot) key { return key{k.Key, k.Slot, k.ServerSlot, k.Node} }
	for _, f := range r.Families {
		jf := fam{Name: f.Family.Name, Template: f.Family.Template.String(), Keys: len(f.Keys), Slots: f.Slots, Mismatches: []key{}}
		for _, k := range f.Keys {
			if !k.OK() {
				jf.Mismatches = append(jf.Mismatches, conv(k))
			}
		}
		out.Families = append(out.Families, jf)
	}
	for _, g := range r.Groups {
		jg := group{Name: g.Group.Name, Families: g.Group.Families, Samples: g.Samples, Split: [][]key{}}
		for _, ks := range g.Split {
			var s []key
			for _, k := range ks {
				s = append(s, conv(k))
			}
			jg.Split = append(jg.Split, s)
		}
		out.Groups = append(out.Groups, jg)
	}
	enc := jsonout.NewEncoder(w)
	enc.Encode(out)
}
