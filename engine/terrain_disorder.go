package engine

import (
	"fmt"

	"herald/engine/hex"
)

// Arquebus 7.2 Terrain: the Terrain Chart's "'D' means there is a chance
// of Disorder". A unit in good order that enters a hex, or crosses a
// hexside, whose entry is "D" for its class rolls one die as it enters;
// movement.terrain_disorder_max or less Disorders it, and it goes on only
// as far as its Disordered Movement Allowance reaches, as after Reaction
// Fire (ruling R406). A road negates the terrain entered (5.1), so moving
// along one never rolls. Already Disordered, a unit has nothing to lose
// and does not roll.

// disorderTerrain names the "D" terrain a unit of class c meets moving
// from hex a into the adjacent hex b, or "".
func disorderTerrain(sc *Scenario, a, b hex.Hex, c Class) string {
	features := featuresBetween(&sc.Map, a, b)
	for _, f := range features {
		if t := sc.Tables.Hexsides[f.Feature]; t != nil && t.Road {
			return ""
		}
	}
	for _, f := range features {
		if t := sc.Tables.Hexsides[f.Feature]; t != nil && t.Disorder[c] {
			return fmt.Sprintf("the %s hexside %s|%s", t.Name, a, b)
		}
	}
	if tt := sc.Tables.Terrain[sc.Map.TerrainAt(b)]; tt != nil && tt.Disorder[c] {
		return fmt.Sprintf("%s in %s", terrainName(tt), b)
	}
	return ""
}

// terrainDisorder rolls for the move's next hex when its terrain calls for
// it: the unit is first moved into the hex. done: the move is over.
func (g *game) terrainDisorder(r *MoveRun) (done bool, err error) {
	i, k := r.Unit, r.Next
	from := g.st.Units[i].Hex
	if k > 0 {
		from = r.Path[k-1]
	}
	t := unitType(g.sc, g.st, i)
	if t == nil || g.st.Units[i].Status != Normal {
		return false, nil
	}
	what := disorderTerrain(g.sc, from, r.Path[k], t.Class())
	if what == "" {
		return false, nil
	}
	if err := g.moveSegment(r, k, r.Cum[k]-r.Spent, g.st.Units[i].Facing); err != nil {
		return false, err
	}
	r.Start, r.Spent = k+1, r.Cum[k]
	id := g.sc.Units[i].ID
	roll, err := g.roll(fmt.Sprintf("Terrain Disorder DR: %s entering %s (Arquebus 7.2)", id, what))
	if err != nil {
		return false, err
	}
	max := g.sc.Tables.Movement.TerrainDisorderMax
	g.emit(TerrainDisorderRolled{Unit: id, Terrain: what, Roll: roll, Max: max, Disordered: roll.Total <= max})
	if roll.Total <= max {
		g.disorder(i, "the terrain: "+what+" (Arquebus 7.2)", nil)
	}
	return g.afterReaction(r), nil
}

// TerrainDisorderRolled: a unit entering "D" terrain rolled for Disorder
// (Arquebus 7.2).
type TerrainDisorderRolled struct {
	Unit       string `json:"unit"`
	Terrain    string `json:"terrain"`
	Roll       Roll   `json:"roll"`
	Max        int    `json:"max"`
	Disordered bool   `json:"disordered,omitempty"`
}

func (TerrainDisorderRolled) apply(*State) {}

func (e TerrainDisorderRolled) describe(*Scenario) string {
	if e.Disordered {
		return fmt.Sprintf("%s enters %s: %s, %d or less: Disordered (Arquebus 7.2).", e.Unit, e.Terrain, describeRoll(e.Roll), e.Max)
	}
	return fmt.Sprintf("%s enters %s: %s, more than %d: no Disorder (Arquebus 7.2).", e.Unit, e.Terrain, describeRoll(e.Roll), e.Max)
}

func init() { registerEvents(TerrainDisorderRolled{}) }
