/**
 * Shared helpers of the pipeline tests: reading the physics outputs as plain data, comparing them with
 * the brute-force oracle (test/oracle/bruteForce.ts), and random scenarios for property tests.
 */
import fc from 'fast-check';
import { addComponent, addEntity, createWorld, hasComponent, observe, onAdd, onRemove, removeEntity, type World } from 'bitecs';
import {
  addBox,
  addSphere,
  createPhysics,
  removeBody,
  setPosition,
  setVelocity,
  step,
  type PairList,
  type Physics,
  type PhysicsOptions,
} from '../../src/index.js';
import {
  createBruteForceTracker,
  expectedContactComponents,
  type BruteForceTracker,
  type ExpectedContact,
  type ExpectedTick,
} from '../oracle/bruteForce.js';
import type { QuatTuple, Vec3Tuple } from '../../src/scenes/sceneFile.js';
import { addRawBody, type BodyData } from './bodies.js';

// ---------------------------------------------------------------------------------------------
// Reading outputs

export function readContacts(physics: Physics): ExpectedContact[] {
  const l = physics.contacts;
  const out: ExpectedContact[] = [];
  for (let i = 0; i < l.count; i++) {
    out.push({
      a: l.a[i], b: l.b[i], nx: l.nx[i], ny: l.ny[i], nz: l.nz[i], depth: l.depth[i],
      px: l.px[i], py: l.py[i], pz: l.pz[i], toi: l.toi[i], flags: l.flags[i],
    });
  }
  return out;
}

export function readPairs(list: PairList): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < list.count; i++) out.push([list.a[i], list.b[i]]);
  return out;
}

/** Equal as numbers (+0 and −0 alike), NaN equal to NaN, or within `tol` (absolute). */
export function sameNumber(x: number, y: number, tol = 0): boolean {
  if (x === y || (Number.isNaN(x) && Number.isNaN(y))) return true;
  return Math.abs(x - y) <= tol;
}

const FLOAT_FIELDS = ['nx', 'ny', 'nz', 'depth', 'px', 'py', 'pz', 'toi'] as const;

/** Throws a descriptive error when the contact lists differ (pairs and flags exactly, floats within tol). */
export function assertSameContacts(actual: ExpectedContact[], expected: ExpectedContact[], label: string, tol = 0): void {
  const pairs = (l: ExpectedContact[]) => l.map((k) => `${k.a}-${k.b}`).join(' ');
  if (actual.length !== expected.length || pairs(actual) !== pairs(expected)) {
    throw new Error(`${label}: contact pairs differ\n  actual:   ${pairs(actual)}\n  expected: ${pairs(expected)}`);
  }
  for (let i = 0; i < actual.length; i++) {
    const x = actual[i];
    const y = expected[i];
    if (x.flags !== y.flags) throw new Error(`${label}: flags of ${x.a}-${x.b}: actual ${x.flags}, expected ${y.flags}`);
    for (const f of FLOAT_FIELDS) {
      if (!sameNumber(x[f], y[f], tol)) {
        throw new Error(`${label}: ${f} of ${x.a}-${x.b}: actual ${x[f]}, expected ${y[f]}\n  actual ${JSON.stringify(x)}\n  expected ${JSON.stringify(y)}`);
      }
    }
  }
}

export function assertSamePairs(actual: [number, number][], expected: [number, number][], label: string): void {
  const s = (l: [number, number][]) => l.map(([a, b]) => `${a}-${b}`).join(' ');
  if (s(actual) !== s(expected)) throw new Error(`${label}\n  actual:   ${s(actual)}\n  expected: ${s(expected)}`);
}

/** Checks the whole tick output (contacts, began, ended with its flags) against the oracle's expectation. */
export function assertTick(physics: Physics, expected: ExpectedTick, label: string, tol = 0): void {
  assertSameContacts(readContacts(physics), expected.contacts, `${label}: contacts`, tol);
  assertSamePairs(readPairs(physics.began), expected.began, `${label}: began`);
  assertSamePairs(readPairs(physics.ended), expected.ended, `${label}: ended`);
  const flags = Array.from(physics.ended.flags.subarray(0, physics.ended.count));
  if (flags.join(',') !== expected.endedFlags.join(',')) throw new Error(`${label}: ended flags [${flags.join(',')}], expected [${expected.endedFlags.join(',')}]`);
}

/**
 * Checks every listed body's Contact component against the contact list: present exactly on the
 * touching entities, with the primary contact's data (float32 fields rounded with Math.fround).
 */
