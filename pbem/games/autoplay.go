package games

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"herald/engine/hex"
	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/templates"
)

// Autoplayer is a scripted player that knows nothing but its mail: it
// reads Herald's mails and, when one asks for orders, replies with legal
// ones written into the mail's block, above the quoted mail, as a person
// would. herald demo and the daemon's tests play with it.
type Autoplayer struct {
	Address string
	// LastMove, when set, is the last move the player sends orders for.
	LastMove int
	// Battle, when set, is the id of the battle its games are played on
	// (data.Scenario): with the map's grid, which is public, the player
	// measures how far the enemy units its mails told of are, and closes
	// with them (autoplay_close.go). Without it the player moves one unit
	// a hex at a time and fires whenever it may.
	Battle string
	// Orders, when set, gives the orders of the block a mail asks for
	// instead of the mail's list of legal orders: a player of a game
	// system whose table is public looks at it (Service.AutoOrders).
	Orders func(game string, move int) ([]string, error)
	// Vary, when set, shifts the player's rounds: which unit it moves and
	// which Command it activates, so that many games played from one
	// position (tools/burst's load) do not all make the same moves and
	// draw the same maps.
	Vary int

	mu   sync.Mutex
	turn int
	sent int
	// picks counts the choices made of each kind of order, so that the
	// player goes round its Commands in turn whatever else it did between
	// (a shared counter fell on the same Command at every Free Activation).
	picks map[string]int
	// mapGrid and views are what a player that knows its Battle has
	// learnt: the map's grid, and each game's units (by game id).
	mapGrid   *hex.Grid
	partnered map[string]bool // unit types that Shock only with a partner
	views     map[string]*battleView
}

// Reply returns the answer to one of Herald's mails, or nil when the mail
// asks nothing of the player.
func (a *Autoplayer) Reply(raw []byte) (*mailbox.Outgoing, error) {
	m, err := pbem.ReadMail(raw, pbem.ReadOptions{MaxBytes: 32 << 20})
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	view := a.learn(m.Subject, m.Text)
	blocks, _ := pbem.FindBlocks(m.Text)
	legal := legalOrders(m.Text)
	if len(blocks) != 1 || len(legal) == 0 || a.LastMove > 0 && blocks[0].Move > a.LastMove {
		return nil, nil
	}
	b := blocks[0]
	var orders []string
	if a.Orders != nil {
		if orders, err = a.Orders(b.GameID, b.Move); err != nil {
			return nil, err
		}
	} else if view != nil {
		// A block refused brings its move back: the player then leaves out
		// the orders any refusal of the move named, and the third time
		// plays it the simple way, still without them. Each refusal names
		// one order; Herald's rules may refuse declarations the player's
		// view of the field cannot foresee (a unit attacked twice, 10.1),
		// and a player that forgot the earlier ones went round them for
		// ever.
		view.refused[b.Move] += refusalReason(m.Text)
		why := view.refused[b.Move]
		switch view.tries[b.Move]++; {
		case view.tries[b.Move] <= 2:
			orders = withoutRefused(a.closeIn(view, allOrders(m.Text), legal, reachLines(m.Text)), why)
		case view.tries[b.Move] > 4: // refused four times: one step at a time
			// An order no refusal named if there is one; else a named
			// one, which may replace the held declaration a refusal was
			// about (END alone would be refused again).
			orders = oneOrder(legal)
			if rest := notNamed(legal, why); slices.ContainsFunc(rest, func(o string) bool { return o != "END" }) {
				orders = oneOrder(rest)
			}
		default:
			orders = notNamed(a.choose(legal, reachLines(m.Text)), why)
		}
	}
	if len(orders) == 0 {
		orders = a.choose(legal, reachLines(m.Text))
	}
	block := templates.OrderBlock{GameID: b.GameID, Move: b.Move, Key: b.Key, Prefill: orders}.Text()
	a.sent++
	local, host, _ := strings.Cut(a.Address, "@")
	return &mailbox.Outgoing{
		From:      a.Address,
		To:        []string{m.From},
		Subject:   "Re: " + m.Subject,
		Date:      time.Now().UTC(),
		MessageID: fmt.Sprintf("%s.%d.%d@%s", local, time.Now().UnixNano(), a.sent, host),
		InReplyTo: m.MessageID,
		Text:      block + "\nYours,\n" + local + "\n\n" + quote(m.Text),
	}, nil
}

