package command

import (
	"errors"
	"flag"
	"fmt"

	"herald/data"
)

func init() {
	register(&Command{
		Name:  "check",
		Usage: "[FILE.yaml …]",
		Short: "validate the embedded tables and battles, or scenario files",
		Long: `
Check loads and validates data without playing: with no arguments, every
table and battle embedded in Herald (Men of Iron's and the D20 strike
system's); otherwise the scenario files given. Each
problem is printed as file:line: field: what is wrong.`,
		Run: func(env Env, fs *flag.FlagSet) int {
			var errs []error
			if fs.NArg() == 0 {
				if err := data.Check(); err != nil {
					errs = append(errs, err)
				} else {
					fmt.Fprintf(env.Stdout, "ok: %d battles: %v\n", len(data.Scenarios()), data.Scenarios())
				}
				if err := checkStrike(env); err != nil {
					errs = append(errs, err)
				}
			}
			for _, f := range fs.Args() {
				if _, err := data.Scenario(f); err != nil {
					errs = append(errs, err)
				} else {
					fmt.Fprintf(env.Stdout, "ok: %s\n", f)
				}
			}
			if err := errors.Join(errs...); err != nil {
				fmt.Fprintln(env.Stderr, err)
				return 1
			}
			return 0
		},
	})
}

// checkStrike loads the D20 strike system's tables and battles
// (docs/strike.md).
func checkStrike(env Env) error {
	if _, err := data.StrikeTables(); err != nil {
		return err
	}
	var errs []error
	for _, id := range data.StrikeBattles() {
		if _, err := data.StrikeBattle(id); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "ok: the strike system's tables; battles: %v\n", data.StrikeBattles())
	return nil
}
