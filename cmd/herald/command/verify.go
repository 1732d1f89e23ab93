package command

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"herald/pbem/dice"
	"herald/pbem/games"
)

func init() {
	register(&Command{
		Name:  "verify",
		Usage: "[--checkpoint LEN:HEAD[:SIG] …] [--key PUBLIC-KEY] EXPORT.jsonl",
		Short: "verify a game's dice log and replay it through the rules",
		Long: `
Verify checks a game's export (docs/dice.md): every seed against its
commitment, every roll's value, the hash chain and its signatures, the chain
against checkpoints copied from your mails, and finally replays every order
block with its logged rolls through the rules engine, checking that it gives
exactly the recorded events and state. It exits 0 with a summary when all
holds, and 1 naming the first entry that fails and why.`,
		Flags: func(fs *flag.FlagSet) {
			fs.Var(&checkpointFlag{}, "checkpoint", "a chain checkpoint LEN:HEAD[:SIG] from a mail; may repeat")
			fs.String("key", "", "the installation's public key from the game's first mail (hex)")
		},
		Run: runVerify,
	})
}

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
	if fs.NArg() != 1 {
		fmt.Fprintln(env.Stderr, "herald verify: want one export file")
		return 2
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return fail(env, "verify", err)
	}
	defer f.Close()
	opts := dice.Options{Replayer: games.Replayer{}, Checkpoints: fs.Lookup("checkpoint").Value.(*checkpointFlag).list}
	if k := fs.Lookup("key").Value.String(); k != "" {
		pub, err := dice.ParsePublicKey(k)
		if err != nil {
			return fail(env, "verify", err)
		}
		opts.PublicKey = &pub
	}
	rep, err := dice.Verify(f, opts)
	if rep != nil {
		fmt.Fprintln(env.Stdout, rep.String())
	}
	if err != nil {
		var failure *dice.Failure
		if errors.As(err, &failure) {
			fmt.Fprintf(env.Stdout, "FAILED: %v\n", failure)
			return 1
		}
		return fail(env, "verify", err)
	}
	return 0
}
