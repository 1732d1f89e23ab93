package ladder

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Kind is how a ladder pairs its members.
type Kind string

const (
	// KindLadder: members challenge one another at will; an organizer may
	// pair a round of neighbours in the standings.
	KindLadder Kind = "ladder"
	// KindRoundRobin: each member meets every other once, round by round
	// (the circle method); members are fixed when round 1 is paired.
	KindRoundRobin Kind = "round-robin"
)

// Ladder is a ladder or a round-robin: all of it, stored as one record.
type Ladder struct {
	ID         string   `json:"id"`
	Kind       Kind     `json:"kind"`
	Organizers []string `json:"organizers"`
	// Observers receive a read-only copy of every result mail of the
	// ladder's games (never a key, never a side's hidden information).
	Observers  []string     `json:"observers,omitempty"`
	Members    []Member     `json:"members"`
	Scenarios  []string     `json:"scenarios"`
	Clock      *TimeControl `json:"clock,omitempty"`
	Rating     Rating       `json:"rating"`
	Challenges []Challenge  `json:"challenges,omitempty"`
	Games      []Game       `json:"games,omitempty"`
	// Round is the last round paired (0: none yet).
	Round int `json:"round,omitempty"`
	// LastChallenge numbers the challenges: the next one is LastChallenge+1.
	LastChallenge int       `json:"last_challenge,omitempty"`
	Created       time.Time `json:"created"`
}

// Member is one player of the ladder and his record in it.
type Member struct {
	Address  string    `json:"address"`
	Rating   float64   `json:"rating"`
	Won      int       `json:"won,omitempty"`
	Drawn    int       `json:"drawn,omitempty"`
	Lost     int       `json:"lost,omitempty"`
	Forfeits int       `json:"forfeits,omitempty"` // games lost on time
	Joined   time.Time `json:"joined"`
	// Left: removed; kept because his games name him.
	Left bool `json:"left,omitempty"`
}

// Played is the number of finished games he won, drew or lost.
func (m Member) Played() int { return m.Won + m.Drawn + m.Lost }

// Config describes a new ladder.
type Config struct {
	ID         string
	Kind       Kind
	Organizers []string
	Scenarios  []string
	Clock      *TimeControl // nil: games without a clock
	Rating     Rating
}

