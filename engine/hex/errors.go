package hex

import "errors"

// Sentinel errors, wrapped by the parse functions with the offending text:
// errors.Is(err, ErrHex) and so on.
var (
	// ErrHex: a hex id is not four digits XXYY.
	ErrHex = errors.New("want four digits XXYY (column, row)")
	// ErrDir: a hexside direction name is not one of the six.
	ErrDir = errors.New("want one of the hexsides N, NE, SE, S, SW, NW")
	// ErrFacing: a facing name is not one of the six vertices.
	ErrFacing = errors.New("want one of the vertices E, NE, NW, W, SW, SE")
)
