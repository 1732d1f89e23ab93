package templates

import (
	"fmt"
	"strings"
)

// The view models below are plain data. The daemon fills them from the
// engine, the dice log and the store; the templates only print them. Every
// string is printed as given (player-supplied text included): the HTML
// templates escape it, the text templates do not.

// Game identifies the game a mail is about. It is the same for both players.
type Game struct {
	// ID is the game's tag, "crecy-4f2a": it opens every subject in
	// brackets, so that replies route, and it names the game in the order
	// block. Letters, digits, '.', '_' and '-' only.
	ID string
	// Battle is the battle's name as players know it: "Crécy".
	Battle string
	// System is the game system after "play by e-mail for", when not
	// the Men of Iron series: "the D20 strike miniatures rules".
	System string
	// Sides are the two armies, in the scenario's order.
	Sides [2]SideInfo
	// Move is the move number the next order block must carry: the number
	// in the begin marker of every block this mail holds, and in its
	// subject.
	Move int
	// Hand is the recipient's own unplayed Seizure counters, "SO5:
	// Seizure Opportunity 0-5" (B&R 6.3): shown to him alone, never in
	// a mail to his opponent.
	Hand []string
}

// SideInfo is one army and the player who commands it.
type SideInfo struct {
	Name   string // "English", as the engine names the side
	Player string // the player's mail address
	// FlightPoints and FlightLevel are the side's standing against its
	// Loss Check (16.0): points now, and the level its Loss Check total
	// must not exceed.
	FlightPoints int
	FlightLevel  int
	// ByVictoryPoints: the battle is decided by Victory Points, not Loss
	// Checks (Infidel 2.4, ruling R176); VictoryPoints are the side's,
	// the Flight Points its enemy has suffered.
	ByVictoryPoints bool
	VictoryPoints   int
	// Standing, when set, is the side's standing in the words of its
	// game system ("18 of 24 stands; the army breaks at 12"), shown
	// instead of Flight Points: a battle of another system has none.
	Standing string
	// HasCounters: the battle deals Seizure counters (B&R 6.3); Counters
	// is how many the side holds unplayed, which is no secret.
	HasCounters bool
	Counters    int
}

// OrderBlock is the block a player replies with. Text renders it, and both
// parts of a mail print exactly that.
type OrderBlock struct {
	GameID string
	Move   int
	Key    string // the player's secret key; the block goes only to him
	// Prefill are order lines written into the block for the player to
	// keep, change or delete: the lines of a refused block, or comments.
	// Empty leaves one blank line to write on.
	Prefill []string
}

// Markers of an order block (docs/orders.md). The parser in pbem reads the
// same strings.
const (
	BeginMarkerFormat = "--- herald orders: %s move %d ---"
	EndMarker         = "--- end orders ---"
	KeyPrefix         = "KEY "
)

// Text is the block exactly as the player must send it back, one line per
// order, ending in a newline.
func (b OrderBlock) Text() string {
	var s strings.Builder
	s.WriteString(beginMarker(b.GameID, b.Move))
	s.WriteString("\n" + KeyPrefix + b.Key + "\n")
	if len(b.Prefill) == 0 {
		s.WriteString("\n")
	}
	for _, l := range b.Prefill {
		s.WriteString(l + "\n")
	}
	s.WriteString(EndMarker + "\n")
	return s.String()
}

// Narrative is one line of what happened: one event, as engine.Describe
// prints it, and the die roll it made, if any.
type Narrative struct {
	Text string
	Roll *RollView
}

// RollView is one die roll, laid out as the rule books' examples narrate
// it: the die, each modifier with its reason and rule, the total, what it
// was compared against, and the result.
type RollView struct {
	Seq     int    // the roll's sequence number in the game's dice log
	Purpose string // as the dice log records it: "Continuity DR: Grimaldi (AR 2)"
	Die     int
	Mods    []ModView
	Total   int
	// Against is the number or the table the total was compared with:
	// "Activation Rating 2", "Flight Level 18", "Fire table, Foot
	// Disordered column". Empty when there is none.
	Against string
	// Result is the outcome in a few words: "Continuation fails".
	Result string
}

