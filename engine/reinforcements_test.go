package engine_test

import (
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// 5.3: a reinforcing leader "must enter the map with his initial units";
// an off-map unit faces when it enters, and its first MP takes it into an
// entry hex, with its full Movement Allowance (ruling R49).
func TestReinforcingLeaderEntersWithHisUnits(t *testing.T) {
	g := movers(t)
	g.sc.Commands[0].Entry = []hex.Hex{h(t, "0110"), h(t, "0109")}
	g.st.Units[1].OffMap = true // AN2
	g.st.Leader("anna").OffMap = true
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE Anna 0110", "5.3")
	g.refuse(red, "FACE AN2 NE", "5.3")
	reach := engine.Reach(g.sc, g.st, "AN2")
	if len(reach) == 0 || reach[0].Cost != 1 || reach[0].Path[0] != h(t, "0109") && reach[0].Path[0] != h(t, "0110") {
		t.Errorf("Reach of an off-map unit: %+v", reach)
	}
	for _, r := range reach {
		if r.Cost > 4 || !contains(g.sc.Commands[0].Entry, r.Path[0]) {
			t.Errorf("Reach offers %+v", r)
		}
	}
	g.send(red, "MOVE AN2 WITH Anna 0109 0209 0309 0409 FACE NE") // 4 MP, its whole MA
	if l, u := g.st.Leader("anna"), g.unit("AN2"); l.OffMap || l.Hex != h(t, "0409") || u.Facing != hex.FaceNE {
		t.Errorf("Anna %+v, AN2 %+v", *l, u)
	}
}

// 5.3 "A reinforcing leader must enter the map with his initial units":
// the first unit of his Command that enters brings him when its MOVE
// names no leader (ruling R460); a leader alone may not enter, so he
// would be left off the map for good.
func TestReinforcingLeaderComesWithTheFirstUnit(t *testing.T) {
	g := movers(t)
	g.sc.Commands[0].Entry = []hex.Hex{h(t, "0110"), h(t, "0109")}
	g.st.Units[0].OffMap, g.st.Units[1].OffMap = true, true // AN1, AN2
	g.st.Leader("anna").OffMap = true
	g.send(red, "ACTIVATE Anna")
	res := g.send(red, "MOVE AN2 0109 0209")
	if l := g.st.Leader("anna"); l.OffMap || l.Hex != h(t, "0209") {
		t.Errorf("Anna %+v, want entered with AN2 in 0209:\n%s", *l, g.story(res.Events))
	}
	g.send(red, "MOVE AN1 0110")
	if l := g.st.Leader("anna"); l.Hex != h(t, "0209") {
		t.Errorf("Anna moved again with AN1: %+v", *l)
	}
}
