package strike

import "fmt"

// Unit is what the combat rules read and change of one unit: its type,
// quality, stands and marked figure casualties, and order.
type Unit struct {
	Name        string
	Type        *TroopType
	Superior    bool
	Trained     bool
	Stands      int
	FiguresLost int  // RESULTS (FC): marked until a whole stand is lost
	Disordered  bool // D
	Broken      bool
	Column      bool         // in column, block or wedge formation (MASSED TARGETS)
	Personality *Personality // attached, or nil
}

// Destroyed reports whether the unit has no stands left.
func (u *Unit) Destroyed() bool { return u.Stands <= 0 }

// Apply carries out an SRT result on u (RESULTS: "(FC) ... are marked
// until enough are taken to remove a stand, which is considered at full
// strength until it is removed"). It returns the stands removed and
// whether a morale check is due.
func (u *Unit) Apply(r Result) (standsLost int, morale bool) {
	u.FiguresLost += r.Figures
	for u.Type.Figures > 0 && u.FiguresLost >= u.Type.Figures && u.Stands > 0 {
		u.FiguresLost -= u.Type.Figures
		u.Stands--
		standsLost++
	}
	if u.Stands == 0 {
		u.FiguresLost = 0
	}
	if r.Disordered {
		u.Disordered = true
	}
	return standsLost, r.Morale
}

func (u *Unit) String() string {
	return fmt.Sprintf("%s (%s, %d stands)", u.Name, u.Type.ID, u.Stands)
}
