package games

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"herald/engine"
	"herald/pbem"
	"herald/pbem/dice"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/pbem/system"
)

// Config configures a Service.
type Config struct {
	Store *store.Store
	// Address is Herald's own address, "herald@club.example". Mail about
	// a game comes from its plus-address, herald+<game id>@club.example,
	// so that a player's reply routes by address alone.
	Address string
	// Name is the display name of Herald's mails (default "Herald").
	Name string
	// Organizers may send administrative commands for every game.
	Organizers []string
	// MaxMailBytes bounds what is read of a mail (default 1 MiB).
	MaxMailBytes int64
	// PerHour caps the mails one player (authenticated by his key) may
	// have read in an hour (default 60).
	PerHour int
	// AnswersPerHour caps the answers to mail that did not authenticate
	// (notices, refusals of a missing or wrong key) sent to one address in
	// an hour (default 3): a forged From can make Herald write to that
	// address no more often than this.
	AnswersPerHour int
	// Map renders the battlefield after a block of orders; nil sends
	// mails without a map.
	Map MapFunc
	// ArmyMap renders one army's area of a position: the welcome shows
	// it before Map's picture of the whole field, which a phone cannot
	// show legibly. Nil: the welcome has Map's picture alone.
	ArmyMap func(sc *engine.Scenario, st *engine.State, side engine.Side) ([]byte, error)
	// RetryBackoff paces new attempts at a mail the SMTP server refused
	// for now (4xx, network); PermanentBackoff at one it refused for good
	// (5xx), which only the operator can fix.
	// Defaults: 10 s doubling to 30 min; 30 min doubling to 6 h.
	RetryBackoff     mailbox.Backoff
	PermanentBackoff mailbox.Backoff
	// ProbeBackoff paces the outbox's attempts to reach an SMTP server
	// that is down (mailbox.ServerUnavailable), so that the mails go out
	// within seconds of its return (default 1 s doubling to 5 s).
	ProbeBackoff mailbox.Backoff
	// GiveUpAfter is how many permanent refusals of one mail end its
	// attempts (default 6: about 14 hours with the default backoff). It
	// is then kept among the undeliverable mails and logged as an error
	// (docs/mail-orders.md, "Replies"). Temporary failures never end them.
	GiveUpAfter int
	// Pictures turns on the pictures of other game systems' battles
	// (Battle.Picture) in their mails, as Map does Men of Iron's maps.
	Pictures bool
	// Drawn, when set, is handed every picture of another system's
	// battle as it is drawn (herald demo keeps them); Map's pictures the
	// MapFunc sees itself.
	Drawn func(png []byte)
	// Systems are the game systems whose battles games may be of
	// (default DefaultSystems); no two may name the same battle.
	Systems []system.System
	// ClockTick is how often Serve does what is due on the ladders'
	// clocks (Tick; default 30 s); OutageGrace the longest gap between
	// two of Herald's heartbeats that is not an outage (default 5 min):
	// no clock is charged for an outage (docs/ladders.md).
	ClockTick   time.Duration
	OutageGrace time.Duration
	// BatchWork is how long HandleBatch processes a batch's mails in one
	// store transaction before it commits (default 5 ms, or twice the
	// last commit's time if that is more): long enough that a commit's
	// fsync is a small part of the work, short enough that the outbox
	// sends the first replies of a burst while the rest is processed.
	BatchWork time.Duration
	// Now is the clock (default time.Now); tests fix it.
	Now func() time.Time
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// MapFunc renders the map as a PNG after events brought a game from
// before to after.
type MapFunc func(sc *engine.Scenario, before, after *engine.State, events []engine.Event) ([]byte, error)

// Service runs the games of one store.
type Service struct {
	cfg     Config
	key     *dice.Key
	secret  []byte // installation secret (secret.go)
	limiter *pbem.Limiter
	log     *slog.Logger

	mu      sync.Mutex
	systems *system.Registry
	battles map[string]system.Battle
	drawn   drawnMaps // the last maps drawn, for the other mails of a batch
	early   early     // mails composed while their transaction runs

	// wake tells the outbox loop that a commit queued mail.
	wake chan struct{}
	// commitTook is how long HandleBatch's last commit took, in
	// nanoseconds (processSome).
	commitTook atomic.Int64
}

const metaKey = "installation-key"

// New opens the service on its store, creating the installation's dice
// signing key on first use.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("games: no store")
	}
	addr := pbem.NormalizeAddress(cfg.Address)
	if !strings.Contains(addr, "@") {
		return nil, fmt.Errorf("games: Herald's address %q is not an address", cfg.Address)
	}
	cfg.Address = addr
	if cfg.Name == "" {
		cfg.Name = "Herald"
	}
	if cfg.MaxMailBytes == 0 {
		cfg.MaxMailBytes = 1 << 20
	}
	if cfg.PerHour == 0 {
		cfg.PerHour = 60
	}
	if cfg.AnswersPerHour == 0 {
		cfg.AnswersPerHour = 3
	}
	if cfg.RetryBackoff == nil {
		cfg.RetryBackoff = mailbox.ExponentialBackoff(10*time.Second, 30*time.Minute)
	}
	if cfg.PermanentBackoff == nil {
		cfg.PermanentBackoff = mailbox.ExponentialBackoff(30*time.Minute, 6*time.Hour)
	}
	if cfg.ProbeBackoff == nil {
		cfg.ProbeBackoff = mailbox.ExponentialBackoff(time.Second, 5*time.Second)
	}
	if cfg.GiveUpAfter <= 0 {
		cfg.GiveUpAfter = 6
	}
	if cfg.BatchWork <= 0 {
		cfg.BatchWork = 5 * time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ClockTick <= 0 {
		cfg.ClockTick = 30 * time.Second
	}
	if cfg.OutageGrace <= 0 {
		cfg.OutageGrace = 5 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Systems == nil {
		cfg.Systems = DefaultSystems()
	}
	systems, err := system.NewRegistry(cfg.Systems...)
	if err != nil {
		return nil, fmt.Errorf("games: %w", err)
	}
	key, err := installationKey(cfg.Store)
	if err != nil {
		return nil, err
	}
	secret, err := installationSecret(cfg.Store)
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, key: key, secret: secret, limiter: pbem.NewLimiter(cfg.PerHour, cfg.AnswersPerHour), log: cfg.Logger,
		systems: systems, battles: map[string]system.Battle{}, wake: make(chan struct{}, 1)}
	s.early.compose = s.composeRecord
	return s, nil
}