export function assertContactComponents(
  physics: Physics, bodies: Iterable<number>, contacts: ExpectedContact[], label: string,
  compare: 'float64' | 'float32' = 'float64',
): void {
  const C = physics.components.Contact;
  const want = expectedContactComponents(contacts, compare);
  for (const eid of bodies) {
    const has = hasComponent(physics.world, eid, C);
    const w = want.get(eid);
    if (has !== (w !== undefined)) throw new Error(`${label}: entity ${eid} has Contact = ${has}, expected ${w !== undefined}`);
    if (!w) continue;
    const got = {
      other: C.other[eid], nx: C.nx[eid], ny: C.ny[eid], nz: C.nz[eid], depth: C.depth[eid],
      px: C.px[eid], py: C.py[eid], pz: C.pz[eid], toi: C.toi[eid], count: C.count[eid],
    };
    const exp = {
      other: w.other, nx: Math.fround(w.nx), ny: Math.fround(w.ny), nz: Math.fround(w.nz), depth: Math.fround(w.depth),
      px: w.px, py: w.py, pz: w.pz, toi: Math.fround(w.toi), count: w.count,
    };
    for (const k of Object.keys(exp) as (keyof typeof exp)[]) {
      if (!sameNumber(got[k], exp[k])) {
        throw new Error(`${label}: Contact.${k} of entity ${eid}: actual ${got[k]}, expected ${exp[k]}\n  actual ${JSON.stringify(got)}\n  expected ${JSON.stringify(exp)}`);
      }
    }
  }
}

/** Counts Contact add/remove events (bitecs observers) per entity. */
export function watchContactEvents(physics: Physics): { added: number[]; removed: number[]; reset(): void; dispose(): void } {
  const C = physics.components.Contact;
  const ev = {
    added: [] as number[],
    removed: [] as number[],
    reset() {
      ev.added.length = 0;
      ev.removed.length = 0;
    },
    dispose() {
      offA();
      offR();
    },
  };
  const offA = observe(physics.world, onAdd(C), (eid: number) => void ev.added.push(eid));
  const offR = observe(physics.world, onRemove(C), (eid: number) => void ev.removed.push(eid));
  return ev;
}

// ---------------------------------------------------------------------------------------------
// Random scenarios

type V3 = Vec3Tuple;

export interface BodySpec extends BodyData {
  group: number | null;
  mask: number | null;
  /** Create through raw bitecs addComponent calls instead of the helpers. */
  raw: boolean;
}

export type Op =
  | { t: 'add'; body: BodySpec }
  | { t: 'ghost' }
  | { t: 'remove'; pick: number }
  | { t: 'vel'; pick: number; vel: V3 }
  | { t: 'pos'; pick: number; pos: V3 };

export interface Scenario {
  continuous: boolean;
  dt: number;
  cellSize: number | null;
  bodies: BodySpec[];
  ticks: Op[][];
}

const S = Math.SQRT1_2;
const ROTATIONS: QuatTuple[] = [
  [0, 0, 0, 1],
  [0, 0, S, S], // 90° about z
  [1, 0, 0, 0], // 180° about x
  [0, S, 0, S], // 90° about y
  [0.5, 0.5, 0.5, 0.5], // 120° about (1,1,1)
];

/** Doubles from 53 random bits (fc.double is dominated by tiny magnitudes). */
const u01 = fc
  .tuple(fc.integer({ min: 0, max: 2 ** 26 - 1 }), fc.integer({ min: 0, max: 2 ** 27 - 1 }))
  .map(([a, b]) => (a * 2 ** 27 + b) / 2 ** 53);
const uRange = (lo: number, hi: number) => u01.map((u) => lo + (hi - lo) * u);

const randomQuat: fc.Arbitrary<QuatTuple> = fc
  .tuple(uRange(-1, 1), uRange(-1, 1), uRange(-1, 1), uRange(-1, 1))
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 1e-3)
  .map(([x, y, z, w]) => [x, y, z, w]);

/**
 * A scenario on an integer lattice (exact touching) or with arbitrary floats. `boxes`: the share of
 * boxes among the bodies (default 1/3; moving and static alike).
 */
