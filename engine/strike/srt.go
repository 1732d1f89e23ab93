package strike

import "fmt"

// Lookup reads the Strike Results Table (Strike Results Table (SRT): "Find
// the unit type being attacked and follow down and find the number of
// stands in the target unit. Move to the right and match up with the
// number of strikes"). No strikes is no result, with no lookup. Stands or
// strikes beyond the table's last row or column use that row or column
// (R516).
func Lookup(t *Tables, target *Unit, strikes int) (Result, error) {
	if strikes <= 0 {
		return Result{}, nil
	}
	srt, ok := t.SRT[target.Type.SRTClass]
	if !ok {
		return Result{}, fmt.Errorf("no Strike Results Table %q for %s", target.Type.SRTClass, target.Type.ID)
	}
	row := srt.Rows[clamp(target.Stands, 1, len(srt.Rows))-1]
	return row[clamp(strikes, 1, len(row))-1], nil
}

// Crossbow applies NOTES: "Crossbows increase the NE results on the Strike
// Results Table (SRT) table to 1 figure casualty. All other results are
// unchanged." It applies only to strikes scored (R517): a volley with no
// strike has no result to increase.
func Crossbow(r Result, strikes int) Result {
	if strikes > 0 && r.NE() {
		return Result{Figures: 1}
	}
	return r
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
