package main

import "math"

// vec3 is a point or direction.
type vec3 struct{ X, Y, Z float64 }

func (a vec3) add(b vec3) vec3             { return vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }
func (a vec3) sub(b vec3) vec3             { return vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }
func (a vec3) scale(s float64) vec3        { return vec3{a.X * s, a.Y * s, a.Z * s} }
func (a vec3) dot(b vec3) float64          { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }
func (a vec3) length() float64             { return math.Sqrt(a.dot(a)) }
func (a vec3) mul(b vec3) vec3             { return vec3{a.X * b.X, a.Y * b.Y, a.Z * b.Z} }
func (a vec3) mirrorX() vec3               { return vec3{-a.X, a.Y, a.Z} }
func (a vec3) lerp(b vec3, t float64) vec3 { return a.add(b.sub(a).scale(t)) }

func (a vec3) cross(b vec3) vec3 {
	return vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

func (a vec3) norm() vec3 {
	l := a.length()
	if l == 0 {
		return a
	}
	return a.scale(1 / l)
}

// quat is a rotation, stored as glTF stores it: x, y, z, w.
type quat struct{ X, Y, Z, W float64 }

var identity = quat{W: 1}

func axisAngle(axis vec3, rad float64) quat {
	axis = axis.norm()
	s, c := math.Sincos(rad / 2)
	return quat{axis.X * s, axis.Y * s, axis.Z * s, c}
}

// mul composes rotations: (a.mul(b)) applied to v is a applied to (b applied to v).
func (a quat) mul(b quat) quat {
	return quat{
		a.W*b.X + a.X*b.W + a.Y*b.Z - a.Z*b.Y,
		a.W*b.Y - a.X*b.Z + a.Y*b.W + a.Z*b.X,
		a.W*b.Z + a.X*b.Y - a.Y*b.X + a.Z*b.W,
		a.W*b.W - a.X*b.X - a.Y*b.Y - a.Z*b.Z,
	}
}

func (a quat) rotate(v vec3) vec3 {
	u := vec3{a.X, a.Y, a.Z}
	t := u.cross(v).scale(2)
	return v.add(t.scale(a.W)).add(u.cross(t))
}

func (a quat) normalize() quat {
	l := math.Sqrt(a.X*a.X + a.Y*a.Y + a.Z*a.Z + a.W*a.W)
	return quat{a.X / l, a.Y / l, a.Z / l, a.W / l}
}

// rotationBetween is the shortest rotation taking direction a onto direction b.
func rotationBetween(a, b vec3) quat {
	a, b = a.norm(), b.norm()
	d := a.dot(b)
	if d < -0.999999 {
		axis := vec3{1, 0, 0}.cross(a)
		if axis.length() < 1e-6 {
			axis = vec3{0, 1, 0}.cross(a)
		}
		return axisAngle(axis, math.Pi)
	}
	c := a.cross(b)
	return quat{c.X, c.Y, c.Z, 1 + d}.normalize()
}

// euler is a rotation in degrees about the parent's axes, applied Y (twist) first, then
// X (pitch), then Z (roll): q = Z·X·Y.
type euler struct{ X, Y, Z float64 }

func (e euler) quat() quat {
	rad := math.Pi / 180
	qx := axisAngle(vec3{1, 0, 0}, e.X*rad)
	qy := axisAngle(vec3{0, 1, 0}, e.Y*rad)
	qz := axisAngle(vec3{0, 0, 1}, e.Z*rad)
	return qz.mul(qx).mul(qy)
}

func (e euler) add(o euler) euler             { return euler{e.X + o.X, e.Y + o.Y, e.Z + o.Z} }
func (e euler) scale(s float64) euler         { return euler{e.X * s, e.Y * s, e.Z * s} }
func (e euler) lerp(o euler, t float64) euler { return e.add(o.add(e.scale(-1)).scale(t)) }

// mirror turns a left-side rotation into the right side's (the character's X axis flips).
func (e euler) mirror() euler { return euler{e.X, -e.Y, -e.Z} }