var ladderID = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,39}$`)

// New makes an empty ladder.
func New(c Config, now time.Time) (*Ladder, error) {
	if !ladderID.MatchString(c.ID) {
		return nil, fmt.Errorf("ladder id %q: want lower-case letters, digits, '.', '_' or '-', at most 40: %w", c.ID, ErrInvalid)
	}
	if c.Kind != KindLadder && c.Kind != KindRoundRobin {
		return nil, fmt.Errorf("ladder %s: kind %q: want %q or %q: %w", c.ID, c.Kind, KindLadder, KindRoundRobin, ErrInvalid)
	}
	orgs, err := addresses(c.Organizers)
	if err != nil || len(orgs) == 0 {
		return nil, fmt.Errorf("ladder %s: want at least one organizer's address: %w", c.ID, ErrInvalid)
	}
	if len(c.Scenarios) == 0 {
		return nil, fmt.Errorf("ladder %s: want at least one scenario: %w", c.ID, ErrInvalid)
	}
	if c.Clock != nil {
		if err := c.Clock.Validate(); err != nil {
			return nil, fmt.Errorf("ladder %s: %w", c.ID, err)
		}
	}
	if err := c.Rating.Validate(); err != nil {
		return nil, fmt.Errorf("ladder %s: %w", c.ID, err)
	}
	return &Ladder{ID: c.ID, Kind: c.Kind, Organizers: orgs, Scenarios: slices.Clone(c.Scenarios),
		Clock: c.Clock, Rating: c.Rating, Created: now.UTC()}, nil
}

// addresses normalises a list of mail addresses (lower case, trimmed).
func addresses(list []string) ([]string, error) {
	var out []string
	for _, a := range list {
		a = normal(a)
		if !strings.Contains(a, "@") {
			return nil, fmt.Errorf("%q is not a mail address: %w", a, ErrInvalid)
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}

func normal(addr string) string { return strings.ToLower(strings.TrimSpace(addr)) }

// Clone is a deep copy, for trying an operation without committing to it.
func (l *Ladder) Clone() *Ladder {
	c, err := Decode(l.Encode())
	if err != nil {
		panic(err) // what Encode writes, Decode reads
	}
	return c
}

// IsOrganizer reports whether addr organizes the ladder.
func (l *Ladder) IsOrganizer(addr string) bool { return slices.Contains(l.Organizers, normal(addr)) }

func (l *Ladder) organizer(by string) error {
	if !l.IsOrganizer(by) {
		return fmt.Errorf("ladder %s: %s: %w", l.ID, normal(by), ErrNotOrganizer)
	}
	return nil
}

// member finds an active member.
func (l *Ladder) member(addr string) (*Member, error) {
	addr = normal(addr)
	for i := range l.Members {
		if l.Members[i].Address == addr && !l.Members[i].Left {
			return &l.Members[i], nil
		}
	}
	return nil, fmt.Errorf("ladder %s: %s: %w", l.ID, addr, ErrUnknownMember)
}

// Active lists the members who have not left, in the order they joined.
func (l *Ladder) Active() []Member {
	var out []Member
	for _, m := range l.Members {
		if !m.Left {
			out = append(out, m)
		}
	}
	return out
}

// AddMember adds addr with the initial rating; a member who left comes
// back with his record and rating.
func (l *Ladder) AddMember(by, addr string, now time.Time) error {
	if err := l.organizer(by); err != nil {
		return err
	}
	a, err := addresses([]string{addr})
	if err != nil {
		return fmt.Errorf("ladder %s: %w", l.ID, err)
	}
	if _, err := l.member(a[0]); err == nil {
		return fmt.Errorf("ladder %s: %s: %w", l.ID, a[0], ErrAlreadyMember)
	}
	if l.Kind == KindRoundRobin && l.Round > 0 {
		return fmt.Errorf("ladder %s: cannot add %s: %w", l.ID, a[0], ErrStarted)
	}
	for i := range l.Members {
		if l.Members[i].Address == a[0] {
			l.Members[i].Left = false
			return nil
		}
	}
	l.Members = append(l.Members, Member{Address: a[0], Rating: l.Rating.Initial, Joined: now.UTC()})
	return nil
}

// RemoveMember removes addr, who must have no game in play, and withdraws
// the open challenges from or to him.
func (l *Ladder) RemoveMember(by, addr string) error {
	if err := l.organizer(by); err != nil {
		return err
	}
	m, err := l.member(addr)
	if err != nil {
		return err
	}
	if l.Kind == KindRoundRobin && l.Round > 0 {
		return fmt.Errorf("ladder %s: cannot remove %s: %w", l.ID, m.Address, ErrStarted)
	}
	if g := l.inPlay(m.Address); g != nil {
		return fmt.Errorf("ladder %s: %s %w (%s); adjudicate or abandon it first", l.ID, m.Address, ErrInPlay, g.ID)
	}
	l.Challenges = slices.DeleteFunc(l.Challenges, func(c Challenge) bool {
		return c.From == m.Address || c.To == m.Address
	})
	m.Left = true
	return nil
}

// AddObserver lets addr receive the observers' copy of every result of
// the ladder's games.
func (l *Ladder) AddObserver(by, addr string) error {
	if err := l.organizer(by); err != nil {
		return err
	}
	a, err := addresses([]string{addr})
	if err != nil {
		return fmt.Errorf("ladder %s: %w", l.ID, err)
	}
	if slices.Contains(l.Observers, a[0]) {
		return fmt.Errorf("ladder %s: %s already observes: %w", l.ID, a[0], ErrInvalid)
	}
	l.Observers = append(l.Observers, a[0])
	return nil
}

// RemoveObserver stops the observers' copies to addr.
func (l *Ladder) RemoveObserver(by, addr string) error {
	if err := l.organizer(by); err != nil {
		return err
	}
	i := slices.Index(l.Observers, normal(addr))
	if i < 0 {
		return fmt.Errorf("ladder %s: %s does not observe: %w", l.ID, normal(addr), ErrInvalid)
	}
	l.Observers = slices.Delete(l.Observers, i, i+1)
	return nil
}

// IsMember reports whether addr is an active member.
func (l *Ladder) IsMember(addr string) bool { _, err := l.member(addr); return err == nil }

// allowed checks a scenario; "" is the ladder's first.
func (l *Ladder) allowed(scenario string) (string, error) {
	if scenario == "" {
		return l.Scenarios[0], nil
	}
	if !slices.Contains(l.Scenarios, scenario) {
		return "", fmt.Errorf("ladder %s: %s (allowed: %s): %w", l.ID, scenario, strings.Join(l.Scenarios, ", "), ErrScenario)
	}
	return scenario, nil
}

// Encode is the ladder's stored form (JSON).
func (l *Ladder) Encode() []byte {
	raw, err := json.Marshal(l)
	if err != nil {
		panic(err) // a Ladder is plain data
	}
	return raw
}

// Decode reads a stored ladder.
func Decode(raw []byte) (*Ladder, error) {
	var l Ladder
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("ladder: decode: %w", err)
	}
	return &l, nil
}

// GameIDs lists the ids of the ladder's games, for the store's index.
func (l *Ladder) GameIDs() []string {
	out := make([]string, len(l.Games))
	for i, g := range l.Games {
		out[i] = g.ID
	}
	return out
}
