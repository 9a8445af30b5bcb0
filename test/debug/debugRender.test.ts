/**
 * debugRender: the segments lie on the shapes (checked against the oracle's box frame, a matrix built
 * from the normalised quaternion, and plain distances for spheres), the counts, the contact normals,
 * colours, growth by doubling, determinism, and no allocation in steady state (in a child process with
 * --expose-gc, the method of allocation.test.ts).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  addBox,
  addSphere,
  createDebugLines,
  createPhysics,
  DEBUG_CONTACT_LENGTH,
  DEBUG_SPHERE_SEGMENTS,
  debugLinesCreate,
  debugRender,
  runBroadphase,
  runNarrowphase,
  type DebugLines,
  type Physics,
} from '../../src/index.js';
import { OBox, type Arr3, type Q4, type V3 } from '../oracle/oracle.js';
import { randomQuat, uRange, vecIn } from '../geometry/arbitraries.js';
import { addSphereOnBox } from '../support/bodies.js';
import { report } from '../support/report.js';

interface SphereCase { kind: 'sphere'; center: V3; radius: number }
interface BoxCase { kind: 'box'; center: V3; half: V3; rotation: Q4; scale: number }
type BodyCase = SphereCase | BoxCase;

const sphereArb: fc.Arbitrary<SphereCase> = fc.record({
  kind: fc.constant('sphere' as const), center: vecIn(-50, 50), radius: fc.oneof(fc.constant(0), uRange(0, 5)),
});
// The stored quaternion is the unit one times `scale`: the drawing must use the normalised rotation.
const boxArb: fc.Arbitrary<BoxCase> = fc.record({
  kind: fc.constant('box' as const), center: vecIn(-50, 50), half: vecIn(0, 5), rotation: randomQuat,
  scale: fc.oneof(fc.constant(1), uRange(0.1, 10)),
});

function build(bodies: BodyCase[]): Physics {
  const physics = createPhysics(createWorld());
  for (const b of bodies) {
    const position: Arr3 = [b.center.x, b.center.y, b.center.z];
    if (b.kind === 'sphere') addSphere(physics, { position, radius: b.radius });
    else {
      const { x, y, z, w } = b.rotation, s = b.scale;
      addBox(physics, { position, halfExtents: [b.half.x, b.half.y, b.half.z], rotation: [x * s, y * s, z * s, w * s] });
    }
  }
  return physics;
}

/** Endpoint v (0 or 1) of segment i. */
function endpoint(out: DebugLines, i: number, v: number): Arr3 {
  const o = 6 * i + 3 * v;
  return [out.positions[o], out.positions[o + 1], out.positions[o + 2]];
}

function colorOf(out: DebugLines, i: number): number[] {
  return Array.from(out.colors.subarray(6 * i, 6 * i + 6));
}

/** Float32 rounding of world coordinates: a few ulps of float32 at the scene's magnitude. */
const tolFor = (magnitude: number) => 4e-7 * (1 + magnitude);

function checkSphere(out: DebugLines, first: number, s: SphereCase, n: number): void {
  const c: Arr3 = [s.center.x, s.center.y, s.center.z];
  const tol = tolFor(Math.max(...c.map(Math.abs)) + s.radius);
  for (let i = first; i < first + 3 * n; i++) {
    for (let v = 0; v < 2; v++) {
      const p = endpoint(out, i, v);
      const d = Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2]);
      expect(Math.abs(d - s.radius), `sphere segment ${i - first} endpoint ${v} at distance ${d} from the centre, radius ${s.radius}`).toBeLessThanOrEqual(tol);
    }
    // Consecutive segments of a circle join (the polygon is closed: the last ends where the first starts).
    const k = (i - first) % n, next = k === n - 1 ? i - (n - 1) : i + 1;
    expect(endpoint(out, i, 1)).toEqual(endpoint(out, next, 0));
  }
}

function checkBox(out: DebugLines, first: number, b: BoxCase): void {
  const h: Arr3 = [b.half.x, b.half.y, b.half.z];
  const q = b.rotation, n = Math.hypot(q.x, q.y, q.z, q.w);
  const oracle = new OBox({ center: b.center, halfExtents: b.half, rotation: { x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n } });
  const tol = tolFor(Math.abs(b.center.x) + Math.abs(b.center.y) + Math.abs(b.center.z) + h[0] + h[1] + h[2]);
  const edges = new Set<string>();
  for (let i = first; i < first + 12; i++) {
    const corners = [0, 1].map((v) => {
      const l = oracle.toLocal(endpoint(out, i, v));
      // Every endpoint is a corner: |local_j| = h_j on each box axis j.
      for (let j = 0; j < 3; j++) expect(Math.abs(Math.abs(l[j]) - h[j]), `box segment ${i - first}: local ${l} vs half extents ${h}`).toBeLessThanOrEqual(tol);
      return l.map((x, j) => (h[j] <= tol ? '0' : x > 0 ? '+' : '-')).join('');
    });
    edges.add(corners.slice().sort().join(' '));
  }
  // The 12 distinct edges (for a box with no zero half extent).
  if (h.every((x) => x > tol)) {
    expect(edges.size).toBe(12);
    for (const e of edges) {
      const [p, q2] = e.split(' ');
      expect([0, 1, 2].filter((j) => p[j] !== q2[j])).toHaveLength(1);
    }
  }
}

