package command

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"herald/pbem/mailbox"
	"herald/pbem/web"
)

// Config is herald serve's configuration file (config.example.yaml shows
// and explains every option).
type Config struct {
	// Address is Herald's mail address; players write to it.
	Address string `yaml:"address"`
	Name    string `yaml:"name"`
	// Store is the bbolt database file.
	Store      string   `yaml:"store"`
	Organizers []string `yaml:"organizers"`
	IMAP       IMAPConfig
	SMTP       SMTPConfig
	Limits     struct {
		MaxMailBytes   int64 `yaml:"max_mail_bytes"`
		PerHour        int   `yaml:"mails_per_hour"`
		AnswersPerHour int   `yaml:"answers_per_hour"`
	}
	// Map attaches a PNG of the battlefield to result mails.
	Map *bool `yaml:"map"`
	// Web, when present, serves the read-only status page (docs/web.md).
	Web *WebConfig `yaml:"web"`
	Log struct {
		Level  string `yaml:"level"`  // debug, info, warn, error
		Format string `yaml:"format"` // text or json
	}
}

// IMAPConfig is where Herald reads its mail.
type IMAPConfig struct {
	Addr         string           `yaml:"addr"`
	Security     mailbox.Security `yaml:"security"`
	Username     string           `yaml:"username"`
	Password     string           `yaml:"password"`
	PasswordFile string           `yaml:"password_file"`
	Mailbox      string           `yaml:"mailbox"`
	Processed    string           `yaml:"processed"`
	Rejected     string           `yaml:"rejected"`
	Poll         time.Duration    `yaml:"poll"`
	Idle         string           `yaml:"idle"`
}

// SMTPConfig is where Herald sends its mail.
type SMTPConfig struct {
	Addr         string           `yaml:"addr"`
	Security     mailbox.Security `yaml:"security"`
	Username     string           `yaml:"username"`
	Password     string           `yaml:"password"`
	PasswordFile string           `yaml:"password_file"`
	HELO         string           `yaml:"helo"`
}

// WebConfig is the status page's section: where it listens. It listens
// on loopback (default 127.0.0.1:8080) unless Public allows any address.
type WebConfig struct {
	Listen string `yaml:"listen"`
	Public bool   `yaml:"public"`
}

// LoadConfig reads and checks a configuration file. Unknown keys are
// errors, so that a misspelt option is not silently ignored.
func LoadConfig(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := c.resolve(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &c, nil
}

// resolve checks the configuration, reads password files and makes paths
// relative to the configuration file's directory.
func (c *Config) resolve(dir string) error {
	var errs []error
	need := func(v, name string) {
		if strings.TrimSpace(v) == "" {
			errs = append(errs, fmt.Errorf("%s is required", name))
		}
	}
	need(c.Address, "address")
	need(c.Store, "store")
	need(c.IMAP.Addr, "imap.addr")
	need(c.IMAP.Username, "imap.username")
	need(c.SMTP.Addr, "smtp.addr")
	if c.Store != "" && !filepath.IsAbs(c.Store) {
		c.Store = filepath.Join(dir, c.Store)
	}
	for _, p := range []struct {
		file string
		dst  *string
	}{{c.IMAP.PasswordFile, &c.IMAP.Password}, {c.SMTP.PasswordFile, &c.SMTP.Password}} {
		if p.file == "" {
			continue
		}
		if !filepath.IsAbs(p.file) {
			p.file = filepath.Join(dir, p.file)
		}
		b, err := os.ReadFile(p.file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		*p.dst = strings.TrimRight(string(b), "\r\n")
	}
	if c.Web != nil {
		if c.Web.Listen == "" {
			c.Web.Listen = "127.0.0.1:8080"
		}
		if err := web.CheckListen(c.Web.Listen, c.Web.Public); err != nil {
			errs = append(errs, err)
		}
	}
	if _, err := logLevel(c.Log.Level); err != nil {
		errs = append(errs, err)
	}
	if f := c.Log.Format; f != "" && f != "text" && f != "json" {
		errs = append(errs, fmt.Errorf("log.format %q: want text or json", f))
	}
	return errors.Join(errs...)
}

func logLevel(s string) (slog.Level, error) {
	var l slog.Level
	if s == "" {
		return slog.LevelInfo, nil
	}
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return l, fmt.Errorf("log.level %q: want debug, info, warn or error", s)
	}
	return l, nil
}

// logger builds the structured logger the configuration asks for.
func (c *Config) logger(w *os.File) *slog.Logger {
	level, _ := logLevel(c.Log.Level)
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// mapEnabled: maps are on unless switched off.
func (c *Config) mapEnabled() bool { return c.Map == nil || *c.Map }