// ModView is one die-roll modifier.
type ModView struct {
	DRM    int
	Reason string
	Rule   string // rule section: "4.2"
}

// NotApplied is an order of a block that was not carried out because the
// block stopped before it (docs/orders.md, "How a block is applied").
type NotApplied struct {
	LineNo int
	Line   string // as the player typed it
	// Reason and Rule say why; lines that share a reason in a row give it
	// once, on the last of them (GroupReasons), the others leave it empty.
	Reason string
	Rule   string // may be empty
}

// GroupReasons gives one reason for each run of lines with the same
// reason and rule: on the run's last line, the others' emptied.
func GroupReasons(list []NotApplied) []NotApplied {
	out := append([]NotApplied(nil), list...)
	for i := 0; i+1 < len(out); i++ {
		if out[i].Reason == out[i+1].Reason && out[i].Rule == out[i+1].Rule {
			out[i].Reason, out[i].Rule = "", ""
		}
	}
	return out
}

// DiceView is what a player needs to check the rolls of a mail against the
// dice log (pbem/dice), and to carry the chain forward.
type DiceView struct {
	Batch          int    // the batch of rolls this mail reveals
	RevealedSeed   string // hex; the seed committed before these orders were written
	NextCommitment string // hex; SHA-256 of the seed of the next batch
	ChainHead      string // hex; the hash-chained log's head after these rolls
	ChainLength    int    // entries in the log so far: the checkpoint is ChainLength:ChainHead
	Signature      string // hex; the installation's Ed25519 signature of the head
	Rolls          []RollView
	// VerifyHint tells how to check, in a sentence: a command, a URL.
	VerifyHint string
	// Record is the batch's dice record (pbem/dice Record.String): the
	// lines herald verify --mail reads, printed as they are, never
	// wrapped. Empty for a game of format version 1.
	Record string
}

// Account is what happened when one block of orders was carried out. Both
// players receive it, in a Result, a Decision or a GameOver.
type Account struct {
	Sender string      // the side whose orders these were: "French"
	Lines  []Narrative // the events, in order
	// NotApplied are the orders of the block that were not carried out.
	// Fill them only in the Sender's own copy: they are his plans (a
	// conditional block), and Render refuses them in the opponent's.
	NotApplied []NotApplied
	// Kept are the recipient's own orders given after CONTINUE and kept
	// over his opponent's Seizure decision, each with what became or will
	// become of it; KeptIntro says which. Fill them only in KeptSide's
	// copy: they are secret from the opponent until they act.
	Kept      []NotApplied
	KeptIntro string
	KeptSide  string
	// MapCID is the Content-ID (without <>) of the inline map PNG; empty
	// when the mail carries no map.
	MapCID string
	Dice   DiceView
}

// Welcome is sent to each player when a game starts.
type Welcome struct {
	Game
	Side   string // the recipient's side
	Player string // the recipient's address
	Key    string // the recipient's secret key: it goes on every block's KEY line
	// PublicKey is the installation's Ed25519 public key (hex): it checks
	// the signatures of the dice log's heads.
	PublicKey string
	// Commitment is the SHA-256 (hex) of the first batch's dice seed.
	Commitment string
	// DiceRecord is the game's opening dice record (pbem/dice
	// OpeningRecord): the key, the first commitment and the signed
	// opening checkpoint, as herald verify --mail reads them.
	DiceRecord string
	FirstToAct string // the side that acts first
	// Legal are the orders the first player may give; shown to him only.
	Legal []string
	// Block is the recipient's block: the first orders for the player who
	// acts first, standing orders for the other.
	Block OrderBlock
	// OrdersHelp are a few lines about the order language, each printed
	// as a paragraph.
	OrdersHelp []string
	// MapCID is the Content-ID (without <>) of the inline map of the
	// opening position; empty when the mail carries no map. ArmyMapCID
	// is that of the map of the recipient's army alone, shown first;
	// empty when there is none.
	MapCID, ArmyMapCID string
	// Roster is each army's order of battle, Command by Command: the
	// recipient's first.
	Roster []Roster
	// BattleRules are the battle's own rules in force, a sentence each
	// (engine.BattleRuleNotes): the players never see the battle file.
	BattleRules []string
	// UnitTypes name the types of the Rosters' units: "CB Crossbow".
	UnitTypes []string
	// Example is a first block Herald has checked against the opening
	// position (an Activation, a move, END), for the player who acts
	// first; empty for the other, or when no such block exists.
	Example []string
}

