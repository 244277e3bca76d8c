package main

import "math"

// Leg lengths: hip joint to knee, knee to ankle.
var (
	thighLen = -skeleton[lowerLegL].offset.Y
	shinLen  = -skeleton[footL].offset.Y
)

// planted bends both legs so the feet stay where they stand at rest while the hips move
// by p.move (up/down and forward/back) and pitch by p.rot[hips].X. The feet stay flat.
func (p pose) planted() pose { return p.plant(1).plant(-1) }

// plant does planted for one leg (s > 0 left, s < 0 right).
func (p pose) plant(s float64) pose {
	pitch := p.rot[hips].X
	dy := -(thighLen + shinLen) - p.move.Y // from the hip joint to the ankle
	dz := -p.move.Z
	dist := math.Min(math.Hypot(dy, dz), thighLen+shinLen-1e-4)
	deg := 180 / math.Pi
	knee := math.Pi - math.Acos((thighLen*thighLen+shinLen*shinLen-dist*dist)/(2*thighLen*shinLen))
	lean := math.Atan2(dz, -dy)
	hipAngle := lean + math.Acos((thighLen*thighLen+dist*dist-shinLen*shinLen)/(2*thighLen*dist))
	hip := -hipAngle*deg - pitch
	k := knee * deg
	u, l := p.rot[upperLegL], p.rot[lowerLegL]
	if s < 0 {
		u, l = p.rot[upperLegR].mirror(), p.rot[lowerLegR].mirror()
	}
	u.X, l.X = hip, k
	foot := euler{X: -(pitch + hip + k)}
	return p.side(s, upperLegL, u).side(s, lowerLegL, l).side(s, footL, foot)
}
