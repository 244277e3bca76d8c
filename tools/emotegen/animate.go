package main

import (
	"fmt"
	"math"
)

// fps is how densely clips are sampled; the player interpolates linearly between keys.
const fps = 30

// motion is a clip's pose at time t (seconds from the start).
type motion func(t float64) pose

// buildClip returns the glTF document of one emote: the skeleton's nodes (no mesh) and
// one animation named id, exactly duration seconds long. Bones that move get a key every
// 1/fps s; bones that hold still get two keys.
func buildClip(id string, duration float64, m motion) (*document, error) {
	d := newDocument()
	root := addSkeleton(d)
	d.Scenes = []scene{{Name: id, Nodes: []int{root}}}
	n := int(math.Round(duration * fps))
	if n < 2 {
		return nil, fmt.Errorf("%s: duration %.2f s is too short", id, duration)
	}
	times := make([]float64, n+1)
	poses := make([]pose, n+1)
	for i := range times {
		times[i] = duration * float64(i) / float64(n)
		poses[i] = m(times[i])
	}
	dense := d.floats(times, "SCALAR", 0)
	ends := d.floats([]float64{0, duration}, "SCALAR", 0)
	anim := animation{Name: id}
	addChannel := func(b bone, path string, values []float64, typ string, input int) {
		out := d.floats(values, typ, 0)
		anim.Samplers = append(anim.Samplers, sampler{Input: input, Interpolation: "LINEAR", Output: out})
		anim.Channels = append(anim.Channels, channel{Sampler: len(anim.Samplers) - 1, Target: target{Node: root + int(b), Path: path}})
	}
	for b := bone(0); b < boneCount; b++ {
		qs := rotations(poses, b)
		if still(qs) {
			q := qs[0]
			addChannel(b, "rotation", []float64{q.X, q.Y, q.Z, q.W, q.X, q.Y, q.Z, q.W}, "VEC4", ends)
			continue
		}
		values := make([]float64, 0, 4*len(qs))
		for _, q := range qs {
			values = append(values, q.X, q.Y, q.Z, q.W)
		}
		addChannel(b, "rotation", values, "VEC4", dense)
	}
	rest := skeleton[hips].offset
	values := make([]float64, 0, 3*len(poses))
	moving := false
	for _, p := range poses {
		v := rest.add(p.move)
		values = append(values, v.X, v.Y, v.Z)
		moving = moving || p.move != poses[0].move
	}
	if moving {
		addChannel(hips, "translation", values, "VEC3", dense)
	} else {
		addChannel(hips, "translation", append(values[:3:3], values[:3]...), "VEC3", ends)
	}
	d.Animations = []animation{anim}
	return d, nil
}

// rotations are a bone's quaternions over the clip, kept on one hemisphere so each step
// interpolates the short way.
func rotations(poses []pose, b bone) []quat {
	qs := make([]quat, len(poses))
	for i, p := range poses {
		q := p.rot[b].quat()
		if i > 0 {
			prev := qs[i-1]
			if prev.X*q.X+prev.Y*q.Y+prev.Z*q.Z+prev.W*q.W < 0 {
				q = quat{-q.X, -q.Y, -q.Z, -q.W}
			}
		}
		qs[i] = q
	}
	return qs
}

func still(qs []quat) bool {
	for _, q := range qs[1:] {
		d := math.Abs(q.X-qs[0].X) + math.Abs(q.Y-qs[0].Y) + math.Abs(q.Z-qs[0].Z) + math.Abs(q.W-qs[0].W)
		if d > 1e-6 {
			return false
		}
	}
	return true
}
