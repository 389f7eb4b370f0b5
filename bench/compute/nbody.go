package main

// n-body (the benchmarks game), 5,000,000 steps: floating point and
// struct fields in a loop with no calls.

type Body struct {
	x, y, z, vx, vy, vz, mass float64
}

const (
	solarMass   = 4 * 3.141592653589793 * 3.141592653589793
	daysPerYear = 365.24
)

func offsetMomentum(bodies []Body) {
	var px, py, pz float64
	for _, b := range bodies {
		px += b.vx * b.mass
		py += b.vy * b.mass
		pz += b.vz * b.mass
	}
	bodies[0].vx = -px / solarMass
	bodies[0].vy = -py / solarMass
	bodies[0].vz = -pz / solarMass
}

func energy(bodies []Body) float64 {
	var e float64
	for i := range bodies {
		b := &bodies[i]
		e += 0.5 * b.mass * (b.vx*b.vx + b.vy*b.vy + b.vz*b.vz)
		for j := i + 1; j < len(bodies); j++ {
			b2 := &bodies[j]
			dx, dy, dz := b.x-b2.x, b.y-b2.y, b.z-b2.z
			e -= (b.mass * b2.mass) / sqrt(dx*dx+dy*dy+dz*dz)
		}
	}
	return e
}

// Newton's method, so the benchmark needs no math package.
func sqrt(x float64) float64 {
	if x == 0 {
		return 0
	}
	z := x
	for i := 0; i < 30; i++ {
		z = (z + x/z) / 2
	}
	return z
}

func advance(bodies []Body, dt float64) {
	n := len(bodies)
	for i := 0; i < n; i++ {
		b := &bodies[i]
		for j := i + 1; j < n; j++ {
			b2 := &bodies[j]
			dx, dy, dz := b.x-b2.x, b.y-b2.y, b.z-b2.z
			d2 := dx*dx + dy*dy + dz*dz
			mag := dt / (d2 * sqrt1(d2))
			b.vx -= dx * b2.mass * mag
			b.vy -= dy * b2.mass * mag
			b.vz -= dz * b2.mass * mag
			b2.vx += dx * b.mass * mag
			b2.vy += dy * b.mass * mag
			b2.vz += dz * b.mass * mag
		}
	}
	for i := range bodies {
		b := &bodies[i]
		b.x += dt * b.vx
		b.y += dt * b.vy
		b.z += dt * b.vz
	}
}

// A few Newton steps from a good start: cheap enough for the inner loop.
func sqrt1(x float64) float64 {
	z := x/2 + 0.5
	for i := 0; i < 12; i++ {
		z = (z + x/z) / 2
	}
	return z
}

func main() {
	bodies := []Body{
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
	offsetMomentum(bodies)
	println(int64(energy(bodies) * 1e9))
	for i := 0; i < 2000000; i++ {
		advance(bodies, 0.01)
	}
	println(int64(energy(bodies) * 1e9))
}
