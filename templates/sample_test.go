package templates

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// The samples follow the opening of Crécy as men-of-iron.md 4.3 tells it
// (engine/testdata/examples/moi-4.3-crecy-continuity-seizure.txt), then
// data/samples/crecy-opening.orders, and an ending. The narrative lines are
// what engine.Describe prints for those events. Flight Levels and
// Activation Ratings are sample values.
//
//	move 1  French   ACTIVATE Doria, END, CONTINUE Grimaldi
//	move 2  English  DECLINE, ACTIVATE Godfrey, END, CONTINUE Edward  (roll #1: 7)
//	move 3  French   SEIZE Alencon, ACTIVATE Alencon                  (roll #2: 5)
//	move 4  English  ACTIVATE Godfrey, END, CONTINUE Northampton, END,
//	                 CONTINUE Edward                                  (rolls #3, #4: 2, 8)

const (
	english = "English"
	french  = "French"
)

func crecy(move int) Game {
	return Game{
		ID:     "crecy-4f2a",
		Battle: "Crécy",
		Sides: [2]SideInfo{
			{Name: english, Player: "alice@example.org", FlightPoints: 0, FlightLevel: 20},
			{Name: french, Player: "bruno@example.fr", FlightPoints: 0, FlightLevel: 30},
		},
		Move: move,
	}
}

var keys = map[string]string{english: "K7Q2-M9XD-4RTA", french: "P3VW-8HJN-2CQE"}

func block(side string, move int, prefill ...string) OrderBlock {
	return OrderBlock{GameID: "crecy-4f2a", Move: move, Key: keys[side], Prefill: prefill}
}

// hexOf is a stand-in hash: the SHA-256 of a label.
func hexOf(label string) string {
	h := sha256.Sum256([]byte(label))
	return hex.EncodeToString(h[:])
}

var signer = ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))

func signature(head string) string {
	return hex.EncodeToString(ed25519.Sign(signer, []byte(head)))
}

const verifyHint = "Check these rolls with `herald verify --game crecy-4f2a`, or with any script that follows the dice specification (docs/dice.md)."

func dice(batch int, rolls ...RollView) DiceView {
	head := hexOf("chain head " + string(rune('0'+batch)))
	n := 0
	if len(rolls) > 0 {
		n = rolls[len(rolls)-1].Seq
	}
	return DiceView{
		Batch:          batch,
		RevealedSeed:   hexOf("seed " + string(rune('0'+batch))),
		NextCommitment: hexOf(hexOf("seed " + string(rune('1'+batch)))),
		ChainHead:      head,
		ChainLength:    n,
		Signature:      signature(head),
		Rolls:          rolls,
		VerifyHint:     verifyHint,
		Record:         sampleRecord(batch, head, rolls),
	}
}

// sampleRecord is a dice record as pbem/dice prints one (its values are
// not a real game's: the templates only print it).
func sampleRecord(batch int, head string, rolls []RollView) string {
	var b strings.Builder
	b.WriteString("-----BEGIN HERALD DICE-----\nversion 2\ngame crecy-4f2a\nkey " + hexOf("key") + "\n")
	fmt.Fprintf(&b, "batch %d\nside French\nafter 12 %s\ncommit %s\nseed %s\nblock %s\n", batch, hexOf("before"),
		hexOf(hexOf("seed "+string(rune('0'+batch)))), hexOf("seed "+string(rune('0'+batch))), hexOf("block"))
	for i, r := range rolls {
		fmt.Fprintf(&b, "roll %d %d %d %s\n", r.Seq, i, r.Die, r.Purpose)
	}
	fmt.Fprintf(&b, "next %s\ncheckpoint 16 %s %s\n-----END HERALD DICE-----\n", hexOf(hexOf("seed "+string(rune('1'+batch)))), head, signature(head))
	return b.String()
}

var (
	rollGrimaldi = RollView{Seq: 1, Purpose: "Continuity DR: Grimaldi (AR 2)", Die: 7, Total: 7,
		Against: "Activation Rating 2", Result: "higher: Continuation fails"}
	rollAlencon = RollView{Seq: 2, Purpose: "Seizure DR: Alençon (AR 3)", Die: 5, Total: 5,
		Against: "Activation Rating 3", Result: "higher: the Seizure fails"}
	rollNorthampton = RollView{Seq: 3, Purpose: "Continuity DR: Northampton (AR 3)", Die: 2, Total: 2,
		Against: "Activation Rating 3", Result: "not higher: Continuation succeeds"}
	rollEdward = RollView{Seq: 4, Purpose: "Continuity DR: Edward (AR 4)", Die: 8,
		Mods:  []ModView{{DRM: 1, Reason: "1 successful Continuation DR(s) in a row", Rule: "4.2"}},
		Total: 9, Against: "Activation Rating 4", Result: "higher: Continuation fails"}
)

