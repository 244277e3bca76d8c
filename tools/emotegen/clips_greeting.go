package main

// Greetings: wave, kiss.

func waveHello(t float64) pose {
	raised := pose{}.
		r(upperArmL, euler{Y: 70, X: -10, Z: 100}).
		r(foreArmL, euler{X: -80}).
		l(head, euler{Z: 6, X: -4}).
		l(spine, euler{Z: -3})
	p := keyed(t, key{0, pose{}}, key{0.45, raised}, key{2.05, raised}, key{2.5, pose{}})
	w := window(t, 0.35, 2.15, 0.2)
	flap := pose{}.
		r(foreArmL, euler{Z: 28 * wave(t, 0.55, 0) * w}).
		r(handL, euler{Z: 12 * wave(t, 0.55, 0.15) * w})
	return relaxed.plus(breathe(t, 2.5)).plus(p).plus(flap).planted()
}

func kiss(t float64) pose {
	toLips := pose{}.
		r(upperArmL, euler{X: -48, Z: -22, Y: 30}).
		r(foreArmL, euler{X: -128}).
		r(handL, euler{X: -20}).
		l(head, euler{X: 6, Z: -4})
	blow := pose{}.
		r(upperArmL, euler{X: -95, Z: -6, Y: 30}).
		r(foreArmL, euler{X: -12}).
		r(handL, euler{X: -35}).
		l(head, euler{X: -6, Z: 8}).
		l(chest, euler{X: 6}).
		at(vec3{Z: 0.02})
	p := keyed(t, key{0, pose{}}, key{0.5, toLips}, key{0.85, toLips}, key{1.15, blow}, key{1.55, blow}, key{2, pose{}})
	return relaxed.plus(breathe(t, 2)).plus(p).planted()
}