export function scenarioArb(
  options: { maxBodies?: number; maxTicks?: number; lattice?: boolean; range?: number; boxes?: number } = {},
): fc.Arbitrary<Scenario> {
  const maxBodies = options.maxBodies ?? 12;
  const boxWeight = Math.round(12 * (options.boxes ?? 1 / 3));
  const shape = fc.oneof(
    { weight: 12 - boxWeight, arbitrary: fc.constant<'sphere' | 'box'>('sphere') },
    { weight: boxWeight, arbitrary: fc.constant<'sphere' | 'box'>('box') },
  );
  const maxTicks = options.maxTicks ?? 6;
  const range = options.range ?? 4;
  return (options.lattice !== undefined ? fc.constant(options.lattice) : fc.boolean()).chain((lattice) => {
    const coord = lattice ? fc.integer({ min: -range, max: range }) : uRange(-range, range);
    const size = lattice ? fc.constantFrom(0, 0.5, 1, 2) : fc.oneof(fc.constant(0), uRange(0, 2.5));
    const v3 = (c: fc.Arbitrary<number>) => fc.tuple(c, c, c) as fc.Arbitrary<V3>;
    const half = fc.oneof(
      { weight: 3, arbitrary: v3(size) },
      // flat boxes (a rectangle, a segment) and thin plates
      { weight: 1, arbitrary: fc.tuple(size, size).map(([a, b]): V3 => [a, b, 0]) },
      { weight: 1, arbitrary: fc.tuple(size, fc.constantFrom(0, 1e-9)).map(([a, b]): V3 => [b, a, b]) },
    );
    const rot = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...ROTATIONS) },
      { weight: lattice ? 0 : 2, arbitrary: randomQuat },
    );
    return fc.tuple(fc.constantFrom(1, 0.5, 1 / 60), fc.boolean(), fc.option(fc.constantFrom(0.25, 1, 4), { freq: 4 }))
      .chain(([dt, continuous, cellSize]) => {
        // Per-tick displacement: none, slow, or fast (up to 1000 × the largest radius per tick).
        const disp = lattice
          ? fc.oneof(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -2000, max: 2000 }))
          : fc.oneof(uRange(-1, 1), uRange(-2000, 2000));
        const vel = fc.oneof(
          { weight: 2, arbitrary: fc.constant(null) },
          { weight: 4, arbitrary: v3(disp).map((d): V3 => [d[0] / dt, d[1] / dt, d[2] / dt]) },
          // mostly along one axis: fast movers aimed through the scene
          { weight: 2, arbitrary: fc.tuple(disp, fc.integer({ min: 0, max: 2 })).map(([d, ax]): V3 => { const v: V3 = [0, 0, 0]; v[ax] = d / dt; return v; }) },
        );
        const bits = fc.option(fc.constantFrom(1, 2, 3, 0xffffffff), { freq: 3 });
        const base: fc.Arbitrary<BodySpec> = fc.record({
          shape,
          position: v3(coord),
          velocity: vel,
          radius: size,
          halfExtents: half,
          rotation: rot,
          group: bits,
          mask: bits,
          sensor: fc.boolean().chain((b) => (b ? fc.boolean() : fc.constant(false))),
          raw: fc.boolean(),
        });
        // Some movers are aimed through the origin, where the scene is dense (lattice: integer speeds).
        const aim = fc.option(lattice ? fc.integer({ min: 1, max: 2000 }) : uRange(1, 2000), { freq: 3 });
        const body = fc.tuple(base, aim).map(([b, speed]): BodySpec => {
          if (speed === null) return b;
          const d = Math.hypot(...b.position) || 1;
          const v = b.position.map((x) => (lattice ? -Math.sign(x) * speed : (-x / d) * speed) / dt) as V3;
          return { ...b, velocity: v };
        });
        const pick = fc.nat();
        const op: fc.Arbitrary<Op> = fc.oneof(
          { weight: 3, arbitrary: body.map((b) => ({ t: 'add' as const, body: b })) },
          { weight: 1, arbitrary: fc.constant({ t: 'ghost' as const }) },
          { weight: 4, arbitrary: pick.map((p) => ({ t: 'remove' as const, pick: p })) },
          { weight: 2, arbitrary: fc.tuple(pick, vel.filter((v) => v !== null)).map(([p, v]) => ({ t: 'vel' as const, pick: p, vel: v as V3 })) },
          { weight: 3, arbitrary: fc.tuple(pick, v3(coord)).map(([p, pos]) => ({ t: 'pos' as const, pick: p, pos })) },
        );
        return fc.record({
          continuous: fc.constant(continuous),
          dt: fc.constant(dt),
          cellSize: fc.constant(cellSize),
          bodies: fc.array(body, { minLength: 2, maxLength: maxBodies, size: 'max' }),
          ticks: fc.array(fc.array(op, { maxLength: 4 }), { minLength: 1, maxLength: maxTicks, size: 'max' }),
        });
      });
  });
}

// ---------------------------------------------------------------------------------------------
// Running a scenario

export function addSpec(physics: Physics, b: BodySpec): number {
  if (b.raw) return addRawBody(physics, b);
  const common = {
    position: b.position, ...(b.velocity ? { velocity: b.velocity } : {}), sensor: b.sensor,
    ...(b.group !== null ? { group: b.group } : {}), ...(b.mask !== null ? { mask: b.mask } : {}),
  };
  return b.shape === 'sphere'
    ? addSphere(physics, { ...common, radius: b.radius })
    : addBox(physics, { ...common, halfExtents: b.halfExtents, rotation: b.rotation });
}

