package command

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine"
	"herald/pbem/dice"
)

// dealForPlay deals the Seizure counters of a hot-seat game (B&R 6.3):
// the hands spec gives ("Yorkists=SO5,SN;Lancastrians=IB", by the pool's
// ids), or each side's number of them drawn blindly from the pool with a
// fresh secret seed, as a game by mail draws them (docs/dice.md, "Hidden
// draws"). The hands are printed: hot-seat, both players see them.
func dealForPlay(env Env, sc *engine.Scenario, st *engine.State, spec string) (*engine.State, error) {
	pool := sc.Tables.SeizurePool
	hands, err := parseHands(sc, spec)
	if err != nil {
		return nil, err
	}
	for i, side := range sc.Sides {
		ids, given := hands[side.Name]
		if !given && side.SeizureCounters > 0 && len(pool) > 0 {
			seed, err := dice.NewSeed()
			if err != nil {
				return nil, err
			}
			drawn, err := dice.DrawHand(seed, sc.ID, side.Name, len(pool), side.SeizureCounters)
			if err != nil {
				return nil, err
			}
			for _, c := range drawn {
				ids = append(ids, pool[c].ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		var cs []engine.SeizureCounter
		var labels []string
		for _, id := range ids {
			k := slices.IndexFunc(pool, func(c engine.SeizureCounter) bool { return strings.EqualFold(c.ID, id) })
			cs, labels = append(cs, pool[k]), append(labels, pool[k].Label())
		}
		if st, _, err = engine.DealSeizureCounters(sc, st, engine.Side(i), cs, ""); err != nil {
			return nil, err
		}
		fmt.Fprintf(env.Stdout, "The %s hold Seizure counters: %s.\n", side.Name, strings.Join(labels, "; "))
	}
	return st, nil
}

// parseHands reads --counters: SIDE=ID,ID;SIDE=ID, each id one of the
// pool's.
func parseHands(sc *engine.Scenario, spec string) (map[string][]string, error) {
	out := map[string][]string{}
	if strings.TrimSpace(spec) == "" {
		return out, nil
	}
	if len(sc.Tables.SeizurePool) == 0 {
		return nil, fmt.Errorf("%s has no Seizure counters", sc.ID)
	}
	for _, part := range strings.Split(spec, ";") {
		name, list, ok := strings.Cut(part, "=")
		side, known := sc.SideByName(strings.TrimSpace(name))
		if !ok || !known {
			return nil, fmt.Errorf("%q: want SIDE=ID,ID with a side of %s (%s or %s)", part, sc.ID, sc.Sides[0].Name, sc.Sides[1].Name)
		}
		var ids []string
		for _, id := range strings.Split(list, ",") {
			id = strings.TrimSpace(id)
			if !slices.ContainsFunc(sc.Tables.SeizurePool, func(c engine.SeizureCounter) bool { return strings.EqualFold(c.ID, id) }) {
				var pool []string
				for _, c := range sc.Tables.SeizurePool {
					pool = append(pool, c.ID)
				}
				return nil, fmt.Errorf("%q is not a counter of the pool (%s)", id, strings.Join(pool, ", "))
			}
			ids = append(ids, id)
		}
		out[sc.SideName(side)] = ids
	}
	return out, nil
}
