// Package web is Herald's status page (docs/web.md): a read-only web site
// that herald serve runs when its configuration has a web section. It
// shows the ladders and games of the store, each ladder's standings and
// games, and each game's current map, public event log, whose move it is,
// its clock and its dice audit, with a button that verifies the game's
// dice log on the server as herald verify does (or an export uploaded to
// it, such as a copy a player suspects was changed).
//
// Everything is plain HTML from html/template, escaped everywhere, with
// one style sheet and no script. Nothing private to a side is shown: the
// map is the public position, the log leaves out every event
// engine.PrivateTo gives an owner, and neither keys nor order texts are
// printed.
package web

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"herald/pbem/dice"
	"herald/pbem/games"
	"herald/pbem/ladder"
	"herald/pbem/store"
	"herald/pbem/system"
)

// Source is what the pages read of the store's games; *games.Service is
// one.
type Source interface {
	// Games describes every game, by id.
	Games() ([]*games.Summary, error)
	// Summary describes one game; an unknown game's error wraps
	// store.ErrNotFound.
	Summary(id string) (*games.Summary, error)
	// Export writes a game's dice log as herald verify reads it.
	Export(id string, w io.Writer) error
	// Picture is the game's current map as a PNG.
	Picture(id string) ([]byte, error)
	// PublicLog is the game's narrated events, without private ones.
	PublicLog(id string) ([]string, error)
	// PublicKey is the installation's key, which every game's dice log
	// must be signed with.
	PublicKey() dice.PublicKey
}

// LadderSource is what the pages read of the store's ladders. An unknown
// ladder's error wraps store.ErrNotFound.
type LadderSource interface {
	Ladders() ([]*ladder.Ladder, error)
	Ladder(id string) (*ladder.Ladder, error)
}

// Config configures a Server.
type Config struct {
	Source Source
	// Ladders, when set, adds the ladders' pages and the clocks of the
	// ladders' games.
	Ladders LadderSource
	// Systems are the game systems the verify button replays games
	// through (default games.DefaultSystems, as herald verify).
	Systems []system.System
	// MaxUpload bounds an export uploaded for verification (default 32
	// MiB).
	MaxUpload int64
	// Verifiers bounds the verifications run at once (default 2): each
	// replays a whole game.
	Verifiers int
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// Server serves the status pages.
type Server struct {
	cfg  Config
	mux  *http.ServeMux
	sem  chan struct{}
	log  *slog.Logger
	tmpl *pages
}

// New makes a Server.
func New(cfg Config) (*Server, error) {
	if cfg.Source == nil {
		return nil, errors.New("web: no source of games")
	}
	if cfg.MaxUpload <= 0 {
		cfg.MaxUpload = 32 << 20
	}
	if cfg.Verifiers <= 0 {
		cfg.Verifiers = 2
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	t, err := parsePages()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), sem: make(chan struct{}, cfg.Verifiers), log: cfg.Logger, tmpl: t}
	s.mux.HandleFunc("GET /{$}", s.index)
	s.mux.HandleFunc("GET /style.css", s.style)
	s.mux.HandleFunc("GET /ladder/{id}", s.ladder)
	s.mux.HandleFunc("GET /game/{id}", s.game)
	s.mux.HandleFunc("GET /game/{id}/map.png", s.picture)
	s.mux.HandleFunc("POST /game/{id}/verify", s.verify)
	return s, nil
}

// ServeHTTP serves a request with the headers every page carries: no
// script, no frame, nothing from elsewhere.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	s.mux.ServeHTTP(w, r)
}

// CheckListen checks a listen address: host:port, with the host a
// loopback address or "localhost" unless public allows any. An empty
// host listens on every interface, which is public.
func CheckListen(addr string, public bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("web.listen %q: want host:port, such as 127.0.0.1:8080: %w", addr, err)
	}
	if port == "" {
		return fmt.Errorf("web.listen %q: no port", addr)
	}
	if public {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("web.listen %q is not a loopback address: the status page is for this machine unless the configuration says web.public: true", addr)
}

// notFound tells an error that names nothing in the store.
func notFound(err error) bool { return errors.Is(err, store.ErrNotFound) }
