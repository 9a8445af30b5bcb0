/**
 * The brute-force model of the world pipeline used by the fuzz tests: its own copy of every body,
 * every pair tested with the public geometry functions, its own integration; and the checks that
 * compare a physics instance with it bit for bit. Semantics: see model.test.ts.
 */
import { hasComponent, type World } from 'bitecs';
import {
  addBox, addSphere, castBoxBox, castSphereBox, castSphereSphere, contactBoxBox, contactSphereBox, contactSphereSphere, ContactFlags, EndedFlags,
  type BoxShape, type CastResult, type ContactResult, type Physics, type SphereShape,
} from '../../src/index.js';
import { internalsOf } from '../../src/physics/internal.js';
import type { QuatTuple, Vec3Tuple } from '../../src/scenes/sceneFile.js';
import type { BodyData } from '../support/bodies.js';

export type V3 = Vec3Tuple;
export type Q4 = QuatTuple;

/** The model's copy of a body: its data, with the filter's defaults filled in. */
export interface MBody extends BodyData {
  group: number;
  mask: number;
}

export interface MContact {
  a: number;
  b: number;
  n: V3;
  depth: number;
  p: V3;
  toi: number;
  flags: number;
}

/** addBox / setRotation store the quaternion as given (normalised only where it is used). */
export function storeQuat(q: Q4): Q4 {
  return [q[0], q[1], q[2], q[3]];
}

/** The rotation used by the narrowphase: the stored one, normalised again unless |q|² is exactly 1. */
export function useQuat(q: Q4): Q4 {
  const n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (n2 === 1) return q;
  const inv = 1 / Math.sqrt(n2);
  return [q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv];
}

/** A box body as the geometry functions take it (rotation as the narrowphase uses it). */
function boxShape(B: MBody): BoxShape {
  const q = useQuat(B.rotation);
  return {
    center: { x: B.position[0], y: B.position[1], z: B.position[2] },
    halfExtents: { x: B.halfExtents[0], y: B.halfExtents[1], z: B.halfExtents[2] },
    rotation: { x: q[0], y: q[1], z: q[2], w: q[3] },
  };
}

const contact: ContactResult = { normal: { x: 0, y: 0, z: 0 }, depth: 0, point: { x: 0, y: 0, z: 0 } };
const cast: CastResult = { toi: 0, normal: { x: 0, y: 0, z: 0 }, point: { x: 0, y: 0, z: 0 } };

export class Model {
  bodies = new Map<number, MBody>();
  previous: string[] = [];
  removed = new Set<number>();
  contacts: MContact[] = [];
  began: string[] = [];
  ended: string[] = [];
  constructor(readonly dt: number, readonly continuous: boolean) {}

  motion(b: MBody): V3 {
    const v = b.velocity;
    if (v === null || !this.continuous) return [0, 0, 0];
    return [v[0] * this.dt, v[1] * this.dt, v[2] * this.dt];
  }

