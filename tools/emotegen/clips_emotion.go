package main

// Feelings: crying, sorrow, rude-gesture, looking-around.

func crying(t float64) pose {
	sob := wave(t, 0.5, 0)
	return relaxed.plus(pose{}.
		both(upperArmL, euler{X: -40, Z: -16, Y: 20}).
		both(foreArmL, euler{X: -138}).
		both(handL, euler{X: -15}).
		l(chest, euler{X: 12 + 3*sob}).
		l(spine, euler{X: 6}).
		l(neck, euler{X: 10}).
		l(head, euler{X: 22 + 3*sob, Y: 6 * wave(t, 1.5, 0)}).
		both(shoulderL, euler{Z: 4 + 3*sob}).
		at(vec3{Y: -0.015 + 0.008*sob})).planted()
}

func sorrow(t float64) pose {
	sigh := wave(t, 3, 0)
	return relaxed.plus(pose{}.
		both(upperArmL, euler{Z: -5, X: 4}).
		both(foreArmL, euler{X: 2}).
		both(shoulderL, euler{Z: -8, Y: 10}).
		l(spine, euler{X: 8}).
		l(chest, euler{X: 14 - 3*sigh}).
		l(neck, euler{X: 14}).
		l(head, euler{X: 24 - 4*sigh, Y: 8 * wave(t, 3, 0.25)}).
		at(vec3{Y: -0.03 + 0.006*sigh})).planted()
}

func rudeGesture(t float64) pose {
	gesture := pose{}.
		r(upperArmL, euler{X: -70, Z: 20, Y: 80}).
		r(foreArmL, euler{X: -105}).
		r(handL, euler{X: -10}).
		l(upperArmL, euler{X: -55, Z: -40, Y: 30}).
		l(foreArmL, euler{X: -95}).
		l(head, euler{X: -12, Z: 6}).
		l(chest, euler{Y: 14, X: -6})
	pump := gesture.plus(pose{}.r(foreArmL, euler{X: -25}).r(upperArmL, euler{X: -10}))
	p := keyed(t, key{0, pose{}}, key{0.4, gesture}, key{0.55, pump}, key{0.75, gesture}, key{0.9, pump}, key{1.45, gesture}, key{2, pose{}})
	return relaxed.plus(p).planted()
}

func lookingAround(t float64) pose {
	look := wave(t, 3, 0)
	return relaxed.plus(breathe(t, 1.5)).plus(pose{}.
		r(upperArmL, euler{X: -60, Z: -8, Y: 30}).
		r(foreArmL, euler{X: -128}).
		r(handL, euler{X: 25}).
		l(head, euler{Y: 50 * look, X: -6 + 4*wave(t, 1.5, 0.25)}).
		l(neck, euler{Y: 10 * look}).
		l(chest, euler{Y: 14 * look}).
		at(vec3{Y: -0.01})).planted()
}