// choose picks orders the way a brisk player would: decline Seizures,
// charge, shock or fire when an enemy is in reach (one attack a turn, which
// always declares everything 10.1 asks of its unit), move one unit a hex
// when the mail says where units can go, end each Activation, continue when
// possible, and activate the Commands in turn (Standards only when no
// Command can go).
func (a *Autoplayer) choose(legal, reach []string) []string {
	if !slices.Contains(legal, "END") && hasPrefix(legal, "MOVE ", "FACE ", "SHOCK ", "CHARGE ") {
		// No END yet: the mail offers what the rules demand first (an
		// Engaged unit's turn or Shock, Arquebus 14.5).
		return oneOrder(legal)
	}
	if atk := attacks(legal, func(u string) bool { return false }); len(atk) > 0 {
		return append(atk, "END") // every attack 10.1 (and 14.5) asks for
	}
	for _, l := range legal {
		if strings.HasPrefix(l, "FIRE ") {
			return []string{l, "END"}
		}
	}
	if len(reach) > 0 {
		a.turn++
		if mv := oneHexMove(reach[(a.turn+a.Vary)%len(reach)]); mv != "" {
			return []string{mv, "END"}
		}
	}
	for _, prefix := range []string{"DECLINE", "END", "CONTINUE ", "ACTIVATE "} {
		var found []string
		for _, l := range legal {
			if strings.HasPrefix(l, prefix) {
				found = append(found, l)
			}
		}
		if len(found) > 0 {
			found = commandsFirst(found)
			if a.picks == nil {
				a.picks = map[string]int{}
			}
			a.picks[prefix]++
			return []string{found[(a.picks[prefix]+a.Vary)%len(found)]}
		}
	}
	return []string{legal[0]}
}

// oneOrder is the first order the mail offers whole (no blank to fill),
// without END: the next mail offers what follows.
func oneOrder(legal []string) []string {
	for _, l := range legal {
		if !strings.Contains(l, "<") && l != "END" {
			return []string{l}
		}
	}
	return []string{legal[0]}
}

// commandsFirst drops the Standards' Activations from a choice that offers
// a Command: the player cannot see from its mail whether a Standard has
// Retired units to rally, and an idle Standard wastes the Activation.
func commandsFirst(orders []string) []string {
	var commands []string
	for _, o := range orders {
		if !strings.HasPrefix(o, "ACTIVATE STANDARD ") {
			commands = append(commands, o)
		}
	}
	if len(commands) == 0 {
		return orders
	}
	return commands
}

// reachLines reads the "Where your units can move" list of a mail's text:
// "LB1: 0710 (1), 0711 (1), …".
func reachLines(text string) []string {
	_, rest, ok := strings.Cut(text, "Where your units can move (MP spent):\n")
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		switch {
		case strings.HasPrefix(l, "    ") && len(out) > 0:
			out[len(out)-1] += " " + strings.TrimSpace(l)
		case strings.HasPrefix(l, "  ") && strings.Contains(l, ":"):
			out = append(out, strings.TrimSpace(l))
		default:
			return out
		}
	}
	return out
}

// oneHexMove is a MOVE to the first hex a reach line says costs 1 MP: a
// neighbouring hex, so the path is that hex alone.
func oneHexMove(line string) string {
	unit, hexes, ok := strings.Cut(line, ": ")
	if !ok {
		return ""
	}
	for _, h := range strings.Split(hexes, ", ") {
		if id, cost, ok := strings.Cut(h, " "); ok && cost == "(1)" {
			return "MOVE " + unit + " " + id
		}
	}
	return ""
}

// legalOrders reads the "You may send:" list of a mail's text, without
// the forms that have a blank to fill ("SEIZE <command>").
func legalOrders(text string) []string {
	var out []string
	for _, o := range allOrders(text) {
		if !placeholder.MatchString(o) {
			out = append(out, o)
		}
	}
	return out
}

// allOrders reads the "You may send:" list of a mail's text, forms with
// blanks included.
func allOrders(text string) []string {
	_, rest, ok := strings.Cut(text, "You may send:\n")
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "  ") || strings.TrimSpace(l) == "" {
			break
		}
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

var placeholder = regexp.MustCompile(`<[^>]*>`)

func quote(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString("> " + l + "\n")
	}
	return b.String()
}