func ptr[T any](v T) *T { return &v }

// move2 is the account of the English block of move 2, which ends waiting
// for the French to decide whether to Seize.
func move2() Account {
	return Account{
		Sender: english,
		Lines: []Narrative{
			{Text: "The English do not try to Seize."},
			{Text: "Continuity DR for Grimaldi: a roll of 7, higher than Grimaldi's Activation Rating of 2: Continuation fails (4.2).", Roll: ptr(rollGrimaldi)},
			{Text: "The English have a Free Activation: the French failed their Continuity DR."},
			{Text: "The English activate Godfrey (Free Activation)."},
			{Text: "The Activation of Godfrey ends (Free Activation)."},
			{Text: "Loss Check for the English: 0 Flight Points + 9 cannot exceed their Flight Level of 20; no roll needed (16.0)."},
			{Text: "Loss Check for the French: 0 Flight Points + 9 cannot exceed their Flight Level of 30; no roll needed (16.0)."},
			{Text: "The English select Edward for Continuity (4.2)."},
		},
		MapCID: "map-crecy-4f2a-3@herald.example",
		Dice:   dice(2, rollGrimaldi),
	}
}

const waitingSeizure = "waiting for the French to decide whether to Seize Continuity before the English roll for Edward's Command (King's Battle) (4.3)"

// move3 is the account of the French block of move 3: the Seizure fails.
func move3(forSender bool) Account {
	a := Account{
		Sender: french,
		Lines: []Narrative{
			{Text: "The French try to Seize Continuity with Alençon: a roll of 5, higher than Alençon's Activation Rating of 3: the Seizure fails (4.3).", Roll: ptr(rollAlencon)},
			{Text: "The English have a Free Activation: the French failed to Seize Continuity; they may activate even the Command that just went."},
		},
		MapCID: "map-crecy-4f2a-4@herald.example",
		Dice:   dice(3, rollAlencon),
	}
	if forSender {
		a.NotApplied = []NotApplied{{LineNo: 2, Line: "ACTIVATE Alencon",
			Reason: "the French no longer have the move: the game is waiting for the English to choose a Command or Standard for their Free Activation, or to Pass", Rule: "4.3"}}
	}
	return a
}

const waitingEnglishFree = "waiting for the English to choose a Command or Standard for their Free Activation, or to Pass (4.1)"

var legalEnglishFree = []string{"ACTIVATE Godfrey", "ACTIVATE Edward", "ACTIVATE Northampton", "PASS"}

