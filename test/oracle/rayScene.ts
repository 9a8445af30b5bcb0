/**
 * Random scenes and queries for the world-query property tests (fast-check arbitraries), and the
 * oracle's view of a physics instance (its bodies where their data is now).
 */
import { createWorld, hasComponent } from 'bitecs';
import fc from 'fast-check';
import {
  addBox, addSphere, createPhysics, markStaticDirty, setPosition, step,
  type Physics,
} from '../../src/index.js';
import type { OracleBody, P3 } from './ray.js';

export interface BodySpec {
  kind: 'sphere' | 'box';
  c: P3;
  radius: number;
  h: P3;
  q: [number, number, number, number] | null;
  moving: boolean;
  v: P3;
  group: number;
  mask: number;
  sensor: boolean;
}

export interface SceneSpec {
  bodies: BodySpec[];
  steps: number;
  /** Bodies moved after the last step: [index, new position, by helper (else direct write + markStaticDirty)]. */
  moves: Array<[number, P3, boolean]>;
}

const coord = fc.oneof(
  fc.double({ min: -20, max: 20, noNaN: true }),
  fc.integer({ min: -40, max: 40 }).map((k) => k / 2),
);
const p3 = fc.tuple(coord, coord, coord) as fc.Arbitrary<P3>;
const size = fc.oneof(
  fc.double({ min: 0, max: 3, noNaN: true }),
  fc.constant(0),
  fc.integer({ min: 1, max: 6 }).map((k) => k / 2),
  fc.double({ min: 5, max: 30, noNaN: true }),
);
const quat = fc.oneof(
  fc.constant(null),
  fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
    .filter((q) => Math.hypot(...q) > 0.1) as fc.Arbitrary<[number, number, number, number]>,
  fc.constant([0, 0, Math.SQRT1_2, Math.SQRT1_2] as [number, number, number, number]),
);
const bits = fc.constantFrom(1, 2, 3, 0xffffffff, 4);

const body: fc.Arbitrary<BodySpec> = fc.record({
  kind: fc.constantFrom('sphere' as const, 'box' as const),
  c: p3,
  radius: size,
  h: fc.tuple(size, size, fc.oneof(size, fc.constant(0))) as fc.Arbitrary<P3>,
  q: quat,
  moving: fc.boolean(),
  v: p3,
  group: bits,
  mask: bits,
  sensor: fc.boolean(),
});

export const sceneArb: fc.Arbitrary<SceneSpec> = fc.record({
  bodies: fc.array(body, { minLength: 0, maxLength: 30 }),
  steps: fc.integer({ min: 0, max: 2 }),
  moves: fc.array(fc.tuple(fc.nat(29), p3, fc.boolean()), { maxLength: 4 }),
});

/** Builds the scene: bodies, steps, then the moves since the last step. */
export function buildScene(spec: SceneSpec): Physics {
  const physics = createPhysics(createWorld(), { contactComponent: false });
  const ids: number[] = [];
  for (const b of spec.bodies) {
    const common = {
      position: b.c,
      velocity: b.moving ? b.v : undefined,
      group: b.group,
      mask: b.mask,
      sensor: b.sensor,
    };
    ids.push(b.kind === 'sphere'
      ? addSphere(physics, { ...common, radius: b.radius })
      : addBox(physics, { ...common, halfExtents: b.h, rotation: b.q ?? undefined }));
  }
  for (let i = 0; i < spec.steps; i++) step(physics);
  for (const [k, p, helper] of spec.moves) {
    if (ids.length === 0) break;
    const eid = ids[k % ids.length];
    if (helper) setPosition(physics, eid, p);
    else {
      const P = physics.components.Position;
      P.x[eid] = p[0];
      P.y[eid] = p[1];
      P.z[eid] = p[2];
      markStaticDirty(physics);
    }
  }
  return physics;
}

