package main

import "math"

// pose is the whole skeleton at one instant: a rotation per bone (in the bone's parent
// frame) and how far the hips are moved from rest.
type pose struct {
	rot  [boneCount]euler
	move vec3
}

// l sets a left-side (or centre) bone.
func (p pose) l(b bone, e euler) pose { p.rot[b] = e; return p }

// r sets the right-side twin of a left bone, mirroring the rotation, so the same numbers
// mean the same movement on either side (Z+ lifts an arm outward on both).
func (p pose) r(b bone, e euler) pose { p.rot[mirrorBone(b)] = e.mirror(); return p }

// both sets a left bone and its right twin.
func (p pose) both(b bone, e euler) pose { return p.l(b, e).r(b, e) }

// side sets a bone on the left (s > 0) or right (s < 0).
func (p pose) side(s float64, b bone, e euler) pose {
	if s < 0 {
		return p.r(b, e)
	}
	return p.l(b, e)
}

// at moves the hips.
func (p pose) at(v vec3) pose { p.move = v; return p }

// plus adds a pose's rotations and movement on top of this one (for layered motion).
func (p pose) plus(o pose) pose {
	for i := range p.rot {
		p.rot[i] = p.rot[i].add(o.rot[i])
	}
	p.move = p.move.add(o.move)
	return p
}

// blend goes from p to o as t goes from 0 to 1.
func (p pose) blend(o pose, t float64) pose {
	for i := range p.rot {
		p.rot[i] = p.rot[i].lerp(o.rot[i], t)
	}
	p.move = p.move.lerp(o.move, t)
	return p
}

// key is a pose at a moment of a clip.
type key struct {
	at float64
	p  pose
}

// keyed eases from key to key (smoothly, no overshoot), holding the ends.
func keyed(t float64, keys ...key) pose {
	if t <= keys[0].at {
		return keys[0].p
	}
	for i := 1; i < len(keys); i++ {
		if t <= keys[i].at {
			a, b := keys[i-1], keys[i]
			return a.p.blend(b.p, ease((t-a.at)/(b.at-a.at)))
		}
	}
	return keys[len(keys)-1].p
}

// ease is smoothstep.
func ease(x float64) float64 {
	x = math.Max(0, math.Min(1, x))
	return x * x * (3 - 2*x)
}

// wave is a sine with the given period (s) and phase (fraction of a period).
func wave(t, period, phase float64) float64 { return math.Sin(2 * math.Pi * (t/period + phase)) }

// bump is 0 outside [from, to] and rises smoothly to 1 in the middle of it.
func bump(t, from, to float64) float64 {
	if t <= from || t >= to {
		return 0
	}
	return math.Sin(math.Pi * (t - from) / (to - from))
}

// window is 1 inside [from+ramp, to-ramp], easing to 0 at from and to.
func window(t, from, to, ramp float64) float64 {
	return ease((t-from)/ramp) * ease((to-t)/ramp)
}

// relaxed is the standing pose every clip starts from: arms a little away from the body,
// elbows soft.
var relaxed = pose{}.
	both(upperArmL, euler{Z: 9, X: 2}).
	both(foreArmL, euler{X: -12}).
	both(handL, euler{Z: -4})

// breathe is the small always-on motion layered on calm clips.
func breathe(t, period float64) pose {
	b := wave(t, period, 0)
	return pose{}.
		l(chest, euler{X: -1.2 * b}).
		l(neck, euler{X: 0.8 * b}).
		both(upperArmL, euler{Z: 1.2 * b}).
		at(vec3{Y: 0.002 * b})
}