// samples are the golden cases: one or more per kind of mail.
func samples() []struct {
	name string
	view View
} {
	return []struct {
		name string
		view View
	}{
		{"welcome-french", Welcome{
			Game: crecy(1), Side: french, Player: "bruno@example.fr", Key: keys[french],
			PublicKey:  hex.EncodeToString(signer.Public().(ed25519.PublicKey)),
			Commitment: hexOf(hexOf("seed 1")),
			FirstToAct: french,
			Legal:      []string{"ACTIVATE Doria", "ACTIVATE Grimaldi", "ACTIVATE Alençon", "ACTIVATE Blois", "PASS"},
			Block:      block(french, 1),
			OrdersHelp: ordersHelp,
			MapCID:     "map.crecy-4f2a.0@herald.example",
			ArmyMapCID: "map.crecy-4f2a.0.1@herald.example",
			Roster:     sampleRoster(french),
			UnitTypes:  []string{"CB Crossbow", "MMAA Mounted Men-at-Arms", "LB Longbow", "DMAA Dismounted Men-at-Arms"},
			Example:    []string{"ACTIVATE Doria", "MOVE CB1 1005", "END"},
		}},
		{"welcome-english", Welcome{
			Game: crecy(1), Side: english, Player: "alice@example.org", Key: keys[english],
			PublicKey:  hex.EncodeToString(signer.Public().(ed25519.PublicKey)),
			Commitment: hexOf(hexOf("seed 1")),
			FirstToAct: french,
			Block:      block(english, 1, "# standing orders only, e.g. STANDING SEIZE NEVER"),
			OrdersHelp: ordersHelp,
			Roster:     sampleRoster(english),
			UnitTypes:  []string{"LB Longbow", "DMAA Dismounted Men-at-Arms", "CB Crossbow", "MMAA Mounted Men-at-Arms"},
			// As engine.BattleRuleNotes words them.
			BattleRules: []string{
				"The English have a Bombard in 0509: English missile fire at a Mounted unit within 3 hexes of it gets +1 while no enemy unit stands on it (Herald's rule R116).",
				"The units of King Philip's Battle (French) may enter from the battle's Activation 6 on, through 2408, 2409, 2410, 2411; the first Activation of the battle is 1, and every Command's or Standard's counts (5.3, R112).",
			},
		}},
		{"decision-french-seize", Decision{
			Game: crecy(3), Account: move2(), Side: french,
			Next:         "French to decide on Seizure",
			Question:     "The English have named Edward's Command for Continuity (4.2). Before they roll, you may try to Seize Continuity with one of your Commands: a roll not higher than its leader's Activation Rating seizes the initiative; a higher roll gives the English a Free Activation (4.3). Or you may decline, and the English roll against Edward's Activation Rating.",
			Legal:        []string{"SEIZE Doria", "SEIZE Grimaldi", "SEIZE Alençon", "SEIZE Blois", "DECLINE"},
			Block:        block(french, 3),
			StandingHint: "Not to be asked again, send standing orders: `STANDING SEIZE NEVER` lets the English roll at once; `STANDING SEIZE Alençon IF Edward` tries to Seize with Alençon whenever they name Edward (docs/orders.md).",
		}},
		{"result-english-waits", Result{
			Game: crecy(3), Account: move2(), Side: english,
			Next: "French to decide on Seizure", Waiting: waitingSeizure,
		}},
		{"result-english-acts", Result{
			Game: crecy(4), Account: move3(false), Side: english,
			Next: "English to activate", Waiting: waitingEnglishFree,
			ToAct: true, Block: ptr(block(english, 4)), Legal: legalEnglishFree,
		}},
		{"result-english-orders", Result{
			Game: crecy(4), Account: move3(false), Side: english,
			Next:    "English to give orders",
			Waiting: "waiting for the English to give orders to Godfrey's Command (Godfrey's Longbow), ending with END",
			ToAct:   true, Block: ptr(block(english, 4)),
			Legal: []string{"MOVE LB1 <hexes> [FACE <vertex>]", "FACE LB1 <vertex>", "FIRE LB1 AT CB2", "END"},
			Reach: []string{"LB1: 0710 (1), 0711 (1), 0609 (2), 0809 (2), 0810 (2), and 14 more"},
		}},
		{"result-french-waits", Result{
			Game: crecy(4), Account: move3(true), Side: french,
			Next: "English to activate", Waiting: waitingEnglishFree,
		}},
		{"result-french-acts", Result{
			Game: crecy(5), Side: french,
			Account: Account{
				Sender: english,
				Lines: []Narrative{
					{Text: "The English activate Godfrey (Free Activation)."},
					{Text: "The Activation of Godfrey ends (Free Activation)."},
					{Text: "Loss Check for the English: 0 Flight Points + 9 cannot exceed their Flight Level of 20; no roll needed (16.0)."},
					{Text: "Loss Check for the French: 0 Flight Points + 9 cannot exceed their Flight Level of 30; no roll needed (16.0)."},
					{Text: "The English select Northampton for Continuity (4.2)."},
					{Text: `The French do not try to Seize (standing order "STANDING SEIZE NEVER").`},
					{Text: "Continuity DR for Northampton: a roll of 2, not higher than Northampton's Activation Rating of 3: Continuation succeeds (4.2).", Roll: ptr(rollNorthampton)},
					{Text: "The English activate Northampton (Continuation)."},
					{Text: "The Activation of Northampton ends (Continuation)."},
					{Text: "The English select Edward for Continuity (4.2)."},
					{Text: `The French do not try to Seize (standing order "STANDING SEIZE NEVER").`},
					{Text: "Continuity DR for Edward: a roll of 8, +1 1 successful Continuation DR(s) in a row (4.2), modified to 9, higher than Edward's Activation Rating of 4: Continuation fails (4.2).", Roll: ptr(rollEdward)},
					{Text: "The French have a Free Activation: the English failed their Continuity DR."},
				},
				MapCID: "map-crecy-4f2a-5@herald.example",
				Dice:   dice(4, rollNorthampton, rollEdward),
			},
			Next:    "French to activate",
			Waiting: "waiting for the French to choose a Command or Standard for their Free Activation, or to Pass (4.1)",
			ToAct:   true, Block: ptr(block(french, 5)),
			Legal: []string{"ACTIVATE Doria", "ACTIVATE Grimaldi", "ACTIVATE Alençon", "ACTIVATE Blois", "PASS"},
		}},
		{"refusal-illegal", Refusal{
			Game: crecy(4), Side: english, Cause: RefusedIllegal,
			LineNo: 3, Line: "CONTINUE Godfrey",
			Reason: "Godfrey has just completed its Activation; the selected Command may not be the one that just went unless the player has only one Command",
			Rule:   "4.2",
			Hint:   "Name another Command for Continuity, or `PASS`.",
			Legal:  []string{"CONTINUE Edward", "CONTINUE Northampton", "PASS"},
			Block:  ptr(block(english, 4, "ACTIVATE Godfrey", "END", "CONTINUE Godfrey")),
		}},
		{"refusal-parse", Refusal{
			Game: crecy(4), Side: english, Cause: RefusedParse,
			LineNo: 1, Line: "ACTIVTE Godfrey",
			Reason: `"ACTIVTE" is not an order; did you mean ACTIVATE?`,
			Rule:   "docs/orders.md",
			Legal:  legalEnglishFree,
			Block:  ptr(block(english, 4, "ACTIVTE Godfrey", "END", "CONTINUE Edward")),
		}},
		{"refusal-turn", Refusal{
			Game: crecy(4), Side: french, Cause: RefusedTurn,
			Reason:  "the French have no decision to make now",
			Hint:    "Keep your lines 5 and 7 (ACTIVATE Doria; END) for later: Herald will mail you when the game waits for the French, with a block for that move; send them in answer to that mail, not now.",
			Waiting: waitingEnglishFree,
			Block:   ptr(block(french, 4, "STANDING SEIZE NEVER")),
		}},
		{"refusal-nokey", Refusal{
			Game: crecy(4), Side: english, Cause: RefusedNoKey,
			Reason: "the block has no KEY line: every block must carry your secret key, as in the blocks Herald mails you",
			Hint:   "The block below carries your KEY line and the lines of the block Herald refused: check them (if you did not send them, someone else did: ignore them), and send the block back.",
			Block:  ptr(block(english, 4, "ACTIVATE Godfrey", "END")),
		}},
		{"refusal-stale", Refusal{
			Game: crecy(4), Side: french, Cause: RefusedStale,
			Reason:  "this block answers move 3, which has already been played; the game is at move 4",
			Hint:    "If you sent the same mail twice, there is nothing to do: your orders of move 3 were carried out once.",
			Waiting: waitingEnglishFree,
		}},
		{"check-english", Check{
			Game: crecy(4), Side: english,
			Lines: []Narrative{
				{Text: "Godfrey's Command is activated (Free Activation)."},
				{Text: "The Activation of Godfrey ends."},
				{Text: "The English name Northampton for Continuity (4.2)."},
			},
			Stopped: "the next order needs the Continuity die roll for Northampton",
			NotChecked: []NotApplied{
				{LineNo: 5, Line: "END", Reason: "it comes after the first die roll"},
			},
			Waiting: "waiting for the French to decide whether to Seize Continuity",
			Block:   block(english, 4, "ACTIVATE Godfrey", "END", "CONTINUE Northampton", "END"),
		}},
		{"notice-not-a-player", Notice{
			GameID: "crecy-4f2a",
			About:  "Your orders were not accepted",
			Paragraphs: []string{
				"Herald received orders for game crecy-4f2a from mallory@example.net, which is not the address of a player of that game. Nothing in the game has changed.",
				"If you play in this game, send your orders from the address you gave when the game was set up. <b>Tags</b> & entities stay as typed.",
			},
		}},
		{"notice-resign", Notice{
			GameID:     "crecy-4f2a",
			About:      "Confirm your resignation",
			Paragraphs: []string{"You asked to resign game crecy-4f2a. To confirm, reply with this block; to go on playing, ignore this mail."},
			Block:      &OrderBlock{GameID: "crecy-4f2a", Move: 4, Key: keys[english], Prefill: []string{"RESIGN CONFIRM 7f3a9c"}},
		}},
		{"reminder-english", Reminder{
			Game: crecy(4), Side: english,
			Next:    "English to activate",
			Waiting: waitingEnglishFree,
			Since:   "Tuesday 3 March 2026, 18:40 UTC",
			Legal:   legalEnglishFree,
			Block:   block(english, 4),
		}},
		{"gameover-english", GameOver{
			Game: func() Game {
				g := crecy(87)
				g.Sides[0].FlightPoints, g.Sides[1].FlightPoints = 9, 25
				return g
			}(),
			Side: english,
			Account: Account{
				Sender: french,
				Lines: []Narrative{
					{Text: "The Activation of Alençon ends (Free Activation)."},
					{Text: "Loss Check for the French: a roll of 8 + 25 Flight Points = 33, above their Flight Level of 30 (16.0).", Roll: &RollView{
						Seq: 214, Purpose: "Loss Check: French (Flight Level 30)", Die: 8,
						Mods:  []ModView{{DRM: 25, Reason: "Flight Points", Rule: "16.0"}},
						Total: 33, Against: "Flight Level 30", Result: "above: the French lose"}},
					{Text: "Loss Check for the English: a roll of 3 + 9 Flight Points = 12, not above their Flight Level of 20 (16.0).", Roll: &RollView{
						Seq: 215, Purpose: "Loss Check: English (Flight Level 20)", Die: 3,
						Mods:  []ModView{{DRM: 9, Reason: "Flight Points", Rule: "16.0"}},
						Total: 12, Against: "Flight Level 20", Result: "not above: the English stand"}},
					{Text: "The battle is over: the French failed their Loss Check and flee the field; the English win (16.0)."},
				},
				MapCID: "map-crecy-4f2a-87@herald.example",
				Dice: func() DiceView {
					d := dice(61,
						RollView{Seq: 214, Purpose: "Loss Check: French (Flight Level 30)", Die: 8},
						RollView{Seq: 215, Purpose: "Loss Check: English (Flight Level 20)", Die: 3})
					d.NextCommitment = ""
					d.VerifyHint = "The whole game's dice log is attached. Check every roll with `herald verify crecy-4f2a-dice.json`, or with any script that follows the dice specification (docs/dice.md)."
					return d
				}(),
			},
			Winner:  english,
			Outcome: "the French failed their Loss Check and flee the field; the English win (16.0)",
			DiceLog: "crecy-4f2a-dice.json",
			DiceReport: []string{
				"Dice report: 215 rolls of a d10",
				"  face:     0    1    2    3    4    5    6    7    8    9",
				"  count:   19   23   22   20   24   18   25   21   22   21",
				"  chi-square 2.16 (9 degrees of freedom), p = 0.989",
				"  Nothing unusual: dice this even come up often.",
			},
		}},
	}
}

