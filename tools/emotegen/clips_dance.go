package main

import "math"

// Dances: happy, breaking, hip-hop, popping. All loop on a 0.5 s beat.

// bounce is 0 on the beat and 1 half-way between beats.
func bounce(t, beat float64) float64 { return (1 - math.Cos(2*math.Pi*t/beat)) / 2 }

func danceHappy(t float64) pose {
	b := bounce(t, 0.5)
	sw := wave(t, 1, 0)
	return relaxed.plus(pose{}.
		l(upperArmL, euler{Z: 150 + 18*sw, X: -10}).
		r(upperArmL, euler{Z: 150 - 18*sw, X: -10}).
		both(foreArmL, euler{Z: 20, X: -15}).
		both(handL, euler{Z: 20 * sw}).
		l(hips, euler{Z: 6 * sw}).
		l(chest, euler{Z: -9 * sw}).
		l(head, euler{Z: 10 * sw, X: -6}).
		at(vec3{X: 0.03 * sw, Y: -0.07 * b})).planted()
}

func danceBreaking(t float64) pose {
	rockA := pose{}.
		r(upperLegL, euler{X: -35, Z: -18}).
		both(upperArmL, euler{X: -45, Z: 25}).
		both(foreArmL, euler{X: -95}).
		l(chest, euler{Y: 18, X: 8})
	rockB := pose{}.
		l(upperLegL, euler{X: -35, Z: -18}).
		both(upperArmL, euler{X: -45, Z: 25}).
		both(foreArmL, euler{X: -95}).
		l(chest, euler{Y: -18, X: 8})
	crouch := pose{}.
		both(upperLegL, euler{X: -110, Z: 24}).
		both(lowerLegL, euler{X: 140}).
		both(footL, euler{X: -30}).
		l(spine, euler{X: 28}).
		both(upperArmL, euler{X: -55, Z: 8}).
		both(foreArmL, euler{X: -5}).
		l(head, euler{X: -25}).
		at(vec3{Y: -0.5})
	kickL := crouch.
		l(upperLegL, euler{X: -25, Z: 80}).
		l(lowerLegL, euler{X: 5}).
		l(upperArmL, euler{Z: 70, X: -20}).
		l(chest, euler{Z: 12})
	kickR := crouch.
		r(upperLegL, euler{X: -25, Z: 80}).
		r(lowerLegL, euler{X: 5}).
		r(upperArmL, euler{Z: 70, X: -20}).
		l(chest, euler{Z: -12})
	p := keyed(t, key{0, rockA}, key{0.5, rockB}, key{1, rockA}, key{1.45, crouch}, key{1.9, kickL},
		key{2.3, crouch}, key{2.75, kickR}, key{3.15, crouch}, key{3.6, rockB}, key{4, rockA})
	return relaxed.plus(p)
}

func danceHiphop(t float64) pose {
	b := bounce(t, 0.5)
	step := wave(t, 2, 0)
	pumpL := wave(t, 0.5, 0)
	return relaxed.plus(pose{}.
		both(upperArmL, euler{X: -35, Z: 28}).
		l(foreArmL, euler{X: -95 + 30*pumpL}).
		r(foreArmL, euler{X: -95 - 30*pumpL}).
		both(handL, euler{X: -20}).
		l(chest, euler{Y: 16 * wave(t, 1, 0), X: 8}).
		l(hips, euler{Y: -8 * wave(t, 1, 0)}).
		l(head, euler{X: 10 * b, Y: 8 * wave(t, 1, 0)}).
		at(vec3{X: 0.09 * step, Y: -0.06 - 0.05*b})).planted()
}

func dancePopping(t float64) pose {
	hits := []pose{
		pose{}.l(upperArmL, euler{Z: 90}).l(foreArmL, euler{X: -90}).l(head, euler{Y: 35}).l(chest, euler{Y: 10}),
		pose{}.both(upperArmL, euler{Z: 90}).both(foreArmL, euler{}).l(head, euler{Y: 0}),
		pose{}.both(upperArmL, euler{Z: 90}).both(foreArmL, euler{Z: 90}).l(head, euler{X: -10}),
		pose{}.r(upperArmL, euler{X: -90}).r(foreArmL, euler{Z: 90}).l(chest, euler{Y: -25}).l(head, euler{Y: -35}).at(vec3{Y: -0.05}),
		pose{}.r(upperArmL, euler{Z: 90}).r(foreArmL, euler{X: -90}).l(head, euler{Y: -35}).l(chest, euler{Y: -10}),
		pose{}.both(upperArmL, euler{Z: 90}).both(foreArmL, euler{}).l(head, euler{Y: 0}),
		pose{}.both(upperArmL, euler{Z: 90}).both(foreArmL, euler{Z: -90}).l(head, euler{X: 10}).at(vec3{Y: -0.05}),
		pose{}.l(upperArmL, euler{X: -90}).l(foreArmL, euler{Z: -90}).l(chest, euler{Y: 25}).l(head, euler{Y: 35}),
	}
	const beat = 0.5
	i := int(t/beat) % len(hits)
	into := math.Mod(t, beat)
	prev := hits[(i+len(hits)-1)%len(hits)]
	p := prev.blend(hits[i], ease(into/0.09)) // snap into the hit
	pop := math.Exp(-into / 0.07)             // and a chest pop on the beat
	return relaxed.plus(p).plus(pose{}.l(chest, euler{X: -7 * pop}).at(vec3{Y: -0.02 * pop})).planted()
}
