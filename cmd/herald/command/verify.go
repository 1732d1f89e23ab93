package command

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"herald/pbem/dice"
	"herald/pbem/games"
)

func init() {
	register(&Command{
		Name:  "verify",
		Usage: "[--checkpoint LEN:HEAD[:SIG] …] [--key PUBLIC-KEY] [--no-replay] (EXPORT.jsonl | --store FILE --game ID | --config FILE --game ID | --mail FILE.eml …)",
		Short: "verify a game's dice log and replay it through the rules",
		Long: `
Verify checks a game's export (docs/dice.md): every seed against its
commitment, every roll's value, the hash chain and its signatures, the chain
against checkpoints copied from your mails, and finally replays every order
block with its logged rolls through the rules engine, checking that it gives
exactly the recorded events and state. It exits 0 with a summary when all
holds, and 1 naming the first entry that fails and why. --no-replay
checks everything but the replay, as tools/verify-dice.py does.

The export is a file written by herald game export, or - for standard input.
With --game, verify reads the game straight from Herald's store instead (the
file given by --store, or the store of --config), exports it in memory and
checks the export exactly as it would check the file, and checks that its
header names the store's installation key unless --key gives one. The store
is a single-process database (bbolt) that herald serve holds open: stop
herald serve first, or export the game and verify the file.

With --mail, verify checks the dice records of saved mails instead
(docs/dice.md, "The record in every mail"): each mail's checkpoint
signature, its seed against the commitment, the orders shown against
their hash and every roll; and, given several mails of a game, that each
follows the one before it with nothing in between (--mail A.eml B.eml …
takes every .eml file named). It needs nothing but the mails: check each
result the moment it arrives. Given an export (or --game) too, verify then
checks it against the checkpoints of those mails.`,
		Flags: func(fs *flag.FlagSet) {
			fs.Var(&checkpointFlag{}, "checkpoint", "a chain checkpoint LEN:HEAD[:SIG] from a mail; may repeat")
			fs.String("key", "", "the installation's public key from the game's first mail (hex)")
			fs.Bool("no-replay", false, "skip the engine replay (for logs whose digests are not the engine's, like docs/dice.md's example)")
			fs.String("config", "", "with --game: configuration file (YAML) naming the store")
			fs.String("store", "", "with --game: store file, instead of --config")
			fs.String("game", "", "verify this game of the store instead of an export file")
			fs.Var(&mailFlag{}, "mail", "a saved mail (.eml) whose dice record to check; may repeat")
		},
		Run: runVerify,
	})
}

type mailFlag struct{ list []string }

func (m *mailFlag) String() string     { return strings.Join(m.list, ",") }
func (m *mailFlag) Set(s string) error { m.list = append(m.list, s); return nil }

type checkpointFlag struct{ list []dice.Checkpoint }

func (c *checkpointFlag) String() string { return fmt.Sprint(c.list) }
func (c *checkpointFlag) Set(s string) error {
	cp, err := dice.ParseCheckpoint(s)
	if err != nil {
		return err
	}
	c.list = append(c.list, cp)
	return nil
}

func runVerify(env Env, fs *flag.FlagSet) int {
	get := func(name string) string { return fs.Lookup(name).Value.String() }
	opts := dice.Options{Replayer: games.Replayer{}, Checkpoints: fs.Lookup("checkpoint").Value.(*checkpointFlag).list}
	noReplay := get("no-replay") == "true"
	if noReplay {
		opts.Replayer = nil
	}
	if k := get("key"); k != "" {
		pub, err := dice.ParsePublicKey(k)
		if err != nil {
			return fail(env, "verify", err)
		}
		opts.PublicKey = &pub
	}
	args := fs.Args()
	if mails := fs.Lookup("mail").Value.(*mailFlag).list; len(mails) > 0 {
		var exports []string
		for _, a := range args { // --mail a.eml b.eml … [EXPORT]
			if strings.HasSuffix(strings.ToLower(a), ".eml") {
				mails = append(mails, a)
			} else {
				exports = append(exports, a)
			}
		}
		recs, code := verifyMails(env, mails, opts.PublicKey)
		if code != 0 || len(exports) == 0 && get("game") == "" {
			return code
		}
		for _, r := range recs { // the export must pass through every mail's checkpoint
			opts.Checkpoints = append(opts.Checkpoints, r.rec.Checkpoint)
		}
		args = exports
	}
	var export io.Reader
	switch game, fromStore := get("game"), get("store") != "" || get("config") != ""; {
	case game == "" && !fromStore && len(args) == 1:
		r, closeFile, err := openExport(env, args[0])
		if err != nil {
			return fail(env, "verify", err)
		}
		defer closeFile()
		export = r
	case game != "" && fromStore && len(args) == 0:
		b, pub, err := exportFromStore(get("config"), get("store"), game)
		if err != nil {
			return fail(env, "verify", err)
		}
		if opts.PublicKey == nil {
			opts.PublicKey = &pub
		}
		export = bytes.NewReader(b)
	default:
		fmt.Fprintln(env.Stderr, "herald verify: want one export file, or --game ID with --store or --config")
		return 2
	}
	rep, err := dice.Verify(export, opts)
	var failure *dice.Failure
	if err != nil && !errors.As(err, &failure) {
		return fail(env, "verify", err)
	}
	fmt.Fprint(env.Stdout, rep.String()) // names the failing entry, if any
	if failure != nil {
		return 1
	}
	if noReplay {
		fmt.Fprintln(env.Stdout, "engine replay: not run (--no-replay)")
	}
	return 0
}

// openExport opens an export file, or standard input for "-".
func openExport(env Env, path string) (io.Reader, func(), error) {
	if path == "-" && env.Stdin != nil {
		return env.Stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// exportFromStore exports a game of a store into memory, as herald game
// export would, and returns it with the installation's public key. The
// store is closed before the (longer) verification starts.
func exportFromStore(config, path, game string) ([]byte, dice.PublicKey, error) {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return nil, dice.PublicKey{}, err // opening would create an empty store
		}
	}
	svc, closeStore, err := openStore(config, path, "herald@localhost")
	if err != nil {
		return nil, dice.PublicKey{}, err
	}
	defer closeStore()
	var buf bytes.Buffer
	if err := svc.Export(game, &buf); err != nil {
		return nil, dice.PublicKey{}, err
	}
	return buf.Bytes(), svc.PublicKey(), nil
}