/** The bodies of `physics` where their data is now, for the oracle (unit rotations). */
export function oracleBodies(physics: Physics, maxEid: number): OracleBody[] {
  const { Position: p, Sphere, Box, CollisionFilter: F } = physics.components;
  const out: OracleBody[] = [];
  const world = physics.world;
  for (let eid = 1; eid <= maxEid; eid++) {
    const has = (c: object) => hasComponentOf(world, eid, c);
    if (!has(p)) continue;
    const sphere = has(Sphere);
    if (!sphere && !has(Box)) continue;
    const qn = Math.hypot(Box.qx[eid], Box.qy[eid], Box.qz[eid], Box.qw[eid]);
    out.push({
      eid,
      kind: sphere ? 'sphere' : 'box',
      c: [p.x[eid], p.y[eid], p.z[eid]],
      radius: Sphere.radius[eid],
      h: [Box.hx[eid], Box.hy[eid], Box.hz[eid]],
      q: sphere ? [0, 0, 0, 1] : [Box.qx[eid] / qn, Box.qy[eid] / qn, Box.qz[eid] / qn, Box.qw[eid] / qn],
      group: F.group[eid],
      mask: F.mask[eid],
      sensor: has(physics.components.Sensor),
    });
  }
  return out;
}

function hasComponentOf(world: Physics['world'], eid: number, c: object): boolean {
  return hasComponent(world, eid, c);
}

export interface QuerySpec {
  o: P3;
  d: P3;
  L: number;
  r: number;
  h: P3;
  q: [number, number, number, number] | undefined;
  filter: { group?: number; mask?: number; exclude?: number; sensors?: boolean } | undefined;
}

const dirArb = fc.oneof(
  p3.filter((d) => Math.hypot(...d) > 1e-3),
  fc.constantFrom<P3>([1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1], [1, 1, 0], [0, -1, 1]),
);

/** A query: origins at random points, on cell boundaries (halves), at body centres (inside), or grazing a body. */
export function queryArb(bodies: number): fc.Arbitrary<{ spec: QuerySpec; aim: number; mode: number }> {
  return fc.record({
    spec: fc.record({
      o: p3,
      d: dirArb,
      L: fc.oneof(fc.double({ min: 0, max: 60, noNaN: true }), fc.constant(0), fc.constant(1000)),
      r: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 4, noNaN: true })),
      h: fc.tuple(size, size, size) as fc.Arbitrary<P3>,
      q: fc.oneof(fc.constant(undefined), quat.map((q) => q ?? undefined)),
      filter: fc.oneof(
        fc.constant(undefined),
        fc.record({ group: bits, mask: bits, exclude: fc.nat(bodies + 1), sensors: fc.boolean() }, { requiredKeys: [] }),
      ),
    }),
    aim: fc.nat(Math.max(0, bodies - 1)),
    mode: fc.nat(4),
  });
}

/** Applies the aim mode: 0 free, 1 from inside body `aim`, 2 grazing body `aim` (tangent or along a face), 3–4 at it. */
export function aimQuery(spec: QuerySpec, bodies: OracleBody[], aim: number, mode: number): QuerySpec {
  if (bodies.length === 0 || mode === 0) return spec;
  const b = bodies[aim % bodies.length];
  const len = Math.hypot(...spec.d);
  const d: P3 = [spec.d[0] / len, spec.d[1] / len, spec.d[2] / len];
  if (mode === 1) return { ...spec, o: [...b.c] as P3 };
  if (mode >= 3) {
    const back = 10;
    return { ...spec, o: [b.c[0] - d[0] * back, b.c[1] - d[1] * back, b.c[2] - d[2] * back], L: Math.max(spec.L, 20) };
  }
  // grazing: offset perpendicular to d by the body's reach (sphere: R + r; box: along a local axis by h + r)
  const a: P3 = Math.abs(d[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u: P3 = [d[1] * a[2] - d[2] * a[1], d[2] * a[0] - d[0] * a[2], d[0] * a[1] - d[1] * a[0]];
  const ul = Math.hypot(...u);
  const reach = b.kind === 'sphere' ? b.radius + spec.r : b.h[0] + spec.r;
  const dir: P3 = b.kind === 'box' && b.q[3] === 1 && b.q[0] === 0 ? [0, 1, 0] : d;
  const off: P3 = b.kind === 'box' && dir !== d ? [reach, 0, 0] : [u[0] / ul * reach, u[1] / ul * reach, u[2] / ul * reach];
  return { ...spec, d: dir, o: [b.c[0] + off[0] - dir[0] * 8, b.c[1] + off[1] - dir[1] * 8, b.c[2] + off[2] - dir[2] * 8], L: 30 };
}
