package clustercheck

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/slotlint/slotlint/keyspace"
	"github.com/slotlint/slotlint/ruleset"
	"github.com/slotlint/slotlint/slot"
)

// SampleValues returns the placeholder values of sample i of n: a hashtag
// made with slot.TagFor to land in slot i*16384/n for every placeholder, on
// even samples, and varied text (numbers, separators, bytes outside ASCII)
// on odd ones, so that the samples of a family spread over many slots.
func SampleValues(names []string, i, n int) map[string]string {
	n = max(n, 1)
	vals := make(map[string]string, len(names))
	for j, name := range names {
		var v string
		switch {
		case i%2 == 0:
			v = slot.TagFor((i*slot.Count/n + j*997) % slot.Count)
		case i%6 == 1:
			v = strconv.Itoa(i*7919 + j)
		case i%6 == 3:
			v = fmt.Sprintf("%s:%d-x", name, i)
		default:
			v = fmt.Sprintf("\xc3\xa9\xff%d\x00%d", i, j)
		}
		vals[name] = v
	}
	return vals
}

// A FamilyCheck is the outcome of a family's sample keys.
type FamilyCheck struct {
	Family     *ruleset.Family
	Keys       []KeySlot
	Mismatches int
	Slots      int // distinct slots the samples hit
}

// A GroupCheck is the outcome of a colocation group's samples: each sample
// builds every member family's key from the same values.
type GroupCheck struct {
	Group   *ruleset.Group
	Samples int
	// Split holds the samples whose keys the server put in more than one
	// slot, as the keys of each.
	Split [][]KeySlot
}

// A RulesCheck is the outcome of VerifyRules.
type RulesCheck struct {
	Families []FamilyCheck
	Groups   []GroupCheck
	Keys     int // keys checked
	Topology *Topology
}

// OK reports whether every sample key's slot agrees with the server and
// every group's samples landed in one slot.
func (r *RulesCheck) OK() bool {
	for _, f := range r.Families {
		if f.Mismatches > 0 {
			return false
		}
	}
	for _, g := range r.Groups {
		if len(g.Split) > 0 {
			return false
		}
	}
	return true
}

// VerifyRules builds samples keys for each family of rules (see
// SampleValues), checks their slots with Verify, and checks that the keys of
// each colocation group, built from the same values, share one slot by the
// server's CLUSTER KEYSLOT.
func VerifyRules(ctx context.Context, c redis.UniversalClient, rules *ruleset.Rules, samples int) (*RulesCheck, error) {
	samples = max(samples, 1)
	var keys []string
	type famRange struct{ from, to int }
	famKeys := make([]famRange, len(rules.Families))
	for fi, f := range rules.Families {
		famKeys[fi].from = len(keys)
		names := f.Template.Names()
		for i := range samples {
			k, ok := build(f.Template, SampleValues(names, i, samples))
			if ok {
				keys = append(keys, k)
			}
		}
		famKeys[fi].to = len(keys)
	}
	// Group samples: one key per member family per sample.
	type groupSample struct{ from, to int }
	groupKeys := make([][]groupSample, len(rules.Groups))
	for gi, g := range rules.Groups {
		var names []string
		for _, fname := range g.Families {
			if f := rules.Family(fname); f != nil {
				names = append(names, f.Template.Names()...)
			}
		}
		for i := range samples {
			vals := SampleValues(names, i, samples)
			from := len(keys)
			for _, fname := range g.Families {
				f := rules.Family(fname)
				if f == nil {
					continue
				}
				if k, ok := build(f.Template, vals); ok {
					keys = append(keys, k)
				}
			}
			groupKeys[gi] = append(groupKeys[gi], groupSample{from, len(keys)})
		}
	}
	res, err := Verify(ctx, c, keys)
	if err != nil {
		return nil, err
	}
	out := &RulesCheck{Keys: len(keys), Topology: res.Topology}
	for fi, f := range rules.Families {
		fc := FamilyCheck{Family: f, Keys: res.Keys[famKeys[fi].from:famKeys[fi].to]}
		seen := map[int]bool{}
		for _, k := range fc.Keys {
			seen[k.ServerSlot] = true
			if !k.OK() {
				fc.Mismatches++
			}
		}
		fc.Slots = len(seen)
		out.Families = append(out.Families, fc)
	}
	for gi, g := range rules.Groups {
		gc := GroupCheck{Group: g, Samples: len(groupKeys[gi])}
		for _, s := range groupKeys[gi] {
			ks := res.Keys[s.from:s.to]
			for _, k := range ks {
				if k.ServerSlot != ks[0].ServerSlot || !k.OK() {
					gc.Split = append(gc.Split, ks)
					break
				}
			}
		}
		out.Groups = append(out.Groups, gc)
	}
	return out, nil
}

// build builds a template's key from values by name.
func build(t *keyspace.Template, vals map[string]string) (string, bool) {
	names := t.Names()
	args := make([]string, len(names))
	for i, n := range names {
		args[i] = vals[n]
	}
	k, err := t.Build(args...)
	return k, err == nil
}
