package games

import (
	"fmt"

	"herald/engine"
	"herald/pbem/store"
)

// Remail queues again, for each player of each game that is not over, the
// latest mail Herald sent him, and returns how many it queued. herald
// serve's embedded mail server keeps its mail in memory: after a restart
// on the same store the players' mailboxes are empty, and these mails give
// them back the position, their block and their key. tag makes the new
// mails' Message-IDs differ from any earlier ones (a restart's time).
func (s *Service) Remail(tag string) (int, error) {
	n := 0
	err := s.cfg.Store.Update(func(tx *store.Tx) error {
		recs, err := tx.Games()
		if err != nil {
			return err
		}
		for _, r := range recs {
			if r.Over {
				continue
			}
			g, err := s.load(tx, r.ID)
			if err != nil {
				return err
			}
			for i := range 2 {
				side := engine.Side(i)
				ok, err := s.resendLatest(tx, g, side, g.player(side), fmt.Sprintf("remail-%s", tag), resendRestart)
				if err != nil {
					return err
				}
				if ok {
					n++
				}
			}
		}
		return nil
	})
	if n > 0 {
		s.Kick()
	}
	return n, err
}
