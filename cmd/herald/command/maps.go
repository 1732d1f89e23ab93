package command

import (
	"herald/engine"
	"herald/mapimg"
	"herald/pbem/games"
)

// mapFunc is the map renderer of result mails, or nil when maps are off:
// the area of the last order block, with the whole map when it did
// nothing that shows on the map.
func mapFunc(on bool) games.MapFunc {
	if !on {
		return nil
	}
	return func(sc *engine.Scenario, before, after *engine.State, events []engine.Event) ([]byte, error) {
		return mapimg.PNG(sc, after, mapimg.Options{Marks: mapimg.Marks(sc, before, after, events)})
	}
}
