package pbem

import (
	"regexp"
	"strings"
)

var subjectTag = regexp.MustCompile(`\[([A-Za-z0-9][A-Za-z0-9._-]*)\]`)

// Route finds the game a mail is about, trying these rules in order; the
// first that names a game wins, even when a later one names another
// (docs/mail-orders.md):
//
//  1. "address": the plus-tag of a recipient whose base address is one of
//     Herald's own (herald+crecy-4f2a@club.example);
//  2. "block": the game id of the blocks, when every block names the same
//     game (blocks that disagree name none);
//  3. "subject": the first [tag] of the subject ("Re: [crecy-4f2a] Move 17").
//
// It returns "", "" when no rule names a game. Ids are lower case.
func Route(m *Mail, blocks []Block, self []string) (gameID, via string) {
	for _, to := range m.To {
		base, tag := PlusTag(to)
		if tag == "" {
			continue
		}
		for _, s := range self {
			if sb, _ := PlusTag(s); sb == base {
				return tag, "address"
			}
		}
	}
	if id := blocksGame(blocks); id != "" {
		return id, "block"
	}
	if t := subjectTag.FindStringSubmatch(m.Subject); t != nil {
		return strings.ToLower(t[1]), "subject"
	}
	return "", ""
}

// blocksGame is the game all blocks name, or "".
func blocksGame(blocks []Block) string {
	if len(blocks) == 0 {
		return ""
	}
	for _, b := range blocks[1:] {
		if b.GameID != blocks[0].GameID {
			return ""
		}
	}
	return blocks[0].GameID
}