/** One live instance of a scenario: a world, its physics, the oracle tracker and the entity list. */
export interface Run {
  world: World;
  physics: Physics;
  tracker: BruteForceTracker;
  /** Entities created by the scenario and not removed (bodies and ghosts), in creation order. */
  alive: number[];
  bodies: Set<number>;
  recycled: number;
  everUsed: Set<number>;
  events: ReturnType<typeof watchContactEvents>;
}

export function startRun(sc: Scenario, extra: PhysicsOptions = {}): Run {
  const world = createWorld();
  const physics = createPhysics(world, {
    dt: sc.dt,
    continuous: sc.continuous,
    capacity: 4, // small on purpose: growth by doubling happens during the scenario
    ...(sc.cellSize !== null ? { cellSize: sc.cellSize } : {}),
    ...extra,
  });
  const run: Run = {
    world, physics, tracker: createBruteForceTracker(physics), alive: [], bodies: new Set(), recycled: 0,
    everUsed: new Set(), events: watchContactEvents(physics),
  };
  for (const b of sc.bodies) track(run, addSpec(physics, b), true);
  return run;
}

function track(run: Run, eid: number, body: boolean): void {
  if (run.everUsed.has(eid)) run.recycled++;
  run.everUsed.add(eid);
  run.alive.push(eid);
  if (body) run.bodies.add(eid);
}

export function applyOps(run: Run, ops: Op[]): void {
  const { physics } = run;
  for (const op of ops) {
    if (op.t === 'add') track(run, addSpec(physics, op.body), true);
    else if (op.t === 'ghost') {
      const eid = addEntity(run.world);
      addComponent(run.world, eid, physics.components.Velocity);
      track(run, eid, false);
    } else if (run.alive.length > 0) {
      const i = op.pick % run.alive.length;
      const eid = run.alive[i];
      if (op.t === 'remove') {
        // removeBody takes bodies only; a ghost (not a body) is removed with bitecs.
        if (run.bodies.has(eid)) removeBody(physics, eid);
        else removeEntity(run.world, eid);
        run.alive.splice(i, 1);
        run.bodies.delete(eid);
      } else if (run.bodies.has(eid)) {
        if (op.t === 'vel') setVelocity(physics, eid, op.vel);
        else setPosition(physics, eid, op.pos);
      }
    }
  }
}

/**
 * Steps the run once and checks everything against the oracle: contacts, began, ended, the Contact
 * components (data and that only began/ended entities had structural changes), and integration.
 */
export function stepAndCheck(run: Run, label: string): ExpectedTick {
  const { physics, world } = run;
  const C = physics.components.Contact;
  const expected = run.tracker.next();
  const had = new Set([...run.bodies].filter((e) => hasComponent(world, e, C)));
  const P = physics.components.Position;
  const V = physics.components.Velocity;
  const before = new Map<number, V3>();
  for (const e of run.bodies) before.set(e, [P.x[e], P.y[e], P.z[e]]);
  run.events.reset();
  step(physics);
  assertTick(physics, expected, label);
  if (physics.contactComponent) {
    assertContactComponents(physics, run.bodies, expected.contacts, label);
    const now = new Set([...run.bodies].filter((e) => hasComponent(world, e, C)));
    const addedExp = [...now].filter((e) => !had.has(e)).sort((x, y) => x - y);
    const removedExp = [...had].filter((e) => !now.has(e)).sort((x, y) => x - y);
    const s = (l: number[]) => [...l].sort((x, y) => x - y).join(',');
    if (s(run.events.added) !== s(addedExp) || s(run.events.removed) !== s(removedExp)) {
      throw new Error(`${label}: Contact structural changes: added [${s(run.events.added)}] removed [${s(run.events.removed)}], expected added [${s(addedExp)}] removed [${s(removedExp)}]`);
    }
  }
  if (physics.integrate) {
    for (const e of run.bodies) {
      const p0 = before.get(e)!;
      const moving = hasComponent(world, e, V);
      const exp: V3 = moving ? [p0[0] + V.x[e] * physics.dt, p0[1] + V.y[e] * physics.dt, p0[2] + V.z[e] * physics.dt] : p0;
      if (P.x[e] !== exp[0] || P.y[e] !== exp[1] || P.z[e] !== exp[2]) {
        throw new Error(`${label}: integration of ${e}: [${P.x[e]}, ${P.y[e]}, ${P.z[e]}] expected [${exp.join(', ')}]`);
      }
    }
  }
  return expected;
}

/** Runs a whole scenario with checks; returns counters for the report. */
export function runScenario(sc: Scenario, extra: PhysicsOptions = {}): { contacts: number; recycled: number } {
  const run = startRun(sc, extra);
  let contacts = 0;
  sc.ticks.forEach((ops, t) => {
    applyOps(run, ops);
    contacts += stepAndCheck(run, `tick ${t}`).contacts.length;
  });
  return { contacts, recycled: run.recycled };
}
