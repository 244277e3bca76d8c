package main

import "math"

// geometry is an indexed triangle mesh with per-vertex normals.
type geometry struct {
	pos, nrm []vec3
	idx      []uint16
}

// lathe revolves a profile (radius, height, normal in the radial plane) around the Y axis.
// Rings are joined into quads; a ring of radius 0 is a pole.
func lathe(profile []ring, segments int) geometry {
	var g geometry
	for _, r := range profile {
		for s := 0; s <= segments; s++ {
			a := 2 * math.Pi * float64(s) / float64(segments)
			sin, cos := math.Sincos(a)
			g.pos = append(g.pos, vec3{r.radius * sin, r.y, r.radius * cos})
			g.nrm = append(g.nrm, vec3{r.nr * sin, r.ny, r.nr * cos}.norm())
		}
	}
	stride := segments + 1
	for i := 0; i+1 < len(profile); i++ {
		for s := 0; s < segments; s++ {
			a := uint16(i*stride + s)
			b := a + uint16(stride)
			g.idx = append(g.idx, a, b, a+1, a+1, b, b+1)
		}
	}
	return g
}

// ring is one circle of a lathe profile.
type ring struct{ radius, y, nr, ny float64 }

// sphere is the unit sphere.
func sphere(rings, segments int) geometry {
	var p []ring
	for i := 0; i <= rings; i++ {
		theta := math.Pi * float64(i) / float64(rings) // 0 at the top
		s, c := math.Sincos(theta)
		p = append(p, ring{radius: s, y: c, nr: s, ny: c})
	}
	return lathe(p, segments)
}

// dome is the front half (z >= 0) of the unit sphere, its pole on +Z: the lens of a face
// feature, whose back would be hidden inside the head anyway.
func dome(rings, segments int) geometry {
	var p []ring
	for i := 0; i <= rings; i++ {
		theta := math.Pi / 2 * float64(i) / float64(rings) // 0 at the pole
		s, c := math.Sincos(theta)
		p = append(p, ring{radius: s, y: c, nr: s, ny: c})
	}
	g := lathe(p, segments)
	for i := range g.pos { // revolve around Z instead of Y: (x, y, z) -> (x, z, y)
		g.pos[i] = vec3{g.pos[i].X, g.pos[i].Z, g.pos[i].Y}
		g.nrm[i] = vec3{g.nrm[i].X, g.nrm[i].Z, g.nrm[i].Y}
	}
	for i := 0; i < len(g.idx); i += 3 { // swapping two axes mirrors: keep the faces outward
		g.idx[i+1], g.idx[i+2] = g.idx[i+2], g.idx[i+1]
	}
	return g
}

// capsule is a rounded limb of the given radius hanging from the origin down to -length.
func capsule(radius, length float64, capRings, segments int) geometry {
	var p []ring
	for i := 0; i <= capRings; i++ { // top cap, centred on the origin
		theta := math.Pi / 2 * float64(i) / float64(capRings)
		s, c := math.Sincos(theta)
		p = append(p, ring{radius: radius * s, y: radius * c, nr: s, ny: c})
	}
	for i := 0; i <= capRings; i++ { // bottom cap, centred on -length
		theta := math.Pi/2 + math.Pi/2*float64(i)/float64(capRings)
		s, c := math.Sincos(theta)
		p = append(p, ring{radius: radius * s, y: -length + radius*c, nr: s, ny: c})
	}
	return lathe(p, segments)
}

// addMesh stores a geometry with one material and returns the mesh index.
func (d *document) addMesh(name string, g geometry, mat int) int {
	d.Meshes = append(d.Meshes, mesh{Name: name, Primitives: []primitive{d.primitive(g, mat)}})
	return len(d.Meshes) - 1
}

// primitive stores a geometry's positions, normals and indices.
func (d *document) primitive(g geometry, mat int) primitive {
	pos := make([]float64, 0, 3*len(g.pos))
	nrm := make([]float64, 0, 3*len(g.nrm))
	for i := range g.pos {
		p, n := g.pos[i], g.nrm[i]
		pos = append(pos, p.X, p.Y, p.Z)
		nrm = append(nrm, n.X, n.Y, n.Z)
	}
	pa := d.floats(pos, "VEC3", targetArray)
	na := d.floats(nrm, "VEC3", targetArray)
	ia := d.indices(g.idx)
	return primitive{Attributes: map[string]int{"POSITION": pa, "NORMAL": na}, Indices: ia, Material: mat}
}
