package dice

import (
	"fmt"
	"math"
	"strings"
)

// Tally counts the faces of a game's rolls and judges whether they look
// like a fair d10, with Pearson's chi-square test (9 degrees of freedom).
type Tally struct {
	Counts [10]uint64 `json:"counts"` // Counts[f] is how often face f came up
	N      uint64     `json:"n"`      // rolls counted
}

// Add counts one roll; values outside 0–9 are ignored.
func (t *Tally) Add(v int) {
	if v >= 0 && v <= 9 {
		t.Counts[v]++
		t.N++
	}
}

// TallyOf counts the d10s among rolls (a die of other faces is no part
// of a d10's report).
func TallyOf(rolls []Roll) Tally {
	var t Tally
	for _, r := range rolls {
		if facesOf(r.Faces) == d10 {
			t.Add(r.Value)
		}
	}
	return t
}

// ChiSquare is Σ (count − N/10)² / (N/10) over the ten faces; 0 for no
// rolls.
func (t Tally) ChiSquare() float64 {
	if t.N == 0 {
		return 0
	}
	e := float64(t.N) / 10
	var x float64
	for _, c := range t.Counts {
		d := float64(c) - e
		x += d * d / e
	}
	return x
}

// P is the probability that a fair die gives a chi-square at least as
// large as t's: the chance of dice at least this uneven.
func (t Tally) P() float64 { return chiSquareSurvival9(t.ChiSquare()) }

// chiSquareSurvival9 is P(X ≥ x) for X chi-square with 9 degrees of
// freedom. For odd ν (Abramowitz & Stegun 26.4.4), with χ = √x:
//
//	Q(x|ν) = 2Q(χ) + 2φ(χ) Σ_{r=1}^{(ν−1)/2} χ^{2r−1} / (1·3·5···(2r−1))
//
// where Q is the upper tail of the standard normal and φ its density.
func chiSquareSurvival9(x float64) float64 {
	if x <= 0 || math.IsNaN(x) {
		return 1
	}
	chi := math.Sqrt(x)
	q := math.Erfc(chi/math.Sqrt2) / 2
	phi := math.Exp(-x/2) / math.Sqrt(2*math.Pi)
	var sum, term float64
	term = 1 / chi // χ^{2r−1}/(1·3···(2r−1)) at r = 0, times χ² per step
	for r := 1; r <= 4; r++ {
		term *= x / float64(2*r-1)
		sum += term
	}
	p := 2*q + 2*phi*sum
	return math.Max(0, math.Min(1, p))
}

// Interpretation says in plain words what the test shows.
func (t Tally) Interpretation() string {
	if t.N < 50 {
		return fmt.Sprintf("Only %d rolls: too few to judge the dice. Each face is expected %.1f times; the test needs at least 5 (50 rolls).", t.N, float64(t.N)/10)
	}
	p := t.P()
	switch {
	case p < 0.001:
		return "Very uneven: a fair die spreads its faces this unevenly in fewer than 1 game in 1000. Worth a closer look, though among many games some will do it by chance."
	case p < 0.05:
		return fmt.Sprintf("Somewhat uneven: a fair die spreads its faces at least this unevenly in about %.0f games in 100. Not evidence of anything on its own.", 100*p)
	case p > 0.999:
		return "Unusually even: a fair die spreads its faces this evenly in fewer than 1 game in 1000. Not a sign of bias, but odd."
	default:
		return fmt.Sprintf("Consistent with a fair die: a fair die spreads its faces at least this unevenly in about %.0f games in 100.", 100*p)
	}
}

// String is the dice report of a game: the count of each face, the
// statistic and its interpretation.
func (t Tally) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Dice report: %d rolls of a d10\n", t.N)
	b.WriteString("  face: ")
	for f := range t.Counts {
		fmt.Fprintf(&b, " %4d", f)
	}
	b.WriteString("\n  count:")
	for _, c := range t.Counts {
		fmt.Fprintf(&b, " %4d", c)
	}
	fmt.Fprintf(&b, "\n  expected %.1f each; chi-square %.2f with 9 degrees of freedom, p = %.3f\n", float64(t.N)/10, t.ChiSquare(), t.P())
	b.WriteString("  " + t.Interpretation() + "\n")
	return b.String()
}
