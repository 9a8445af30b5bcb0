/**
 * Bounce room (not part of `npm test`): a ball (collision response BOUNCE, restitution 1) in a closed
 * room of six static boxes, rotated, stepped for a long time. Checks every tick that the ball is
 * inside the room and not overlapping a wall (beyond 1e-9 of the room's size); prints the impacts,
 * the worst penetration and the speed drift (each bounce keeps the speed to rounding, about 1e-16
 * relative with a rotated room's normals; over many bounces that rounding accumulates).
 *
 * Usage: npx tsx scripts/bounce-room.ts [--ticks N] [--speed RADII_PER_TICK] [--seed S]
 * (default 1,000,000 ticks at 37 radii per tick). Exits 1 on an escape or an overlap.
 */
import { createWorld } from 'bitecs';
import { addBox, addSphere, createPhysics, step } from '../src/index.js';
import { createRng, randomQuat } from '../src/scenes/prng.js';
import { internalsOf } from '../src/physics/internal.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const TICKS = arg('ticks', 1_000_000);
const SPEED = arg('speed', 37);
const rng = createRng(arg('seed', 1));
const R = 0.5, ROOM = 5, WALL = 0.5, DT = 1 / 60;
const q = randomQuat(rng);
const [qx, qy, qz, qw] = q;
/** Rotates v by q (room frame → world). */
function rotate(v: number[], inverse = false): number[] {
  const x = inverse ? -qx : qx, y = inverse ? -qy : qy, z = inverse ? -qz : qz;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + qw * tx + (y * tz - z * ty), v[1] + qw * ty + (z * tx - x * tz), v[2] + qw * tz + (x * ty - y * tx)];
}

const physics = createPhysics(createWorld(), { dt: DT });
for (let a = 0; a < 3; a++) {
  for (const side of [-1, 1]) {
    const c = [0, 0, 0];
    c[a] = side * (ROOM + WALL);
    const h = [ROOM + 2 * WALL, ROOM + 2 * WALL, ROOM + 2 * WALL];
    h[a] = WALL;
    addBox(physics, { position: rotate(c) as [number, number, number], halfExtents: h as [number, number, number], rotation: q });
  }
}
const dir = rotate([rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)]);
const l = Math.hypot(dir[0], dir[1], dir[2]);
const v = dir.map((d) => (d / l) * SPEED * R / DT) as [number, number, number];
const ball = addSphere(physics, { position: rotate([1, -2, 0.5]) as [number, number, number], velocity: v, radius: R, response: 'bounce', restitution: 1 });
const speed0 = Math.hypot(...v);
const { Position: P, Velocity: V } = physics.components;
let impacts = 0, worst = 0, drift = 0, failed = '';
const t0 = performance.now();
for (let t = 1; t <= TICKS; t++) {
  step(physics);
  impacts += internalsOf(physics).response!.work[0];
  const local = rotate([P.x[ball], P.y[ball], P.z[ball]], true);
  for (const x of local) {
    const pen = Math.abs(x) - (ROOM - R);
    if (pen > worst) worst = pen;
    if (Math.abs(x) >= ROOM && !failed) failed = `escaped at tick ${t}`;
  }
  const d = Math.abs(Math.hypot(V.x[ball], V.y[ball], V.z[ball]) - speed0) / speed0;
  if (d > drift) drift = d;
  if (!failed && worst > 1e-9 * ROOM) failed = `overlapped a wall by ${worst} at tick ${t}`;
  if (failed) break;
}
const ms = performance.now() - t0;
console.log(`bounce-room: ${TICKS.toLocaleString('en-US')} ticks at ${SPEED} radii per tick in ${(ms / 1000).toFixed(1)} s: ${impacts.toLocaleString('en-US')} impacts, ` +
  `worst penetration ${worst.toExponential(2)} (room half size ${ROOM}), worst relative speed drift ${drift.toExponential(2)}`);
console.log(failed ? `bounce-room: FAILED: ${failed}` : 'bounce-room: ok, the ball never escaped');
if (failed) process.exitCode = 1;
