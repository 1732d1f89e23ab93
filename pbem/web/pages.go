package web

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strings"
	"time"

	"herald/pbem/dice"
	"herald/pbem/games"
	"herald/pbem/ladder"
	"herald/pbem/store"
)

//go:embed templates/*.html templates/style.css
var files embed.FS

// pages are the parsed templates, one per page, each with the layout.
type pages struct {
	byName map[string]*template.Template
	style  []byte
}

func parsePages() (*pages, error) {
	p := &pages{byName: map[string]*template.Template{}}
	funcs := template.FuncMap{"duration": duration, "rating": func(f float64) string { return fmt.Sprintf("%.0f", f) },
		"signed": func(f float64) string { return fmt.Sprintf("%+.0f", f) }, "when": when, "outcome": outcome}
	for _, name := range []string{"index", "ladder", "game", "verify", "error"} {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: templates: %w", err)
		}
		p.byName[name] = t
	}
	var err error
	if p.style, err = files.ReadFile("templates/style.css"); err != nil {
		return nil, err
	}
	return p, nil
}

// render writes a page, or a 500 if the template fails (before a byte of
// the page has left).
func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := s.tmpl.byName[name].Execute(&buf, data); err != nil {
		s.log.Error("web: render", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

type errorPage struct {
	Title, Message string
}

// fail answers with a page saying what went wrong: 404 for what the
// store does not hold, 500 (logged, not shown) for anything else.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, what string, err error) {
	if notFound(err) {
		s.render(w, http.StatusNotFound, "error", errorPage{Title: "Not found", Message: what + " is not in this Herald's store."})
		return
	}
	s.log.Error("web: page", "path", r.URL.Path, "err", err)
	s.render(w, http.StatusInternalServerError, "error", errorPage{Title: "Error", Message: "Herald could not read " + what + "; the error is in its log."})
}

func (s *Server) style(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("Cache-Control", "max-age=300")
	w.Write(s.tmpl.style)
}

// gameRow is a game in a list.
type gameRow struct {
	*games.Summary
	Ladder string
}

type indexPage struct {
	Ladders   []*ladder.Ladder
	LaddersOn bool
	Games     []gameRow
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	list, err := s.cfg.Source.Games()
	if err != nil {
		s.fail(w, r, "the games", err)
		return
	}
	p := indexPage{LaddersOn: s.cfg.Ladders != nil}
	ladders, err := s.ladders()
	if err != nil {
		s.fail(w, r, "the ladders", err)
		return
	}
	p.Ladders = ladders
	for _, g := range list {
		row := gameRow{Summary: g}
		if l, _ := ladderOf(ladders, g.ID); l != nil {
			row.Ladder = l.ID
		}
		p.Games = append(p.Games, row)
	}
	s.render(w, http.StatusOK, "index", p)
}

// ladders are every ladder, or none without a LadderSource.
func (s *Server) ladders() ([]*ladder.Ladder, error) {
	if s.cfg.Ladders == nil {
		return nil, nil
	}
	return s.cfg.Ladders.Ladders()
}

// ladderOf finds the ladder a game is played in.
func ladderOf(ladders []*ladder.Ladder, game string) (*ladder.Ladder, *ladder.Game) {
	for _, l := range ladders {
		if g, err := l.Game(game); err == nil {
			return l, g
		}
	}
	return nil, nil
}

type ladderPage struct {
	L         *ladder.Ladder
	Standings []ladder.Standing
	Games     []ladderGame
}

// ladderGame is a game of a ladder with how it stands in the store.
type ladderGame struct {
	ladder.Game
	InStore bool
	Waiting string
	Clock   *clockView
}

func (s *Server) ladder(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if s.cfg.Ladders == nil {
		s.fail(w, r, fmt.Sprintf("Ladder %q", id), fmt.Errorf("web: no ladders configured: %w", store.ErrNotFound))
		return
	}
	l, err := s.cfg.Ladders.Ladder(id)
	if err != nil {
		s.fail(w, r, fmt.Sprintf("Ladder %q", id), err)
		return
	}
	p := ladderPage{L: l, Standings: l.Standings()}
	now := s.cfg.Now()
	for i := len(l.Games) - 1; i >= 0; i-- { // the newest first
		g := l.Games[i]
		row := ladderGame{Game: g, Clock: clockOf(&g, now)}
		if sum, err := s.cfg.Source.Summary(g.ID); err == nil {
			row.InStore, row.Waiting = true, sum.Waiting
		} else if !notFound(err) {
			s.fail(w, r, fmt.Sprintf("Game %q", g.ID), err)
			return
		}
		p.Games = append(p.Games, row)
	}
	s.render(w, http.StatusOK, "ladder", p)
}

// clockView is a ladder game's clock for people.
type clockView struct {
	Seats [2]clockSeat
	// Control is the time control in words.
	Control string
}

type clockSeat struct {
	Side, Address string
	Left          string // as of his last move
	Running       bool
	// Now is the time left now, Herald's downtime not given back yet.
	Now   string
	Since time.Time
}

func clockOf(g *ladder.Game, now time.Time) *clockView {
	c := g.Clock
	if c == nil {
		return nil
	}
	v := &clockView{Control: fmt.Sprintf("%s to start, %s more with each move, at most %s; at zero: %s",
		duration(c.Control.Initial), duration(c.Control.Increment), duration(c.Control.Cap), c.Control.OnTimeout)}
	for i := range v.Seats {
		v.Seats[i] = clockSeat{Side: g.Seats[i].Side, Address: g.Seats[i].Address, Left: duration(c.Left[i])}
		if c.ToMove == i && g.Status == ladder.Playing {
			v.Seats[i].Running = true
			v.Seats[i].Left = duration(c.LeftAtAsk)
			v.Seats[i].Now = duration(max(c.LeftAt(now, nil), 0))
			v.Seats[i].Since = c.AskedAt
		}
	}
	return v
}

type gamePage struct {
	S      *games.Summary
	Ladder *ladder.Ladder
	LGame  *ladder.Game
	Clock  *clockView
	// Log is the public event log, the newest line first.
	Log   []logLine
	Audit *dice.Report
	// AuditError is why the log could not be read for the audit.
	AuditError string
	Tally      tallyView
}

// logLine is a line of the event log and its number from the first.
type logLine struct {
	N    int
	Text string
}

// tallyView is the dice report of the mails.
type tallyView struct {
	N          uint64
	Counts     []uint64
	ChiSquare  string
	P          string
	Verdict    string
	HasRolls   bool
	FaceHeader []int
}

func tallyOf(t dice.Tally) tallyView {
	v := tallyView{N: t.N, HasRolls: t.N > 0, Counts: t.Counts[:]}
	for f := range t.Counts {
		v.FaceHeader = append(v.FaceHeader, f)
	}
	if t.N > 0 {
		v.ChiSquare, v.P, v.Verdict = fmt.Sprintf("%.2f", t.ChiSquare()), fmt.Sprintf("%.3f", t.P()), t.Interpretation()
	}
	return v
}

func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	what := fmt.Sprintf("Game %q", id)
	sum, err := s.cfg.Source.Summary(id)
	if err != nil {
		s.fail(w, r, what, err)
		return
	}
	p := gamePage{S: sum, Tally: tallyOf(sum.Dice)}
	lines, err := s.cfg.Source.PublicLog(id)
	if err != nil {
		s.fail(w, r, what, err)
		return
	}
	for i := len(lines) - 1; i >= 0; i-- {
		p.Log = append(p.Log, logLine{N: i + 1, Text: lines[i]})
	}
	ladders, err := s.ladders()
	if err != nil {
		s.fail(w, r, "the ladders", err)
		return
	}
	if p.Ladder, p.LGame = ladderOf(ladders, id); p.LGame != nil {
		p.Clock = clockOf(p.LGame, s.cfg.Now())
	}
	// The audit's summary checks the chain, the signatures, the seeds and
	// the rolls; the replay through the rules waits for the button.
	var buf bytes.Buffer
	if err := s.cfg.Source.Export(id, &buf); err != nil {
		s.fail(w, r, what, err)
		return
	}
	pub := s.cfg.Source.PublicKey()
	rep, err := dice.Verify(&buf, dice.Options{PublicKey: &pub})
	var failure *dice.Failure
	if err != nil && !errors.As(err, &failure) {
		p.AuditError = err.Error()
	}
	p.Audit = rep
	s.render(w, http.StatusOK, "game", p)
}

