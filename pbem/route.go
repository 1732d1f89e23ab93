package pbem

import (
	"regexp"
	"strings"
)

var subjectTag = regexp.MustCompile(`\[([A-Za-z0-9][A-Za-z0-9._-]*)\]`)

// Route finds the game a mail is about, trying in this order (the first
// that names a game wins, docs/mail-orders.md):
//
//  1. "address": a recipient's plus-tag, when its base is one of Herald's
//     own addresses (herald+crecy-4f2a@club.example);
//  2. "block": the game id in the first block's begin marker;
//  3. "subject": the first [tag] of the subject.
//
// It returns "" and "" when nothing names a game.
func Route(m *Mail, blocks []Block, self []string) (gameID, via string) {
	for _, to := range m.To {
		base, tag := PlusTag(to)
		if tag == "" {
			continue
		}
		for _, s := range self {
			if sb, _ := PlusTag(s); sb == base {
				return strings.ToLower(tag), "address"
			}
		}
	}
	if len(blocks) > 0 {
		return blocks[0].GameID, "block"
	}
	if t := subjectTag.FindStringSubmatch(m.Subject); t != nil {
		return strings.ToLower(t[1]), "subject"
	}
	return "", ""
}
