package data

import (
	"fmt"
	"sort"
	"strings"
)

// suggest returns ` (did you mean "X"?)` for the known name nearest to s,
// ignoring case, or "" if none is near enough to be a likely typo.
func suggest(s string, known []string) string {
	if best := nearest(s, known); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

func nearest(s string, known []string) string {
	ls := strings.ToLower(s)
	best, bestD := "", -1
	for _, k := range known {
		lk := strings.ToLower(k)
		d := distance(ls, lk)
		if strings.HasPrefix(lk, ls) || strings.HasPrefix(ls, lk) {
			d = min(d, 1)
		}
		if bestD < 0 || d < bestD || (d == bestD && k < best) {
			best, bestD = k, d
		}
	}
	limit := max(1, min(len([]rune(s)), 12)/2)
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

// distance is the Levenshtein edit distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		if a == b {
			return 0
		}
		return 64
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// keys returns the sorted keys of a map.
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// unknown words a message for a name not among known.
func unknown(what, s string, known []string) string {
	if hint := suggest(s, known); hint != "" {
		return fmt.Sprintf("unknown %s %q%s", what, s, hint)
	}
	if len(known) > 16 {
		return fmt.Sprintf("unknown %s %q", what, s)
	}
	return fmt.Sprintf("unknown %s %q (known: %s)", what, s, strings.Join(known, ", "))
}
