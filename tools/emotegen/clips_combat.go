package main

import "math"

// Fighting: hook-punch, punching, firing-gun, sword-swing, chopping, spell-cast, range, death.

// guard is a boxer's stance: fists up, knees soft, left foot forward.
var guard = pose{}.
	both(upperArmL, euler{X: -42, Z: -12, Y: 20}).
	both(foreArmL, euler{X: -125}).
	l(chest, euler{Y: -10, X: 6}).
	l(head, euler{X: 6, Y: 6}).
	at(vec3{Y: -0.05})

func hookPunch(t float64) pose {
	wind := guard.l(chest, euler{Y: -32, X: 6}).r(upperArmL, euler{X: -30, Z: 40, Y: 20})
	hook := guard.
		r(upperArmL, euler{X: -20, Z: 85, Y: 60}).
		r(foreArmL, euler{X: -95}).
		l(chest, euler{Y: 38, X: 8}).
		l(hips, euler{Y: 12}).
		l(head, euler{X: 8, Y: -20})
	follow := hook.l(chest, euler{Y: 50, X: 10})
	p := keyed(t, key{0, pose{}}, key{0.3, guard}, key{0.5, wind}, key{0.68, hook}, key{0.82, follow}, key{1.15, guard}, key{1.5, pose{}})
	return relaxed.plus(p).planted()
}

func punching(t float64) pose {
	jab := guard.
		l(upperArmL, euler{X: -86, Z: -8, Y: 20}).
		l(foreArmL, euler{X: -6}).
		l(chest, euler{Y: -22, X: 8})
	cross := guard.
		r(upperArmL, euler{X: -86, Z: -10, Y: 20}).
		r(foreArmL, euler{X: -6}).
		l(chest, euler{Y: 26, X: 8}).
		l(hips, euler{Y: 10})
	p := keyed(t, key{0, pose{}}, key{0.3, guard}, key{0.45, jab}, key{0.62, guard}, key{0.82, cross},
		key{1.02, guard}, key{1.2, jab}, key{1.38, guard}, key{1.6, guard}, key{2, pose{}})
	return relaxed.plus(p).planted()
}

func firingGun(t float64) pose {
	aim := pose{}.
		both(upperArmL, euler{X: -84, Z: -16}).
		both(foreArmL, euler{X: -8}).
		r(handL, euler{X: -8}).
		l(chest, euler{X: 4}).
		l(head, euler{X: 4}).
		at(vec3{Y: -0.04})
	p := keyed(t, key{0, pose{}}, key{0.35, aim}, key{1.65, aim}, key{2, pose{}})
	kick := 0.0
	for _, shot := range []float64{0.6, 0.95, 1.3} {
		if t >= shot {
			kick += math.Exp(-(t - shot) / 0.07)
		}
	}
	recoil := pose{}.both(upperArmL, euler{X: -14 * kick}).both(foreArmL, euler{X: -8 * kick}).l(head, euler{X: -3 * kick})
	return relaxed.plus(p).plus(recoil).planted()
}

func swordSwing(t float64) pose {
	raised := pose{}.
		both(upperArmL, euler{X: -165, Z: -8}).
		both(foreArmL, euler{X: -40}).
		l(chest, euler{X: -10, Y: 25}).
		l(head, euler{X: 5}).
		at(vec3{Y: -0.03})
	slash := pose{}.
		both(upperArmL, euler{X: -45, Z: -22}).
		both(foreArmL, euler{X: -8}).
		l(chest, euler{X: 22, Y: -25}).
		l(spine, euler{X: 8}).
		l(head, euler{X: -10}).
		at(vec3{Y: -0.1, Z: 0.03})
	p := keyed(t, key{0, pose{}}, key{0.65, raised}, key{0.8, raised}, key{1.0, slash}, key{1.45, slash}, key{2, pose{}})
	return relaxed.plus(p).planted()
}