  step(): void {
    const ids = [...this.bodies.keys()].sort((x, y) => x - y);
    const gone = (k: string) => k.split('-').map(Number).some((e) => this.removed.has(e));
    const prevSet = new Set(this.previous.filter((k) => !gone(k)));
    // Pairs of removed bodies end with the REMOVED flag (written `a-b removed`), in pair order.
    const prevList = this.previous.map((k) => (gone(k) ? `${k} removed` : k));
    this.removed.clear();
    const out: MContact[] = [];
    for (const a of ids) {
      const A = this.bodies.get(a)!;
      for (const b of ids) {
        if (b === a) continue;
        const B = this.bodies.get(b)!;
        // a is a sphere (b a box, or a sphere of a higher id), or both are boxes, a < b, one moving.
        if (A.shape === 'sphere' ? B.shape === 'sphere' && b < a : B.shape === 'sphere' || b < a || (A.velocity === null && B.velocity === null)) continue;
        if ((A.group & B.mask) === 0 || (B.group & A.mask) === 0) continue;
        const mA = this.motion(A);
        const mB = this.motion(B);
        const movingA = mA[0] !== 0 || mA[1] !== 0 || mA[2] !== 0;
        const movingB = mB[0] !== 0 || mB[1] !== 0 || mB[2] !== 0;
        const m = { x: mA[0] - mB[0], y: mA[1] - mB[1], z: mA[2] - mB[2] };
        const moving = (movingA || movingB) && (m.x !== 0 || m.y !== 0 || m.z !== 0);
        const sa: SphereShape = { center: { x: A.position[0], y: A.position[1], z: A.position[2] }, radius: A.radius };
        let hit = 0; // 1 contact, 2 cast
        if (A.shape === 'box') {
          const boxA = boxShape(A);
          const boxB = boxShape(B);
          if (contactBoxBox(boxA, boxB, contact)) hit = 1;
          else if (moving && castBoxBox(boxA, m, boxB, cast)) hit = 2;
        } else if (B.shape === 'sphere') {
          const sb: SphereShape = { center: { x: B.position[0], y: B.position[1], z: B.position[2] }, radius: B.radius };
          if (contactSphereSphere(sa, sb, contact)) hit = 1;
          else if (moving && castSphereSphere(sa, m, sb, cast)) hit = 2;
        } else {
          const box = boxShape(B);
          if (contactSphereBox(sa, box, contact)) hit = 1;
          else if (moving && castSphereBox(sa, m, box, cast)) hit = 2;
        }
        if (hit === 0) continue;
        const r = hit === 2 ? cast : contact;
        const t = hit === 2 ? cast.toi : 0;
        out.push({
          a, b,
          n: [r.normal.x, r.normal.y, r.normal.z],
          depth: hit === 2 ? 0 : contact.depth,
          p: [r.point.x + t * mB[0], r.point.y + t * mB[1], r.point.z + t * mB[2]],
          toi: t,
          flags: (A.sensor || B.sensor ? ContactFlags.SENSOR : 0) | (prevSet.has(`${a}-${b}`) ? ContactFlags.PERSISTING : ContactFlags.BEGAN),
        });
      }
    }
    out.sort((x, y) => x.a - y.a || x.b - y.b);
    const now = new Set(out.map((c) => `${c.a}-${c.b}`));
    this.contacts = out;
    this.began = out.filter((c) => (c.flags & ContactFlags.BEGAN) !== 0).map((c) => `${c.a}-${c.b}`);
    this.ended = prevList.filter((k) => !now.has(k));  // (a removed pair never matches: its key has a suffix)
    this.previous = out.map((c) => `${c.a}-${c.b}`);
    for (const b of this.bodies.values()) {
      const p = b.position;
      const v = b.velocity;
      if (v === null) continue;
      b.position = [p[0] + v[0] * this.dt, p[1] + v[1] * this.dt, p[2] + v[2] * this.dt];
    }
  }

  /** Expected Contact component data per touching entity (primary chosen in float64). */
  contactData(): Map<number, { other: number; n: V3; depth: number; toi: number; p: V3; count: number }> {
    const best = new Map<number, { c: MContact; other: number; sign: number; count: number }>();
    const offer = (e: number, other: number, c: MContact, sign: number) => {
      const cur = best.get(e);
      if (cur !== undefined) {
        cur.count = Math.min(cur.count + 1, 0xffff);
        if (c.toi > cur.c.toi || (c.toi === cur.c.toi && c.depth <= cur.c.depth)) return;
        cur.c = c;
        cur.other = other;
        cur.sign = sign;
        return;
      }
      best.set(e, { c, other, sign, count: 1 });
    };
    for (const c of this.contacts) {
      offer(c.a, c.b, c, 1);
      offer(c.b, c.a, c, -1);
    }
    const m = new Map<number, { other: number; n: V3; depth: number; toi: number; p: V3; count: number }>();
    for (const [e, { c, other, sign, count }] of best) {
      const n: V3 = [Math.fround(sign * c.n[0]), Math.fround(sign * c.n[1]), Math.fround(sign * c.n[2])];
      m.set(e, { other, n, depth: Math.fround(c.depth), toi: Math.fround(c.toi), p: c.p, count });
    }
    return m;
  }
}

export interface Sut {
  world: World;
  physics: Physics;
  model: Model;
  buffer: Uint8Array;
}

export function fail(msg: string, s: Sut): never {
  throw new Error(`${msg} (tick ${s.physics.tick}, ${s.model.bodies.size} bodies)`);
}

/** A body to add through the helpers: no rotation (null) means the identity; no filter, the defaults. */
export interface NewBody extends Omit<BodyData, 'rotation'> {
  rotation: Q4 | null;
  filter?: [group: number, mask: number];
}

/** Adds a body with `addSphere` / `addBox` and the same body to the model; returns its id. */
export function addBody(s: Sut, b: NewBody): number {
  const { physics, model } = s;
  const common = {
    position: b.position, sensor: b.sensor,
    ...(b.velocity ? { velocity: b.velocity } : {}),
    ...(b.filter ? { group: b.filter[0], mask: b.filter[1] } : {}),
  };
  const sphere = b.shape === 'sphere';
  const eid = sphere
    ? addSphere(physics, { ...common, radius: b.radius })
    : addBox(physics, { ...common, halfExtents: b.halfExtents, ...(b.rotation ? { rotation: b.rotation } : {}) });
  if (model.bodies.has(eid)) fail(`new body got the id ${eid} of a live body`, s);
  model.bodies.set(eid, {
    shape: b.shape, position: [...b.position], velocity: b.velocity ? [...b.velocity] : null,
    radius: sphere ? b.radius : 0, halfExtents: sphere ? [0, 0, 0] : [...b.halfExtents],
    rotation: !sphere && b.rotation ? storeQuat(b.rotation) : [0, 0, 0, 1],
    sensor: b.sensor, group: b.filter ? b.filter[0] : 1, mask: b.filter ? b.filter[1] : 0xffffffff,
  });
  return eid;
}

