package command

import (
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"herald/data"
	"herald/engine"
	"herald/pbem/dice"
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
	opts := dice.Options{Replayer: engineReplayer{}, Checkpoints: fs.Lookup("checkpoint").Value.(*checkpointFlag).list}
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

// engineReplayer re-applies a game's order blocks through the engine with
// the logged rolls, and digests what they produce the way the recording
// side does (Digests).
type engineReplayer struct{}

func (engineReplayer) Replay(h dice.Header, blocks []dice.AppliedBlock, rolls dice.RollSource) ([]dice.Digest, error) {
	sc, err := data.Scenario(h.Scenario)
	if err != nil {
		return nil, err
	}
	st := engine.NewState(sc)
	var out []dice.Digest
	for i, b := range blocks {
		side, ok := sc.SideByName(b.Side)
		if !ok {
			return out, fmt.Errorf("block %d: no side %q in %s", i, b.Side, sc.ID)
		}
		orders, err := engine.ParseOrders(engine.SplitLines(strings.TrimSuffix(b.Orders, "\n")))
		if err != nil {
			return out, fmt.Errorf("block %d: %w", i, err)
		}
		res, err := engine.Apply(sc, st, side, orders, rolls.Dice(i))
		if err != nil {
			return out, fmt.Errorf("block %d: %w", i, err)
		}
		d, err := Digests(res)
		if err != nil {
			return out, err
		}
		out = append(out, d)
		st = res.State
	}
	return out, nil
}

// Digests are the hashes of a block's events and resulting state that the
// dice log records for it.
func Digests(res *engine.BlockResult) (dice.Digest, error) {
	var evs [][]byte
	for _, e := range res.Events {
		b, err := engine.MarshalEvent(e)
		if err != nil {
			return dice.Digest{}, err
		}
		evs = append(evs, b)
	}
	return dice.Digest{EventsSHA256: dice.EventsSHA256(evs), StateSHA256: sha256.Sum256(res.State.Encode())}, nil
}