describe('debugRender', () => {
  it('sphere segments end on the sphere, box segments are the 12 edges of the rotated box (normalised quaternion)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(sphereArb, boxArb), { minLength: 1, maxLength: 6 }), (bodies) => {
        const physics = build(bodies);
        const out = debugRender(physics, createDebugLines(4));
        const n = DEBUG_SPHERE_SEGMENTS;
        const spheres = bodies.filter((b) => b.kind === 'sphere').length;
        expect(out.count).toBe(3 * n * spheres + 12 * (bodies.length - spheres));
        let first = 0; // bodies are drawn in ascending entity id, i.e. in the order added
        for (const b of bodies) {
          if (b.kind === 'sphere') checkSphere(out, first, b, n);
          else checkBox(out, first, b);
          first += b.kind === 'sphere' ? 3 * n : 12;
        }
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  it('every supported segment count draws closed circles on the sphere; others throw RangeError', () => {
    const s: SphereCase = { kind: 'sphere', center: { x: 1.5, y: -2, z: 3 }, radius: 2.25 };
    const physics = build([s]);
    for (const n of [4, 8, 16, 32, 64]) {
      const out = debugRender(physics, createDebugLines(), { sphereSegments: n });
      expect(out.count).toBe(3 * n);
      checkSphere(out, 0, s, n);
    }
    expect(() => debugRender(physics, createDebugLines(), { sphereSegments: 12 })).toThrow(RangeError);
  });

  it('contacts: one segment per contact, from its point along its normal, contactLength long', () => {
    const physics = createPhysics(createWorld());
    addSphereOnBox(physics);
    addSphere(physics, { position: [5, 0, 0], radius: 1 });
    addSphere(physics, { position: [6.5, 0, 0], radius: 1 });
    runBroadphase(physics);
    runNarrowphase(physics);
    const c = physics.contacts;
    expect(c.count).toBe(2);
    for (const length of [undefined, 2]) {
      const out = debugRender(physics, createDebugLines(), { bodies: false, contacts: true, contactLength: length });
      expect(out.count).toBe(2);
      const L = length ?? DEBUG_CONTACT_LENGTH;
      for (let i = 0; i < 2; i++) {
        const p: Arr3 = [c.px[i], c.py[i], c.pz[i]];
        const q: Arr3 = [p[0] + L * c.nx[i], p[1] + L * c.ny[i], p[2] + L * c.nz[i]];
        expect(endpoint(out, i, 0)).toEqual(p.map(Math.fround));
        expect(endpoint(out, i, 1)).toEqual(q.map(Math.fround));
        expect(colorOf(out, i)).toEqual([1, 0.25, 0.25, 1, 0.25, 0.25].map(Math.fround));
      }
    }
    // Bodies and contacts: the contacts come after the bodies.
    const both = debugRender(physics, createDebugLines(), { contacts: true });
    expect(both.count).toBe(3 * 3 * DEBUG_SPHERE_SEGMENTS + 12 + 2);
  });

  it('colours by kind (sphere, static box, moving box, sensor) and by the colors option', () => {
    const physics = createPhysics(createWorld());
    addSphere(physics, { position: [0, 0, 0], radius: 1 });
    addBox(physics, { position: [5, 0, 0], halfExtents: [1, 1, 1] });
    addBox(physics, { position: [10, 0, 0], halfExtents: [1, 1, 1], velocity: [1, 0, 0] });
    addSphere(physics, { position: [15, 0, 0], radius: 1, sensor: true });
    const n = DEBUG_SPHERE_SEGMENTS;
    const firsts = [0, 3 * n, 3 * n + 12, 3 * n + 24];
    const f = (c: number[]) => [...c, ...c].map(Math.fround);
    const out = debugRender(physics, createDebugLines());
    expect(firsts.map((i) => colorOf(out, i))).toEqual([f([0.6, 0.75, 0.9]), f([0.55, 0.55, 0.55]), f([1, 0.6, 0.2]), f([0.3, 0.9, 0.4])]);
    const custom = debugRender(physics, createDebugLines(), { colors: { sphere: [0, 0, 1], movingBox: [1, 0, 1] } });
    expect(firsts.map((i) => colorOf(custom, i))).toEqual([f([0, 0, 1]), f([0.55, 0.55, 0.55]), f([1, 0, 1]), f([0.3, 0.9, 0.4])]);
  });

  it('debugLinesCreate, the deprecated former name, is still exported and behaves as createDebugLines', () => {
    expect(typeof debugLinesCreate).toBe('function');
    const bodies: BodyCase[] = [
      { kind: 'sphere', center: { x: 0.1, y: 0.2, z: 0.3 }, radius: 0.7 },
      { kind: 'box', center: { x: 3, y: 1, z: -2 }, half: { x: 1, y: 0.5, z: 2 }, rotation: { x: 0.1, y: 0.7, z: -0.2, w: 0.5 }, scale: 1 },
    ];
    for (const capacity of [undefined, 1, 7.5, 1000]) {
      const a = createDebugLines(capacity);
      const b = debugLinesCreate(capacity);
      expect(b.count).toBe(a.count);
      expect(b.positions.length).toBe(a.positions.length);
      expect(b.colors.length).toBe(a.colors.length);
      debugRender(build(bodies), a, { contacts: true });
      debugRender(build(bodies), b, { contacts: true });
      expect(b.count).toBe(a.count);
      expect(Array.from(b.positions)).toEqual(Array.from(a.positions));
      expect(Array.from(b.colors)).toEqual(Array.from(a.colors));
    }
  });

  it('the buffer grows by doubling and is then reused; output is deterministic', () => {
    const bodies: BodyCase[] = [
      { kind: 'sphere', center: { x: 0.1, y: 0.2, z: 0.3 }, radius: 0.7 },
      { kind: 'box', center: { x: 3, y: 1, z: -2 }, half: { x: 1, y: 0.5, z: 2 }, rotation: { x: 0.1, y: 0.7, z: -0.2, w: 0.5 }, scale: 3 },
    ];
    const out = createDebugLines(1);
    const first = debugRender(build(bodies), out);
    expect(first).toBe(out);
    expect(out.count).toBe(3 * DEBUG_SPHERE_SEGMENTS + 12);
    expect(out.positions.length).toBe(6 * 64); // 1 → 64 segments
    expect(out.colors.length).toBe(6 * 64);
    const { positions, colors } = out;
    const again = debugRender(build(bodies), out);
    expect(again.positions).toBe(positions);
    expect(again.colors).toBe(colors);
    const other = debugRender(build(bodies), createDebugLines(1000));
    expect(Array.from(other.positions.subarray(0, 6 * other.count))).toEqual(Array.from(positions.subarray(0, 6 * out.count)));
    expect(Array.from(other.colors.subarray(0, 6 * other.count))).toEqual(Array.from(colors.subarray(0, 6 * out.count)));
  });

  it('allocates nothing in steady state: ticks and drawings with contacts, < 64 B per frame over 200 frames', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64', '--import', 'tsx', '--input-type=module', '-e', ALLOCATION_CHILD],
      { cwd: root, timeout: 300_000 },
    );
    const r = JSON.parse(stdout.trim().split('\n').pop()!) as { bytesPerFrame: number; gcs: number; segments: number; contacts: number };
    report(`[allocation] debugRender: ${r.bytesPerFrame.toFixed(1)} B/frame (tick + drawing of ${r.segments} segments, ${r.contacts} contacts; GCs in window: ${r.gcs})`);
    expect(r.contacts).toBeGreaterThan(0);
    expect(r.gcs).toBe(0);
    expect(r.bytesPerFrame).toBeLessThan(64);
  });
});