func chopping(t float64) pose {
	up := pose{}.
		both(upperArmL, euler{X: -158, Z: -12}).
		both(foreArmL, euler{X: -45}).
		l(chest, euler{X: -12}).
		at(vec3{Y: -0.03})
	down := pose{}.
		both(upperArmL, euler{X: -35, Z: -18}).
		both(foreArmL, euler{X: -5}).
		l(chest, euler{X: 30}).
		l(spine, euler{X: 14}).
		l(head, euler{X: -15}).
		at(vec3{Y: -0.12, Z: -0.02})
	p := keyed(t, key{0, pose{}}, key{0.4, up}, key{0.58, down}, key{0.95, up}, key{1.13, down}, key{1.5, down}, key{2, pose{}})
	return relaxed.plus(p).planted()
}

func spellCast(t float64) pose {
	gather := pose{}.
		both(upperArmL, euler{X: -32, Z: -24, Y: 30}).
		both(foreArmL, euler{X: -105}).
		both(handL, euler{Y: 40}).
		l(chest, euler{X: -6}).
		l(head, euler{X: 10}).
		at(vec3{Y: -0.04})
	push := pose{}.
		both(upperArmL, euler{X: -88, Z: -6, Y: 70}).
		both(foreArmL, euler{X: -4}).
		both(handL, euler{Z: 55}).
		l(chest, euler{X: 10}).
		l(head, euler{X: -4}).
		at(vec3{Y: -0.07, Z: 0.05})
	p := keyed(t, key{0, pose{}}, key{0.5, gather}, key{1.2, gather}, key{1.45, push}, key{2.0, push}, key{2.5, pose{}})
	swirl := window(t, 0.4, 1.3, 0.15)
	p = p.plus(pose{}.both(foreArmL, euler{Y: 35 * wave(t, 0.45, 0) * swirl}).l(chest, euler{Y: 6 * wave(t, 0.9, 0) * swirl}))
	return relaxed.plus(p).planted()
}

func archery(t float64) pose {
	nock := pose{}.
		l(upperArmL, euler{Z: 88, Y: 90}).
		l(foreArmL, euler{X: -4}).
		r(upperArmL, euler{X: -10, Z: -95, Y: 90}).
		r(foreArmL, euler{X: -12}).
		l(head, euler{Y: 70}).
		l(chest, euler{Y: -10}).
		at(vec3{Y: -0.03})
	draw := nock.
		r(upperArmL, euler{Z: 85, X: 10, Y: 90}).
		r(foreArmL, euler{X: -150})
	loose := draw.
		r(upperArmL, euler{Z: 110, X: 25, Y: 90}).
		r(foreArmL, euler{X: -55})
	p := keyed(t, key{0, pose{}}, key{0.4, nock}, key{1.05, draw}, key{1.2, draw}, key{1.3, loose}, key{1.6, loose}, key{2, pose{}})
	return relaxed.plus(p).planted()
}

func death(t float64) pose {
	hit := pose{}.
		both(upperArmL, euler{X: -34, Z: -24}).
		both(foreArmL, euler{X: -118}).
		l(chest, euler{X: -16}).
		l(head, euler{X: -14}).
		at(vec3{Z: -0.04})
	kneel := pose{}.
		both(upperArmL, euler{X: -20, Z: -14}).
		both(foreArmL, euler{X: -100}).
		both(upperLegL, euler{X: -4, Z: 4}).
		both(lowerLegL, euler{X: 92}).
		both(footL, euler{X: 40}).
		l(spine, euler{X: 18}).
		l(chest, euler{X: 14}).
		l(head, euler{X: 20}).
		at(vec3{Y: -0.4})
	down := pose{}.
		l(hips, euler{Z: -84}).
		both(upperArmL, euler{Z: 30, X: -20}).
		both(foreArmL, euler{X: -20}).
		l(upperLegL, euler{X: -20}).
		r(upperLegL, euler{X: -35}).
		both(lowerLegL, euler{X: 40}).
		l(head, euler{Z: 10, X: 10}).
		at(vec3{X: -0.32, Y: -0.66})
	settled := down.l(head, euler{Z: 16, X: 12})
	p := keyed(t, key{0, pose{}}, key{0.3, hit}, key{0.55, hit}, key{1.2, kneel}, key{1.45, kneel}, key{2.0, down}, key{2.2, settled}, key{3, settled})
	q := relaxed.plus(p)
	return q.blend(q.planted(), 1-ease((t-0.5)/0.3)) // feet planted until the knees give way
}