export const fmt = (c: MContact) => `${c.a}-${c.b} n=(${c.n.join(', ')}) depth=${c.depth} p=(${c.p.join(', ')}) toi=${c.toi} flags=${c.flags}`;

export function check(s: Sut): void {
  const { physics, model, world } = s;
  const l = physics.contacts;
  const got: MContact[] = [];
  for (let i = 0; i < l.count; i++) {
    got.push({ a: l.a[i], b: l.b[i], n: [l.nx[i], l.ny[i], l.nz[i]], depth: l.depth[i], p: [l.px[i], l.py[i], l.pz[i]], toi: l.toi[i], flags: l.flags[i] });
  }
  const want = model.contacts;
  const g = got.map(fmt);
  const w = want.map(fmt);
  if (g.join('\n') !== w.join('\n')) {
    const missing = w.filter((x) => !g.includes(x));
    const extra = g.filter((x) => !w.includes(x));
    fail(`contacts differ from the brute-force model:\n missing: ${missing.join('\n   ')}\n extra:   ${extra.join('\n   ')}`, s);
  }
  const pairs = (p: { count: number; a: Uint32Array; b: Uint32Array }) => Array.from({ length: p.count }, (_, i) => `${p.a[i]}-${p.b[i]}`).join(' ');
  if (pairs(physics.began) !== model.began.join(' ')) fail(`began ${pairs(physics.began)} != model ${model.began.join(' ')}`, s);
  const ended = Array.from({ length: physics.ended.count }, (_, i) => `${physics.ended.a[i]}-${physics.ended.b[i]}${(physics.ended.flags[i] & EndedFlags.REMOVED) !== 0 ? ' removed' : ''}`).join(' ');
  if (ended !== model.ended.join(' ')) fail(`ended ${ended} != model ${model.ended.join(' ')}`, s);
  const P = physics.components.Position;
  const C = physics.components.Contact;
  const data = model.contactData();
  for (const [e, b] of model.bodies) {
    const p = b.position;
    if (!Object.is(P.x[e], p[0]) || !Object.is(P.y[e], p[1]) || !Object.is(P.z[e], p[2])) {
      fail(`position of ${e} is (${P.x[e]}, ${P.y[e]}, ${P.z[e]}), model (${p.join(', ')})`, s);
    }
    const d = data.get(e);
    const has = hasComponent(world, e, C);
    if (has !== (d !== undefined)) fail(`entity ${e}: Contact component ${has ? 'present' : 'absent'}, model says ${d ? 'touching' : 'not touching'}`, s);
    if (d === undefined) continue;
    const gotD = [C.other[e], C.count[e], C.nx[e], C.ny[e], C.nz[e], C.depth[e], C.toi[e], C.px[e], C.py[e], C.pz[e]].join(',');
    const wantD = [d.other, d.count, ...d.n, d.depth, d.toi, ...d.p].join(',');
    if (gotD !== wantD) fail(`entity ${e}: Contact data ${gotD}, model ${wantD}`, s);
  }
}

/** The library's observable state (contacts, began/ended, positions, Contact presence and data) as a string. */
export function libraryState(s: Sut): string {
  const { physics, world, model } = s;
  const l = physics.contacts;
  const C = physics.components.Contact;
  const P = physics.components.Position;
  const parts: string[] = [`tick ${physics.tick}`];
  for (let i = 0; i < l.count; i++) parts.push(`${l.a[i]}-${l.b[i]} ${l.nx[i]} ${l.ny[i]} ${l.nz[i]} ${l.depth[i]} ${l.px[i]} ${l.py[i]} ${l.pz[i]} ${l.toi[i]} ${l.flags[i]}`);
  for (const list of [physics.began, physics.ended, internalsOf(physics).contacts.previous]) {
    parts.push(Array.from({ length: list.count }, (_, i) => `${list.a[i]}-${list.b[i]}`).join(' '));
  }
  parts.push(Array.from(physics.ended.flags.subarray(0, physics.ended.count)).join(' '));
  for (const e of [...model.bodies.keys()].sort((a, b) => a - b)) {
    parts.push(`${e}: ${P.x[e]} ${P.y[e]} ${P.z[e]} ${hasComponent(world, e, C) ? [C.other[e], C.count[e], C.nx[e], C.ny[e], C.nz[e], C.depth[e], C.toi[e], C.px[e], C.py[e], C.pz[e]].join(' ') : '-'}`);
  }
  return parts.join('\n');
}
