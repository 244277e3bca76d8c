package main

import "math"

// Calm clips: idle, talk, squat, fishing, float.

func idle(t float64) pose {
	sway := wave(t, 5, 0)
	return relaxed.plus(breathe(t, 2.5)).plus(pose{}.
		l(spine, euler{Z: -1 * sway}).
		l(head, euler{Y: 6 * wave(t, 5, 0.25), Z: -2 * sway, X: 1.5 * wave(t, 2.5, 0.3)}).
		at(vec3{X: 0.01 * sway, Y: -0.006})).planted()
}

func talk(t float64) pose {
	beat := wave(t, 0.75, 0)
	return relaxed.plus(breathe(t, 3)).plus(pose{}.
		r(upperArmL, euler{X: -22 + 8*wave(t, 1.5, 0), Z: -2, Y: 20}).
		r(foreArmL, euler{X: -62 + 14*beat}).
		r(handL, euler{X: -10 * wave(t, 0.75, 0.2), Y: 25}).
		l(upperArmL, euler{X: -10 + 6*wave(t, 1.5, 0.4), Y: 15}).
		l(foreArmL, euler{X: -40 + 10*wave(t, 1, 0.5)}).
		l(head, euler{X: 4 * beat, Y: 7 * wave(t, 3, 0), Z: 3 * wave(t, 1.5, 0.2)}).
		l(chest, euler{Y: 4 * wave(t, 1.5, 0.1)}).
		at(vec3{Y: -0.008})).planted()
}

func squat(t float64) pose {
	b := (1 - math.Cos(2*math.Pi*t/3)) / 2
	b = ease(b)
	return relaxed.plus(breathe(t, 1.5)).plus(pose{}.
		both(upperArmL, euler{X: -80 * b, Z: -6 * b}).
		both(foreArmL, euler{X: 5 * b}).
		l(hips, euler{X: 18 * b}).
		l(spine, euler{X: 12 * b}).
		l(head, euler{X: -22 * b}).
		at(vec3{Y: -0.34 * b, Z: -0.16 * b})).planted()
}

func fishing(t float64) pose {
	hold := pose{}.
		both(upperArmL, euler{X: -38, Z: -14}).
		both(foreArmL, euler{X: -62}).
		l(handL, euler{X: -20}).
		l(head, euler{X: 6}).
		at(vec3{Y: -0.02})
	windUp := pose{}.
		both(upperArmL, euler{X: -165, Z: -10}).
		both(foreArmL, euler{X: -50}).
		l(chest, euler{X: -12}).
		l(head, euler{X: -10}).
		at(vec3{Y: -0.01, Z: -0.03})
	cast := pose{}.
		both(upperArmL, euler{X: -75, Z: -12}).
		both(foreArmL, euler{X: -10}).
		l(chest, euler{X: 14}).
		l(spine, euler{X: 6}).
		at(vec3{Y: -0.06, Z: 0.04})
	reel := hold.plus(pose{}.r(foreArmL, euler{Y: 40}).both(upperArmL, euler{X: -15}))
	p := keyed(t, key{0, hold}, key{0.7, windUp}, key{1.15, cast}, key{1.8, hold}, key{3.9, hold}, key{4.4, reel}, key{5, hold})
	bite := bump(t, 2.7, 3.1) // a fish tugs the line twice
	p = p.plus(pose{}.both(upperArmL, euler{X: 10 * bite * wave(t, 0.2, 0)}).l(head, euler{X: 6 * bite}))
	return relaxed.plus(breathe(t, 2.5)).plus(p).planted()
}

func float(t float64) pose {
	drift := wave(t, 4, 0)
	paddle := wave(t, 2, 0)
	return relaxed.plus(pose{}.
		both(upperArmL, euler{Z: 48 + 10*paddle, X: -10}).
		both(foreArmL, euler{X: -18 - 8*paddle}).
		both(handL, euler{Z: 10 * paddle}).
		l(upperLegL, euler{X: -14 + 6*drift, Z: 4}).
		r(upperLegL, euler{X: -4 - 6*drift, Z: 4}).
		both(lowerLegL, euler{X: 28 + 6*wave(t, 4, 0.2)}).
		both(footL, euler{X: 35}).
		l(chest, euler{X: -4 + 2*paddle}).
		l(head, euler{X: -6, Z: 4 * wave(t, 4, 0.25)}).
		at(vec3{Y: 0.24 + 0.05*drift}))
}
