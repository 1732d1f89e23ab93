package tabletop

import (
	"os"
	"testing"

	"herald/engine/strike/table"
)

// footprint is a unit of files × ranks stands of w × d inches whose front
// edge's centre is at x, y, facing f, its stands placed by
// engine/strike/table (the geometry the strike system's adapter uses).
func footprint(id string, side int, x, y, f float64, files, ranks int, w, d float64) Unit {
	tu := table.Unit{Pos: table.Vec{X: x, Y: y}, Facing: f, Files: files, Ranks: ranks, StandWidth: w, StandDepth: d}
	u := Unit{ID: id, Name: id, Side: side, Front: Vec{x, y}, Facing: f}
	for _, s := range tu.Stands() {
		p := tu.StandPoly(s)
		u.Stands = append(u.Stands, [4]Vec{{p[0].X, p[0].Y}, {p[1].X, p[1].Y}, {p[2].X, p[2].Y}, {p[3].X, p[3].Y}})
	}
	return u
}

// fan is an arc mark: the apex, then points reach inches away from
// facing-half to facing+half degrees.
func fan(side int, apex Vec, facing, half, reach float64, label string) Mark {
	m := Mark{Kind: "arc", Side: side, Path: []Vec{apex}, Label: label}
	for a := facing - half; a <= facing+half+1e-9; a += half / 2 {
		h := table.Heading(a)
		m.Path = append(m.Path, Vec{apex.X + reach*h.X, apex.Y + reach*h.Y})
	}
	return m
}

// sampleScene is a 48"×36" table with 16 units and 10 marks: the
// benchmark's scene and the documentation's sample.
func sampleScene() Scene {
	inf := func(id string, side int, x, y, f float64, files, ranks int) Unit {
		return footprint(id, side, x, y, f, files, ranks, 1.5, 0.75)
	}
	cav := func(id string, side int, x, y, f float64, files int) Unit {
		return footprint(id, side, x, y, f, files, 1, 1.5, 1.25)
	}
	units := []Unit{
		cav("Kn1", 0, 10, 11, 0, 3),
		inf("Sp1", 0, 20, 9, 0, 4, 2),
		inf("Sp2", 0, 29, 9, 0, 4, 2),
		inf("Bw1", 0, 24, 14, 20, 4, 1),
		inf("Cb1", 0, 37, 12, 330, 3, 1),
		cav("LH1", 0, 44, 17, 90, 2),
		inf("Bi1", 0, 15, 18, 0, 4, 2),
		cav("Kn2", 0, 5, 21, 45, 2),
		cav("Kn3", 1, 18, 22.5, 180, 3),
		inf("Sp3", 1, 26, 27, 180, 4, 2),
		inf("Sp4", 1, 34, 27, 180, 4, 2),
		inf("Bw2", 1, 30, 31, 200, 4, 1),
		inf("Cb2", 1, 12, 30, 160, 3, 1),
		cav("LH2", 1, 42, 26.5, 250, 2),
		inf("Bi2", 1, 22, 31.2, 180, 4, 2),
		inf("Pk1", 1, 5, 30, 150, 4, 3),
	}
	for i, name := range []string{
		"Mounted knights", "Spearmen", "Spearmen", "Longbowmen", "Crossbowmen", "Light horse", "Billmen", "Mounted sergeants",
		"Mounted knights", "Spearmen", "Spearmen", "Bowmen", "Crossbowmen", "Light horse", "Billmen", "Pikemen",
	} {
		units[i].Name = name
	}
	units[0].Highlight, units[0].Personality = true, "Sir Guy"
	units[3].Highlight = true
	units[6].Status = []string{"disordered"}
	units[8].Highlight = true
	units[9].Highlight, units[9].Status = true, []string{"disordered"}
	units[13].Highlight, units[13].Status = true, []string{"disordered", "broken"}
	units[15].Personality = "Count Raoul"
	return Scene{
		Title: "Bouvines Bridge, move 7", Width: 48, Height: 36,
		Sides: [2]string{"The King's host", "The Count's host"},
		Areas: []Area{
			{Kind: "gentle slope", Name: "", Shape: []Vec{{30, 16}, {38, 15}, {45, 18}, {46, 23}, {40, 25}, {32, 23}, {29, 19}}},
			{Kind: "higher ground", Name: "Windmill hill", Shape: []Vec{{33, 17.5}, {38, 17}, {43, 19}, {43.5, 22}, {39, 23}, {34, 21.5}}},
			{Kind: "obstacle", Name: "Abbey wood", Shape: []Vec{{2, 2}, {9, 1.5}, {12, 4}, {11, 7}, {6, 8}, {1.5, 6}}},
			{Kind: "open", Name: "", Shape: []Vec{{5, 3.5}, {8, 3.5}, {8, 5.5}, {5, 5.5}}},
			{Kind: "obstacle", Name: "Abbey wall", Shape: []Vec{{14, 33}, {44, 33.5}, {44, 34}, {14, 33.5}}},
			{Kind: "open", Name: "Ford", Shape: []Vec{{27, 34.5}, {30, 34.5}, {30, 36}, {27, 36}}},
		},
		Units: units,
		Marks: []Mark{
			{Kind: "move", Side: 0, Path: []Vec{{10, 6}, {10, 11}}, Label: "5″"},
			{Kind: "move", Side: 0, Path: []Vec{{12, 13}, {15, 15}, {15, 18}}},
			{Kind: "charge", Side: 1, Path: []Vec{{18, 28}, {18, 22.5}}, Label: "charge 5½″"},
			fan(0, Vec{24, 14}, 20, 45, 16, ""),
			{Kind: "range", Side: 0, Path: []Vec{{24, 14}, {24 + 11.3, 14 + 11.3}}, Label: "16″"},
			{Kind: "shot", Side: 0, Path: []Vec{{24.5, 14.5}, {26, 25.5}}, Label: "2 hits"},
			{Kind: "retreat", Side: 1, Path: []Vec{{38, 22}, {40, 24.5}, {42, 26.5}}, Label: "retreat 4″"},
			{Kind: "shot", Side: 1, Path: []Vec{{11, 29.5}, {6, 22}}, Label: "1 hit"},
			{Kind: "move", Side: 1, Path: []Vec{{34, 31}, {34, 27}}},
			{Kind: "shot", Side: 0, Path: []Vec{{37.5, 12.5}, {40.5, 24}}, Label: "no hits"},
		},
	}
}

// TestWriteSample writes the sample scene's picture where
// TABLETOP_SAMPLE names (to look at it); without it, it only renders.
// docs/img/strike-table-sample.png is made so:
//
//	TABLETOP_SAMPLE=$PWD/docs/img/strike-table-sample.png go test -run TestWriteSample ./mapimg/tabletop
func TestWriteSample(t *testing.T) {
	b, err := Render(sampleScene())
	if err != nil {
		t.Fatal(err)
	}
	if path := os.Getenv("TABLETOP_SAMPLE"); path != "" {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", path, len(b))
	}
}

func BenchmarkRender(b *testing.B) {
	s := sampleScene()
	if len(s.Units) != 16 || len(s.Marks) != 10 || s.Width != 48 || s.Height != 36 {
		b.Fatalf("the benchmark's scene is %g×%g with %d units and %d marks", s.Width, s.Height, len(s.Units), len(s.Marks))
	}
	for b.Loop() {
		if _, err := Render(s); err != nil {
			b.Fatal(err)
		}
	}
}