/**
 * The child of the allocation test: an arena (1,000 spheres, 100 boxes, no Contact component so that
 * bitecs makes no structural change), warmed up, then the best of 4 windows of 200 frames of one tick
 * and one drawing (bodies and contacts) each, heap + array buffers before and after, GCs watched.
 */
const ALLOCATION_CHILD = `
import { PerformanceObserver } from 'node:perf_hooks';
import { buildArena } from './src/scenes/buildArena.ts';
import { createDebugLines, debugRender } from './src/index.ts';
let gcs = 0;
new PerformanceObserver((l) => { gcs += l.getEntries().length; }).observe({ entryTypes: ['gc'] });
const arena = buildArena({ spheres: 1000, seed: 3, physics: { contactComponent: false } });
const out = createDebugLines();
const options = { contacts: true };
const frame = () => { arena.tick(); debugRender(arena.physics, out, options); };
for (let i = 0; i < 2000; i++) frame();
const settle = () => new Promise((r) => setTimeout(r, 20));
let best = { bytes: Infinity, gcs: 0 };
for (let w = 0; w < 4; w++) {
  globalThis.gc(); globalThis.gc(); await settle(); gcs = 0;
  const m0 = process.memoryUsage();
  for (let i = 0; i < 200; i++) frame();
  const m1 = process.memoryUsage();
  await settle();
  const bytes = m1.heapUsed - m0.heapUsed + (m1.arrayBuffers - m0.arrayBuffers);
  if (bytes < best.bytes) best = { bytes, gcs };
}
console.log(JSON.stringify({ bytesPerFrame: best.bytes / 200, gcs: best.gcs, segments: out.count, contacts: arena.physics.contacts.count }));
`;
