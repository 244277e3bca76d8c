package main

import "math"

// Moving: jump, flip, run, walk, crawling, fall.

var crouch = pose{}.
	both(upperArmL, euler{X: 45, Z: 6}).
	both(foreArmL, euler{X: -20}).
	l(hips, euler{X: 16}).
	l(spine, euler{X: 10}).
	at(vec3{Y: -0.16, Z: -0.05})

func jump(t float64) pose {
	reach := pose{}.both(upperArmL, euler{X: -165, Z: 12}).both(foreArmL, euler{X: -10}).l(head, euler{X: -10})
	air := reach.
		both(upperLegL, euler{X: -40}).both(lowerLegL, euler{X: 70}).both(footL, euler{X: 30}).
		at(vec3{Y: 0.32})
	land := crouch.at(vec3{Y: -0.12, Z: -0.04})
	p := keyed(t, key{0, pose{}}, key{0.3, crouch}, key{0.45, reach}, key{0.7, air}, key{0.95, reach}, key{1.08, land}, key{1.5, pose{}})
	q := relaxed.plus(p)
	if p.move.Y <= 0.001 {
		return q.planted()
	}
	// in the air: the legs keep the pose they were given, blended in near the ground
	return q.blend(q.planted(), math.Max(0, 1-p.move.Y/0.06))
}

func flip(t float64) pose {
	tuck := pose{}.
		both(upperArmL, euler{X: -70, Z: -10}).both(foreArmL, euler{X: -60}).
		both(upperLegL, euler{X: -110}).both(lowerLegL, euler{X: 125}).both(footL, euler{X: 20}).
		l(spine, euler{X: 20}).l(head, euler{X: 20})
	reach := pose{}.both(upperArmL, euler{X: -170, Z: 10}).both(foreArmL, euler{X: -5}).l(head, euler{X: -12})
	land := crouch.at(vec3{Y: -0.14, Z: -0.04})
	p := keyed(t, key{0, pose{}}, key{0.35, crouch}, key{0.55, reach}, key{0.75, tuck}, key{1.15, tuck}, key{1.35, reach}, key{1.5, land}, key{2, pose{}})
	// the body turns over backwards once while airborne, and rises in an arc
	spin := ease((t - 0.55) / 0.8)
	height := bump(t, 0.5, 1.45)
	p = p.plus(pose{}.l(hips, euler{X: -360 * spin}).at(vec3{Y: 0.55 * height}))
	q := relaxed.plus(p)
	if height == 0 {
		return q.planted()
	}
	return q.blend(q.planted(), math.Max(0, 1-height*5))
}

// stride is a walking or running leg cycle; phase goes round once per two steps.
func stride(phase, hipSwing, kneeLift, armSwing, elbow float64) pose {
	p := pose{}
	for _, s := range []float64{1, -1} {
		ph := phase
		if s < 0 {
			ph += math.Pi
		}
		sin := math.Sin(ph)
		knee := 8 + kneeLift*math.Max(0, math.Sin(ph+math.Pi/2.5))
		p = p.side(s, upperLegL, euler{X: -hipSwing * sin}).
			side(s, lowerLegL, euler{X: knee}).
			side(s, footL, euler{X: 0.3*hipSwing*sin - 0.2*knee}).
			side(s, upperArmL, euler{X: armSwing * sin, Z: 6}).
			side(s, foreArmL, euler{X: -elbow})
	}
	return p
}

func run(t float64) pose {
	ph := 2 * math.Pi * t / 0.6
	return stride(ph, 42, 85, 45, 85).plus(pose{}.
		l(spine, euler{X: 10}).
		l(chest, euler{Y: 8 * math.Sin(ph)}).
		l(hips, euler{Y: -6 * math.Sin(ph)}).
		l(head, euler{X: -6}).
		at(vec3{Y: -0.03 + 0.03*math.Cos(2*ph)}))
}

func walk(t float64) pose {
	ph := 2 * math.Pi * t / 1.5
	return stride(ph, 22, 40, 18, 15).plus(pose{}.
		l(chest, euler{Y: 4 * math.Sin(ph)}).
		l(hips, euler{Y: -4 * math.Sin(ph), Z: 2 * math.Sin(ph)}).
		at(vec3{Y: -0.012 + 0.012*math.Cos(2*ph)}))
}

func crawling(t float64) pose {
	ph := 2 * math.Pi * t / 1.5
	p := pose{}.
		l(hips, euler{X: 75}).
		l(spine, euler{X: -5}).
		l(neck, euler{X: -25}).
		l(head, euler{X: -45, Y: 6 * math.Sin(ph)}).
		at(vec3{Y: -0.36, Z: -0.1 + 0.02*math.Sin(2*ph)})
	for _, s := range []float64{1, -1} {
		sin := math.Sin(ph)
		if s < 0 {
			sin = -sin
		}
		lift := math.Max(0, math.Cos(ph)) // the limb moving forward is lifted
		if s < 0 {
			lift = math.Max(0, -math.Cos(ph))
		}
		p = p.side(s, upperArmL, euler{X: -75 - 18*sin, Z: 6}).
			side(s, foreArmL, euler{X: -12 * lift}).
			side(s, handL, euler{X: 60}).
			side(-s, upperLegL, euler{X: -75 - 14*sin, Z: 6}).
			side(-s, lowerLegL, euler{X: 92 + 10*lift}).
			side(-s, footL, euler{X: 60})
	}
	return p
}

func fall(t float64) pose {
	trip := pose{}.
		both(upperArmL, euler{X: -120, Z: 50}).
		both(foreArmL, euler{X: -30}).
		r(upperLegL, euler{X: 30}).
		r(lowerLegL, euler{X: 40}).
		l(spine, euler{X: -10}).
		l(head, euler{X: -15}).
		at(vec3{Z: 0.04})
	tumble := pose{}.
		l(hips, euler{X: 45}).
		both(upperArmL, euler{X: -100, Z: 30}).
		both(foreArmL, euler{X: -20}).
		r(upperLegL, euler{X: 20}).
		l(head, euler{X: -30}).
		at(vec3{Y: -0.3, Z: 0.2})
	flat := pose{}.
		l(hips, euler{X: 88}).
		both(upperArmL, euler{X: -165, Z: 25}).
		both(foreArmL, euler{X: -10}).
		both(footL, euler{X: 40}).
		l(head, euler{X: -40}).
		at(vec3{Y: -0.68, Z: 0.3})
	rest := flat.l(head, euler{X: -55, Y: 10}).r(lowerLegL, euler{X: 60})
	p := keyed(t, key{0, pose{}}, key{0.35, trip}, key{0.7, tumble}, key{0.95, flat}, key{1.05, flat.at(vec3{Y: -0.66, Z: 0.3})},
		key{1.15, flat}, key{1.6, rest}, key{2, rest})
	q := relaxed.plus(p)
	return q.blend(q.planted(), 1-ease(t/0.35)) // standing until the trip
}
