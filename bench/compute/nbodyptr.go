package main

// n-body over []*Body with methods and math.Sqrt in the inner loop (the
// shape that needs intrinsics and nil checks once): 2,000,000 steps of 5 bodies.  Each pair's update
// reads and writes fields through two pointers around a square root.

import (
	"fmt"
	"math"
)

type Body struct {
	x, y, z, vx, vy, vz, mass float64
}

const (
	solarMass   = 4 * math.Pi * math.Pi
	daysPerYear = 365.24
)

func (b *Body) offset(px, py, pz float64) {
	b.vx = -px / solarMass
	b.vy = -py / solarMass
	b.vz = -pz / solarMass
}

func (b *Body) pull(o *Body, dt float64) {
	dx := b.x - o.x
	dy := b.y - o.y
	dz := b.z - o.z
	dSquared := dx*dx + dy*dy + dz*dz
	distance := math.Sqrt(dSquared)
	mag := dt / (dSquared * distance)
	b.vx -= dx * o.mass * mag
	b.vy -= dy * o.mass * mag
	b.vz -= dz * o.mass * mag
	o.vx += dx * b.mass * mag
	o.vy += dy * b.mass * mag
	o.vz += dz * b.mass * mag
}

type System []*Body

func (s System) advance(dt float64) {
	for i, b := range s {
		for _, o := range s[i+1:] {
			b.pull(o, dt)
		}
	}
	for _, b := range s {
		b.x += dt * b.vx
		b.y += dt * b.vy
		b.z += dt * b.vz
	}
}

func (s System) energy() float64 {
	e := 0.0
	for i, b := range s {
		e += 0.5 * b.mass * (b.vx*b.vx + b.vy*b.vy + b.vz*b.vz)
		for _, o := range s[i+1:] {
			dx, dy, dz := b.x-o.x, b.y-o.y, b.z-o.z
			e -= b.mass * o.mass / math.Sqrt(dx*dx+dy*dy+dz*dz)
		}
	}
	return e
}

func newSystem() System {
	s := System{
		{0, 0, 0, 0, 0, 0, solarMass},
		{4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
			1.66007664274403694e-03 * daysPerYear, 7.69901118419740425e-03 * daysPerYear,
			-6.90460016972063023e-05 * daysPerYear, 9.54791938424326609e-04 * solarMass},
		{8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
			-2.76742510726862411e-03 * daysPerYear, 4.99852801234917238e-03 * daysPerYear,
			2.30417297573763929e-05 * daysPerYear, 2.85885980666130812e-04 * solarMass},
		{1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
			2.96460137564761618e-03 * daysPerYear, 2.37847173959480950e-03 * daysPerYear,
			-2.96589568540237556e-05 * daysPerYear, 4.36624404335156298e-05 * solarMass},
		{1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
			2.68067772490389322e-03 * daysPerYear, 1.62824170038242295e-03 * daysPerYear,
			-9.51592254519715870e-05 * daysPerYear, 5.15138902046611451e-05 * solarMass},
	}
	var px, py, pz float64
	for _, b := range s {
		px += b.vx * b.mass
		py += b.vy * b.mass
		pz += b.vz * b.mass
	}
	s[0].offset(px, py, pz)
	return s
}

func main() {
	s := newSystem()
	fmt.Printf("%.9f\n", s.energy())
	for i := 0; i < 2000000; i++ {
		s.advance(0.01)
	}
	fmt.Printf("%.9f\n", s.energy())
}
