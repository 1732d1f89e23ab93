package engine

// IsStanding reports whether o is a standing order, which either side may
// give at any time (docs/orders.md, "Standing orders"): the mail layer
// lets a block of standing orders alone through when the sender has no
// decision pending.
func IsStanding(o Order) bool { return isStanding(o) }