// Roster is one Command's order of battle: its leader, and where each of
// its units stands with its printed ratings.
type Roster struct {
	Side    string // "French"
	Command string // "Doria's Crossbowmen"
	// Activate is the Command as orders name it: ACTIVATE Doria.
	Activate string
	// Leader says where the leader stands and what he can do: "Doria at
	// 1107, Activation Rating 3, Command Range 3". Empty without one.
	Leader string
	Units  []RosterUnit
}

// RosterUnit is one unit of a Roster, as its counter shows it.
type RosterUnit struct {
	ID     string // "CB1"
	Type   string // "CB"
	Kind   string // the type's name: "Crossbow"
	Hex    string // "1105", or "off map"
	Facing string // the vertex it faces: "W"; empty off map
	MA     int    // Movement Allowance (5.1)
	Shock  int    // Shock DRM (10.4 #3)
	Weapon string // the missile weapon it fires, or ""
	Status string // "Disordered" or "Retired"; empty when in good order
}

// TextRow is the unit as a row of the text mail's roster, under the
// heading RosterHeading.
func (u RosterUnit) TextRow() string {
	s := strings.TrimRight(fmt.Sprintf("%-6s %-6s %-7s %-5s %3d  %+4d  %s", u.ID, u.Type, u.Hex, u.Facing, u.MA, u.Shock, u.Weapon), " ")
	if u.Status != "" {
		s += " (" + u.Status + ")"
	}
	return s
}

// RosterHeading heads the columns of RosterUnit.TextRow.
const RosterHeading = "unit   type   hex     faces  MA  Shock  fires"

// Result is sent to both players after a block of orders was carried out
// and the game now waits for one of them. The player who acts next gets
// his block (ToAct, Block, Legal); the other gets the same account without.
type Result struct {
	Game
	Account
	Side    string // the recipient's side
	Next    string // a few words for the subject: "English to activate"
	Waiting string // engine.Waiting: "waiting for the English to …"
	ToAct   bool   // the recipient acts next
	Block   *OrderBlock
	Legal   []string // engine.Legal, for the recipient when ToAct
	// Reach says, for each unit the recipient may still move, the hexes it
	// can reach and their MP cost: "LB1: 0611 (1), 0711 (2), …".
	Reach []string
}

// Decision is sent instead of a Result to the player whose decision
// interrupts his opponent's turn (whether to Seize Continuity, and later
// reaction fire, counter-charges, retreats) when his standing orders do
// not settle it. It holds the account of the orders that led to it.
type Decision struct {
	Game
	Account
	Side     string // the recipient, who decides
	Next     string // a few words for the subject: "French to decide on Seizure"
	Question string // the question, in a paragraph
	Legal    []string
	Block    OrderBlock
	// StandingHint says which standing orders would settle this kind of
	// decision without a mail next time.
	StandingHint string
}

// RefusalKind says why orders were refused.
type RefusalKind string

