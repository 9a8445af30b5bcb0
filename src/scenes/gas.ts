/**
 * The bouncing gas (issue 24, item 4): `spheres` spheres of radius 0.5 on a cubic lattice (spacing
 * 3, no initial overlaps) in a closed cube of six static walls, each moving `radiiPerTick` radii per
 * tick (default 20) in a seeded random direction, BOUNCE with restitution 1, sphere–sphere on. The
 * density is the same at every size (the cube grows with the cube root of the count), so the
 * impacts per tick grow linearly with the count. `dynamic: false` makes the same spheres kinematic
 * (detection only: contacts, no response); they are then reflected at the cube's walls after each
 * step, by position and velocity, to stay in it. Shared by the response tests and bench/gas.ts.
 */
import { createWorld } from 'bitecs';
import { addBox, addSphere, createPhysics, step, type Physics } from '../index.js';
import { createRng } from './prng.js';
import { cubeRoot } from '../math/cubeRoot.js';

export interface GasOptions {
  spheres: number;
  seed?: number;
  dynamic: boolean;
  radiiPerTick?: number;
}

export interface Gas {
  physics: Physics;
  sphereIds: Uint32Array;
  /** The cube's inner side (its inside is [0, side]³). */
  side: number;
  tick(): void;
}

const R = 0.5, SPACING = 3, DT = 1 / 60;

export function buildGas(o: GasOptions): Gas {
  const n = o.spheres;
  const perSide = Math.max(1, Math.ceil(cubeRoot(n)));
  const side = perSide * SPACING;
  const physics = createPhysics(createWorld(), { capacity: n + 8, dt: DT, contactComponent: false });
  const wall = 1;
  for (let axis = 0; axis < 3; axis++) {
    for (const lo of [true, false]) {
      const c: [number, number, number] = [side / 2, side / 2, side / 2];
      c[axis] = lo ? -wall : side + wall;
      const h: [number, number, number] = [side / 2 + 2 * wall, side / 2 + 2 * wall, side / 2 + 2 * wall];
      h[axis] = wall;
      addBox(physics, { position: c, halfExtents: h });
    }
  }
  const rng = createRng(o.seed ?? 1);
  const speed = ((o.radiiPerTick ?? 20) * R) / DT;
  const sphereIds = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const x = (i % perSide) + 0.5, y = (Math.floor(i / perSide) % perSide) + 0.5, z = Math.floor(i / (perSide * perSide)) + 0.5;
    let dx = 0, dy = 0, dz = 0, l = 0;
    do {
      dx = rng.range(-1, 1);
      dy = rng.range(-1, 1);
      dz = rng.range(-1, 1);
      l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    } while (l < 0.1 || l > 1);
    const velocity: [number, number, number] = [(speed * dx) / l, (speed * dy) / l, (speed * dz) / l];
    const position: [number, number, number] = [x * SPACING, y * SPACING, z * SPACING];
    sphereIds[i] = o.dynamic
      ? addSphere(physics, { position, velocity, radius: R, response: 'bounce', restitution: 1 })
      : addSphere(physics, { position, velocity, radius: R });
  }
  const P = physics.components.Position, V = physics.components.Velocity;
  const reflect = (): void => {
    for (const e of sphereIds) {
      for (const [p, v] of [[P.x, V.x], [P.y, V.y], [P.z, V.z]]) {
        if (p[e] < R) { p[e] = 2 * R - p[e]; v[e] = Math.abs(v[e]); }
        if (p[e] > side - R) { p[e] = 2 * (side - R) - p[e]; v[e] = -Math.abs(v[e]); }
      }
    }
  };
  const tick = o.dynamic ? () => step(physics) : () => { step(physics); reflect(); };
  return { physics, sphereIds, side, tick };
}
