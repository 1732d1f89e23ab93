package engine

import "slices"

// Infidel 12.3 #4 Leader Presence: "Knights and Heavy Cavalry units
// stacked with their Command leader or the Overall Commander gain a + 1
// DRM when attacking. A Crusader leader with Charisma also adds their
// Charisma rating as a DRM to the attack. This only applies once, no
// matter how many leaders a unit is stacked with." 5.3 says "Leaders"
// grant it; 12.3 #4 names whose (ruling R156). 5.4: Charisma "is a DRM
// you use when any Knights stacked with that leader are attacking in any
// way". The types are the tables' switches Rules.LeaderPresenceTypes and
// Rules.CharismaTypes.

// presentLeader is the first leader, by the attackers' order, who gives
// the Leader Presence DRM to an attacking unit of a LeaderPresenceTypes
// type: its own Command leader or its side's Overall Commander, stacked
// with it. A Replacement of the Overall Commander is only a Command
// leader (5.6).
func presentLeader(sc *Scenario, st *State, atk []int) (leader, unit string) {
	types := sc.Tables.Rules.LeaderPresenceTypes
	if len(types) == 0 {
		return "", ""
	}
	for _, i := range atk {
		if !slices.Contains(types, unitType(sc, st, i).Key) {
			continue
		}
		for _, l := range stackedLeaders(sc, st, i) {
			spec := sc.Leaders[l]
			if spec.Command == unitCommand(sc, st, i) || spec.OC && !st.Leaders[l].Replaced {
				return spec.Name, sc.Units[i].ID
			}
		}
	}
	return "", ""
}

// typedCharisma is the highest Charisma of the leaders stacked with an
// attacking unit of a CharismaTypes type, and whose it is; a Replacement
// leader has none (ruling R86).
func typedCharisma(sc *Scenario, st *State, atk []int) (best int, who string) {
	types := sc.Tables.Rules.CharismaTypes
	for _, i := range atk {
		if !slices.Contains(types, unitType(sc, st, i).Key) {
			continue
		}
		for _, l := range stackedLeaders(sc, st, i) {
			if c := sc.Leaders[l].Charisma; c != 0 && !st.Leaders[l].Replaced && (who == "" || c > best) {
				best, who = c, sc.Leaders[l].Name
			}
		}
	}
	return best, who
}
