/**
 * 2D with the 3D library: circles are spheres and rectangles are boxes whose centres, velocities
 * and contacts lie in the z = 0 plane; a rectangle turned by θ about z has the rotation quaternion
 * (0, 0, sin(θ/2), cos(θ/2)) (computed once at setup). Box half extent z can be anything > 0.
 *
 * The world contact list (`physics.contacts`, every contact in float64, sorted by (a, b)) is read
 * after each step; contacts flagged BEGAN are printed with their 2D normal and point, and circles
 * bounce (a circle off a rectangle reflects its velocity; two circles exchange their normal
 * velocities, as equal masses do). `integrate: false` lets us bounce before moving.
 *
 * Run: npx tsx examples/circles-2d.ts
 */
import { createWorld } from 'bitecs';
import {
  addBox,
  addSphere,
  ContactFlags,
  createPhysics,
  runBroadphase,
  runIntegrate,
  runNarrowphase,
  type Physics,
} from '../src/index.js';

const TICKS = 240;
const names = new Map<number, string>();

function circle(physics: Physics, name: string, x: number, y: number, r: number, vx: number, vy: number): number {
  const eid = addSphere(physics, { position: [x, y, 0], velocity: [vx, vy, 0], radius: r });
  names.set(eid, `circle ${name}`);
  return eid;
}

function rectangle(physics: Physics, name: string, x: number, y: number, w: number, h: number, angle = 0): number {
  // Rotation about z by `angle`: q = (0, 0, sin(θ/2), cos(θ/2)), computed once here.
  const rotation: [number, number, number, number] = [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
  const eid = addBox(physics, { position: [x, y, 0], halfExtents: [w / 2, h / 2, 0.5], rotation });
  names.set(eid, `rectangle ${name}`);
  return eid;
}

function setup(physics: Physics): void {
  rectangle(physics, 'floor', 0, -1, 40, 2);
  rectangle(physics, 'ceiling', 0, 21, 40, 2);
  rectangle(physics, 'left wall', -19, 10, 2, 20);
  rectangle(physics, 'right wall', 19, 10, 2, 20);
  rectangle(physics, 'ramp', -6, 4, 10, 1, Math.PI / 6); // turned 30° about z
  circle(physics, 'A', -8, 12, 0.75, 0, -9); // falls onto the ramp
  circle(physics, 'B', 2, 3, 1, 8, 0); // head-on with C
  circle(physics, 'C', 12, 3, 1, -8, 0);
  circle(physics, 'D', 10, 12, 0.5, 30, -40); // fast: crosses far more than its size each tick
}

const fmt = (v: number) => (Math.abs(v) < 5e-13 ? 0 : v).toFixed(3);

/** Bounces circles on the contacts of this tick (before integration). */
function bounce(physics: Physics, i: number): void {
  const { contacts: c, components } = physics;
  const V = components.Velocity;
  const a = c.a[i], b = c.b[i];
  const nx = c.nx[i], ny = c.ny[i];
  const isCircleB = names.get(b)!.startsWith('circle');
  // Normal velocity of a relative to b (b = rectangle: at rest).
  const rvx = V.x[a] - (isCircleB ? V.x[b] : 0);
  const rvy = V.y[a] - (isCircleB ? V.y[b] : 0);
  const vn = rvx * nx + rvy * ny;
  if (vn >= 0) return; // separating
  if (!isCircleB) {
    V.x[a] -= 2 * vn * nx;
    V.y[a] -= 2 * vn * ny;
    return;
  }
  V.x[a] -= vn * nx;
  V.y[a] -= vn * ny;
  V.x[b] += vn * nx;
  V.y[b] += vn * ny;
}

function main(): void {
  const physics = createPhysics(createWorld(), { dt: 1 / 60, integrate: false });
  setup(physics);
  console.log(`circles-2d: ${names.size} shapes in the z = 0 plane, ${TICKS} ticks of ${+(1 / 60).toFixed(6)} s`);
  let began = 0;
  let offPlane = 0;
  for (let tick = 0; tick < TICKS; tick++) {
    runBroadphase(physics);
    runNarrowphase(physics);
    const c = physics.contacts;
    for (let i = 0; i < c.count; i++) {
      if (Math.abs(c.nz[i]) > 1e-12 || Math.abs(c.pz[i]) > 1e-12) offPlane++;
      if ((c.flags[i] & ContactFlags.BEGAN) !== 0) {
        began++;
        console.log(
          `  tick ${String(tick).padStart(3)}: ${names.get(c.a[i])} touches ${names.get(c.b[i])} at (${fmt(c.px[i])}, ${fmt(c.py[i])})` +
            ` normal (${fmt(c.nx[i])}, ${fmt(c.ny[i])}) toi ${c.toi[i].toFixed(3)}`,
        );
      }
      bounce(physics, i);
    }
    runIntegrate(physics);
  }
  console.log(`circles-2d: ${began} contacts began; ${offPlane === 0 ? 'all normals and points in the z = 0 plane' : `${offPlane} contacts off the plane`}`);
  if (offPlane !== 0) process.exitCode = 1;
}

main();
