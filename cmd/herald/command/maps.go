package command

import (
	"herald/engine"
	"herald/mapimg"
	"herald/pbem/games"
)

// mapFunc is the map renderer of result mails, or nil when maps are off:
// the area of the last order block with a hex around it, drawn for a
// phone (mapimg.ForMail), or the armies' area when the block did nothing
// that shows on it. herald render draws the whole map.
func mapFunc(on bool) games.MapFunc {
	if !on {
		return nil
	}
	return func(sc *engine.Scenario, before, after *engine.State, events []engine.Event) ([]byte, error) {
		return mapimg.PNG(sc, after, mapimg.ForMail(mapimg.Marks(sc, before, after, events)))
	}
}

// armyMapFunc is the welcome's map of one army (mapimg.ForArmy), or nil
// when maps are off.
func armyMapFunc(on bool) func(*engine.Scenario, *engine.State, engine.Side) ([]byte, error) {
	if !on {
		return nil
	}
	return func(sc *engine.Scenario, st *engine.State, side engine.Side) ([]byte, error) {
		return mapimg.PNG(sc, st, mapimg.ForArmy(sc, st, side))
	}
}
