package table

import (
	"math"
	"testing"
)

// FuzzDistance checks properties of the distance between two stands of
// any size, place and facing: symmetric, zero exactly when they meet, no
// more than the distance between any corners, unchanged by moving both.
func FuzzDistance(f *testing.F) {
	f.Add(0.0, 0.0, 0.0, 2.0, 1.0, 3.0, 4.0, 45.0, 1.0, 1.0)
	f.Add(10.0, 10.0, 90.0, 2.0, 1.0, 12.0, 10.0, 270.0, 2.0, 1.0)
	f.Add(0.0, 0.0, 30.0, 1.0, 1.0, 0.5, 0.2, 200.0, 3.0, 0.5)
	f.Fuzz(func(t *testing.T, x1, y1, f1, w1, d1, x2, y2, f2, w2, d2 float64) {
		for _, v := range []float64{x1, y1, f1, w1, d1, x2, y2, f2, w2, d2} {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1000 {
				return
			}
		}
		if w1 < 0.1 || d1 < 0.1 || w2 < 0.1 || d2 < 0.1 {
			return
		}
		a := box(x1, y1, f1, w1, d1).Outline()
		b := box(x2, y2, f2, w2, d2).Outline()
		d := Distance(a, b)
		if back := Distance(b, a); math.Abs(d-back) > 1e-7 {
			t.Fatalf("not symmetric: %v and %v", d, back)
		}
		if (d == 0) != Intersects(a, b) {
			t.Fatalf("distance %v but Intersects %v", d, Intersects(a, b))
		}
		if d < 0 {
			t.Fatalf("negative distance %v", d)
		}
		for _, p := range a {
			for _, q := range b {
				if d > p.Dist(q)+1e-7 {
					t.Fatalf("distance %v more than corners %v–%v", d, p, q)
				}
			}
		}
		// Meets (any simple polygons) agrees with Intersects (convex).
		if Meets(a, b) != Intersects(a, b) && d > 1e-6 {
			t.Fatalf("Meets %v, Intersects %v, distance %v", Meets(a, b), Intersects(a, b), d)
		}
		shift := Vec{7.25, -3.5}
		var a2, b2 Polygon
		for i := range a {
			a2 = append(a2, a[i].Add(shift))
			b2 = append(b2, b[i].Add(shift))
		}
		if d2 := Distance(a2, b2); math.Abs(d2-d) > 1e-6 {
			t.Fatalf("moved: %v, was %v", d2, d)
		}
	})
}
