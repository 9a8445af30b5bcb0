/**
 * Scenes of the response's robustness tests (issue 24, part 1) built with the public API, and an
 * independent end-of-tick check: how deep each dynamic sphere ends inside a static box, inside a
 * kinematic box, or inside another dynamic sphere, measured with the point–box distance of
 * test/support/response.ts (written from the definition, not the library's kernels).
 */
import { addBox, addSphere, step, type Physics, type PhysicsOptions } from '../../src/index.js';
import { boxDistance, freshPhysics, type Q4, type V3 } from './response.js';

export interface BoxSpec { eid: number; h: V3; q: Q4 }
export interface Scene {
  physics: Physics;
  spheres: number[];
  /** Static boxes. */
  statics: BoxSpec[];
  /** Kinematic (moving, no Response) boxes. */
  kinematics: BoxSpec[];
}

const IDENTITY: Q4 = [0, 0, 0, 1];

export function emptyScene(options: PhysicsOptions = {}): Scene {
  return { physics: freshPhysics({ dt: 1 / 60, ...options }), spheres: [], statics: [], kinematics: [] };
}

export function staticBox(s: Scene, c: V3, h: V3, q: Q4 = IDENTITY): number {
  const eid = addBox(s.physics, { position: c, halfExtents: h, rotation: q });
  s.statics.push({ eid, h, q });
  return eid;
}

export function kinematicBox(s: Scene, c: V3, h: V3, v: V3, q: Q4 = IDENTITY): number {
  const eid = addBox(s.physics, { position: c, halfExtents: h, rotation: q, velocity: v });
  s.kinematics.push({ eid, h, q });
  return eid;
}

export function dynamicSphere(s: Scene, c: V3, r: number, v: V3, response: 'stop' | 'slide' | 'bounce', restitution?: number): number {
  const eid = addSphere(s.physics, { position: c, radius: r, velocity: v, response, ...(restitution === undefined ? {} : { restitution }) });
  s.spheres.push(eid);
  return eid;
}

/** The worst end-of-tick depths of a scene, as fractions of the sphere's radius (sphere pairs: of the radii sum). */
export interface Depths {
  /** Deepest a sphere is inside a static box. */
  statics: number;
  /** Deepest a sphere is inside a kinematic box. */
  kinematics: number;
  /** Deepest inside a kinematic box for a sphere that is not also touching a static box (not squeezed). */
  unsqueezed: number;
  /** Deepest overlap of two dynamic spheres. */
  spheres: number;
}

function at(p: Physics, e: number): V3 {
  const P = p.components.Position;
  return [P.x[e], P.y[e], P.z[e]];
}

/**
 * Measures the scene as it stands (between ticks). A sphere is squeezed when it is within `squeeze`
 * (a fraction of its radius) of a static box as well as inside a kinematic one.
 */
export function depths(s: Scene, squeeze = 1e-6): Depths {
  const p = s.physics;
  const r = p.components.Sphere.radius;
  const out: Depths = { statics: 0, kinematics: 0, unsqueezed: 0, spheres: 0 };
  for (let i = 0; i < s.spheres.length; i++) {
    const a = s.spheres[i];
    const c = at(p, a);
    let nearStatic = false;
    for (const b of s.statics) {
      const d = (r[a] - boxDistance(c, at(p, b.eid), b.h, b.q)) / r[a];
      if (d > out.statics) out.statics = d;
      if (d > -squeeze) nearStatic = true;
    }
    for (const b of s.kinematics) {
      const d = (r[a] - boxDistance(c, at(p, b.eid), b.h, b.q)) / r[a];
      if (d > out.kinematics) out.kinematics = d;
      if (!nearStatic && d > out.unsqueezed) out.unsqueezed = d;
    }
    for (let j = i + 1; j < s.spheres.length; j++) {
      const b = s.spheres[j];
      const q = at(p, b);
      const d = (r[a] + r[b] - Math.hypot(c[0] - q[0], c[1] - q[1], c[2] - q[2])) / (r[a] + r[b]);
      if (d > out.spheres) out.spheres = d;
    }
  }
  return out;
}

/** Ticks whose end exceeds `tol` in each measure, and the worst depths, over `ticks` steps. */
export function runScene(s: Scene, ticks: number, tol = 1e-9): { bad: Record<keyof Depths, number>; worst: Depths } {
  const bad = { statics: 0, kinematics: 0, unsqueezed: 0, spheres: 0 };
  const worst: Depths = { statics: 0, kinematics: 0, unsqueezed: 0, spheres: 0 };
  for (let t = 0; t < ticks; t++) {
    step(s.physics);
    const d = depths(s);
    for (const k of Object.keys(bad) as Array<keyof Depths>) {
      if (d[k] > tol) bad[k]++;
      if (d[k] > worst[k]) worst[k] = d[k];
    }
  }
  return { bad, worst };
}

/** A kinematic platform rising at 2 u/s carrying a column of `n` spheres (r 0.5, 'slide', gravity −9.81). */
export function carrier(n: number, options: PhysicsOptions = {}): Scene {
  const s = emptyScene({ gravity: [0, -9.81, 0], ...options });
  kinematicBox(s, [0, -0.5, 0], [2, 0.5, 2], [0, 2, 0]);
  for (let i = 0; i < n; i++) dynamicSphere(s, [0, 0.5 + i, 0], 0.5, [0, 0, 0], 'slide');
  return s;
}

/** A kinematic box pushing a row of `n` 'stop' spheres (r 0.5) along a floor at 2 u/s (gravity optional). */
export function pusher(n: number, gravity: boolean, options: PhysicsOptions = {}): Scene {
  const s = emptyScene({ gravity: gravity ? [0, -9.81, 0] : [0, 0, 0], ...options });
  staticBox(s, [0, -0.5, 0], [100, 0.5, 100]);
  kinematicBox(s, [-1.5, 1, 0], [0.5, 1, 1], [2, 0, 0]);
  for (let i = 0; i < n; i++) dynamicSphere(s, [0.5 + i, 0.5, 0], 0.5, [0, 0, 0], 'stop');
  return s;
}

/** A kinematic box (speed u/s along +x) driving into a static wall at x = 3 with a sphere (r 0.5) between. */
export function squeeze(speed: number, mode: 'stop' | 'slide' | 'bounce' = 'slide', options: PhysicsOptions = {}): Scene {
  const s = emptyScene(options);
  staticBox(s, [3.25, 0, 0], [0.25, 2, 2]);
  kinematicBox(s, [-1, 0, 0], [0.5, 2, 2], [speed, 0, 0]);
  dynamicSphere(s, [1, 0, 0], 0.5, [0, 0, 0], mode);
  return s;
}

/** Newton's cradle: `n` equal spheres (r 0.5, restitution 1) in a touching row, the first at `speed` u/s into it. */
export function cradle(n: number, speed: number, options: PhysicsOptions = {}): Scene {
  const s = emptyScene(options);
  for (let i = 0; i < n; i++) dynamicSphere(s, [i, 0, 0], 0.5, [i === 0 ? speed : 0, 0, 0], 'bounce', 1);
  return s;
}

/** Momentum (mass radius³ by default) of the scene's spheres along x, y, z. */
export function momentum(s: Scene): V3 {
  const p = s.physics;
  const { Velocity: v, Sphere: sp } = p.components;
  const m: V3 = [0, 0, 0];
  for (const e of s.spheres) {
    const mass = sp.radius[e] ** 3;
    m[0] += mass * v.x[e];
    m[1] += mass * v.y[e];
    m[2] += mass * v.z[e];
  }
  return m;
}