func (s *Server) picture(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	png, err := s.cfg.Source.Picture(id)
	if err != nil {
		if notFound(err) {
			http.Error(w, "no such game", http.StatusNotFound)
			return
		}
		s.log.Error("web: map", "game", id, "err", err)
		http.Error(w, "the map could not be drawn", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(png)
}

type verifyPage struct {
	ID string
	// From says what was verified: the store's log or the file uploaded.
	From   string
	Upload bool
	Report *dice.Report
	// Text is the report as herald verify prints it.
	Text    string
	OK      bool
	Where   string
	Reason  string
	Problem string // an export that could not be read, or of another game
}

// verify runs herald verify's checks on the game's log, or on the export
// uploaded in the form field "export": the chain, the signatures against
// the installation's key, the seeds, the rolls, and the replay of every
// block through the rules.
func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	what := fmt.Sprintf("Game %q", id)
	if _, err := s.cfg.Source.Summary(id); err != nil {
		s.fail(w, r, what, err)
		return
	}
	p := verifyPage{ID: id, From: "the dice log in Herald's store"}
	var export io.Reader
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxUpload+1<<20)
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			status, msg := http.StatusBadRequest, "The upload could not be read: "+err.Error()
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				status, msg = http.StatusRequestEntityTooLarge, fmt.Sprintf("The upload is larger than this Herald verifies (exports of at most %d bytes).", s.cfg.MaxUpload)
			}
			s.render(w, status, "error", errorPage{Title: "Bad upload", Message: msg})
			return
		}
		defer r.MultipartForm.RemoveAll()
		if f, fh, err := r.FormFile("export"); err == nil {
			defer f.Close()
			if fh.Size > s.cfg.MaxUpload {
				s.render(w, http.StatusRequestEntityTooLarge, "error", errorPage{Title: "Export too large",
					Message: fmt.Sprintf("The uploaded export %q has %d bytes; this Herald verifies exports of at most %d bytes.", fh.Filename, fh.Size, s.cfg.MaxUpload)})
				return
			}
			if fh.Size > 0 {
				export, p.Upload = f, true
				p.From = fmt.Sprintf("the uploaded file %q (%d bytes)", fh.Filename, fh.Size)
			}
		} else if !errors.Is(err, http.ErrMissingFile) {
			s.render(w, http.StatusBadRequest, "error", errorPage{Title: "Bad upload", Message: "The uploaded export could not be read: " + err.Error()})
			return
		}
	}
	if export == nil {
		var buf bytes.Buffer
		if err := s.cfg.Source.Export(id, &buf); err != nil {
			s.fail(w, r, what, err)
			return
		}
		export = &buf
	}
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-r.Context().Done():
		return
	}
	pub := s.cfg.Source.PublicKey()
	rep, err := dice.Verify(export, dice.Options{PublicKey: &pub, Replayer: games.Replayer{Systems: s.cfg.Systems}})
	p.Report, p.Text = rep, rep.String()
	var failure *dice.Failure
	switch {
	case errors.As(err, &failure):
		p.Where, p.Reason = failure.Where(), failure.Reason
	case err != nil:
		p.Problem = "The export could not be read: " + err.Error()
	case rep.Game != id:
		p.Problem = fmt.Sprintf("The export verifies, but it is the log of game %q, not of %q.", rep.Game, id)
	default:
		p.OK = true
	}
	s.log.Info("web: verify", "game", id, "upload", p.Upload, "ok", p.OK)
	s.render(w, http.StatusOK, "verify", p)
}