var ordersHelp = []string{
	"Write one order per line between the two markers of the block; `#` starts a comment. Names may be shortened to any unambiguous prefix and typed without accents: Gri for Grimaldi, Alencon for Alençon.",
	"The orders are ACTIVATE, END, CONTINUE, PASS, SEIZE and DECLINE, as in the Sequence of Play (3.0, 4.0). A block may run through several decisions: ACTIVATE Godfrey, END, CONTINUE Edward.",
	"Standing orders settle the decisions that come up during your opponent's turn without a mail: `STANDING SEIZE NEVER`, or `STANDING SEIZE Alençon IF Edward`. Without them Herald asks you. Send them at any time.",
	"The whole order language: docs/orders.md.",
}

// sampleRoster is part of Crécy's order of battle, the recipient's army
// first.
func sampleRoster(first string) []Roster {
	fr := []Roster{
		{Side: french, Command: "Doria's Crossbowmen", Activate: "Doria", Leader: "Doria at 1107: Activation Rating 3, Command Range 3",
			Units: []RosterUnit{{ID: "CB1", Type: "CB", Kind: "Crossbow", Hex: "1105", Facing: "W", MA: 4, Shock: 1, Weapon: "Crossbow"},
				{ID: "CB2", Type: "CB", Kind: "Crossbow", Hex: "1107", Facing: "W", MA: 4, Shock: 1, Weapon: "Crossbow"}}},
		{Side: french, Command: "Alençon's Mounted Men-at-Arms", Activate: "Alençon", Leader: "Alençon at 1408: Activation Rating 2, Command Range 4",
			Units: []RosterUnit{{ID: "MA1", Type: "MMAA", Kind: "Mounted Men-at-Arms", Hex: "1406", Facing: "W", MA: 7, Shock: -1},
				{ID: "MA5", Type: "MMAA", Kind: "Mounted Men-at-Arms", Hex: "off map", MA: 7, Shock: -1}}},
	}
	en := []Roster{
		{Side: english, Command: "Godfrey's Longbow", Activate: "Godfrey", Leader: "Godfrey at 0611: Activation Rating 3, Command Range 3",
			Units: []RosterUnit{{ID: "LB1", Type: "LB", Kind: "Longbow", Hex: "0610", Facing: "E", MA: 5, Shock: 1, Weapon: "Longbow"},
				{ID: "DM1", Type: "DMAA", Kind: "Dismounted Men-at-Arms", Hex: "0611", Facing: "E", MA: 3, Shock: -2, Status: "Disordered"}}},
	}
	if first == french {
		return append(fr, en...)
	}
	return append(en, fr...)
}