// installationKey loads the Ed25519 key that signs every game's dice log,
// or makes and stores one.
func installationKey(st *store.Store) (*dice.Key, error) {
	var key *dice.Key
	err := st.Update(func(tx *store.Tx) error {
		if pem := tx.Meta(metaKey); pem != nil {
			k, err := dice.ParseKey(pem)
			key = k
			return err
		}
		k, err := dice.GenerateKey()
		if err != nil {
			return err
		}
		pem, err := k.MarshalPEM()
		if err != nil {
			return err
		}
		key = k
		return tx.PutMeta(metaKey, pem)
	})
	if err != nil {
		return nil, fmt.Errorf("games: installation key: %w", err)
	}
	return key, nil
}

// PublicKey is the installation's public key, which checks every game's
// dice log signatures.
func (s *Service) PublicKey() dice.PublicKey { return s.key.Public() }

// Address is Herald's own address.
func (s *Service) Address() string { return s.cfg.Address }

// scenario loads a battle once; scenarios never change while running.
func (s *Service) scenario(id string) (*engine.Scenario, error) {
	b, err := s.battle(id)
	if err != nil {
		return nil, err
	}
	if sc := iron(b); sc != nil {
		return sc, nil
	}
	return nil, fmt.Errorf("games: %s is not a Men of Iron battle", id)
}

// gameAddress is the plus-address Herald writes from about a game.
func (s *Service) gameAddress(id string) string {
	local, host, _ := strings.Cut(s.cfg.Address, "@")
	return local + "+" + id + "@" + host
}

// host is the domain of Herald's address, for Message-IDs.
func (s *Service) host() string {
	_, host, _ := strings.Cut(s.cfg.Address, "@")
	return host
}