// duration is a clock's time in days, hours and minutes.
func duration(d time.Duration) string {
	if d <= 0 {
		return "0m"
	}
	d = d.Round(time.Minute)
	days, d := d/(24*time.Hour), d%(24*time.Hour)
	h, m := d/time.Hour, (d%time.Hour)/time.Minute
	var parts []string
	if days > 0 {
		parts = append(parts, fmt.Sprintf("%dd", days))
	}
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%dh", h))
	}
	if m > 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%dm", m))
	}
	return strings.Join(parts, " ")
}

// when is a time for people, in UTC.
func when(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2 Jan 2006 15:04 UTC")
}

// outcome is a finished ladder game's result in words.
func outcome(r *ladder.Result) string {
	var s string
	switch r.Outcome {
	case ladder.Won:
		s = r.Winner + " won"
	case ladder.Drawn:
		s = "drawn"
	case ladder.Forfeited:
		s = r.Winner + " won on time"
	case ladder.Adjudicated:
		s = "adjudicated: " + r.Winner + " won"
		if r.Winner == "" {
			s = "adjudicated a draw"
		}
	case ladder.Abandoned:
		s = "abandoned, no result"
	default:
		s = string(r.Outcome)
	}
	if !r.At.IsZero() {
		s += ", " + r.At.UTC().Format("2 Jan 2006")
	}
	return s
}
