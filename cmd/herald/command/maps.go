package command

import "herald/pbem/games"

// mapFunc is the map renderer of result mails, or nil when maps are off.
func mapFunc(on bool) games.MapFunc {
	return nil
}