const (
	RefusedParse   RefusalKind = "parse"     // a line does not parse
	RefusedIllegal RefusalKind = "illegal"   // the rules forbid an order now, before any die was rolled
	RefusedStale   RefusalKind = "stale"     // the block carries another move number
	RefusedTurn    RefusalKind = "turn"      // the game waits for the other player
	RefusedNoBlock RefusalKind = "noblock"   // the mail holds no order block
	RefusedKey     RefusalKind = "key"       // the KEY line is wrong
	RefusedNoKey   RefusalKind = "nokey"     // the block has no KEY line
	RefusedOver    RefusalKind = "over"      // the battle is over
	RefusedSeveral RefusalKind = "several"   // the mail holds more than one block
	RefusedDup     RefusalKind = "duplicate" // the mail was processed before
	RefusedLimit   RefusalKind = "limit"     // too many mails or failures from the sender
)

// Refusal answers a block that changed nothing in the game (principle 2):
// the line, the reason, the rule and what would be legal.
type Refusal struct {
	Game
	Side   string // the recipient's side
	Cause  RefusalKind
	LineNo int    // 0 when the refusal is not about one line
	Line   string // the line as the player typed it
	Reason string
	Rule   string // may be empty
	Hint   string // what to try; may be empty
	Legal  []string
	// Waiting is engine.Waiting, for RefusedTurn.
	Waiting string
	// Block is the block to try again with, usually prefilled with the
	// refused block's lines; nil when the recipient may not send orders.
	Block *OrderBlock
}

// Reminder is sent to a player the game has waited for too long.
type Reminder struct {
	Game
	Side    string // the recipient's side
	Next    string // a few words for the subject: "English to activate"
	Waiting string // engine.Waiting
	Since   string // when the game began to wait: "Tuesday 3 March, 18:40 UTC"
	Legal   []string
	Block   OrderBlock
}

// GameOver is sent to both players instead of a Result when a block of
// orders ends the battle: the last events, the outcome, and what it takes
// to verify every roll of the game.
type GameOver struct {
	Game
	Account
	Side    string // the recipient's side
	Winner  string // the winning side; empty for a draw
	Outcome string // the engine's reason: "the French failed their Loss Check …"
	// DiceLog is the file name of the attached whole-game dice log; empty
	// when none is attached.
	DiceLog string
	// DiceReport is the game's dice report, for the player who feels the
	// dice hated him: how often each face came up and what a chi-square
	// test makes of it (pbem/dice Tally), one line each; empty for none.
	DiceReport []string
}

// Check answers the mail command CHECK: what the orders would do up to
// the first die roll, with nothing changed in the game (docs/mail-orders.md).
type Check struct {
	Game
	Side  string      // the recipient's side
	Lines []Narrative // what would happen, in order
	// Stopped says where the check ended: at the first die roll, or where
	// the sender would no longer have the move. Empty when every order was
	// checked.
	Stopped    string
	NotChecked []NotApplied // orders after the point where the check stopped
	// Judged: the orders in NotChecked come after a die roll (or the
	// opponent's decision) and were judged by trying every result of the
	// die; each Reason is the verdict.
	Judged  bool
	Waiting string // engine.Waiting after the checked orders
	// Block is the recipient's block, prefilled with the checked orders
	// so that sending them for real is one reply away.
	Block OrderBlock
}

// Notice is a short answer that is not about a game's position: mail
// Herald could not read or route, a sender who is not a player, the
// confirmation asked before a resignation, the rate limit. It names no
// player of any game, since its recipient may not be one.
type Notice struct {
	// GameID is the game the notice is about, if known; it only tags the
	// subject.
	GameID string
	// About is the subject after the tag: "your mail could not be read".
	About string
	// Paragraphs are printed in order.
	Paragraphs []string
	// LineNo and Line quote the offending line, when there is one.
	LineNo int
	Line   string
	// Block is a block to reply with (RESIGN CONFIRM …); nil for none.
	Block *OrderBlock
}
