/**
 * Soak run (`npm run soak`, not part of `npm test`): a small world stepped for a long time with
 * steady entity churn, to show that memory and the contact load stay flat and nothing drifts.
 *
 * Scene: 170 moving spheres (sphere–sphere on) and 30 static boxes, some rotated, in a cube with
 * reflecting walls; every tick 3 random spheres are removed and 3 new ones added (bitecs recycles
 * their ids). Every 100 ticks a snapshot is saved into one reused buffer and every 1,000 ticks it is
 * restored right away and the state hash must not change.
 *
 * Prints one summary line (ticks, wall time, heap at start / middle / end, contacts per tick mean and
 * max) and a verdict: heap growth under 8 MiB from start to end and the mean contact count of the
 * last quarter within 15 % of the first quarter's.
 *
 * Usage: npm run soak [-- --ticks N --seed S]   (node --expose-gc for exact heap figures)
 */
import { createWorld } from 'bitecs';
import { reflectInBounds } from '../src/scenes/arena.js';
import { createRng, randomQuat } from '../src/scenes/prng.js';
import {
  addBox, addSphere, createPhysics, hashPhysicsState, removeBody, restoreSnapshot, saveSnapshot, snapshotSize, step,
} from '../src/index.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const TICKS = arg('ticks', 1_000_000);
const SEED = arg('seed', 1);
const SPHERES = 170;
const BOXES = 30;
const CHURN = 3;
const SIZE = 14;

const rng = createRng(SEED);
const world = createWorld();
const physics = createPhysics(world, { capacity: 256 });
for (let i = 0; i < BOXES; i++) {
  addBox(physics, {
    position: [rng.range(0, SIZE), rng.range(0, SIZE), rng.range(0, SIZE)],
    halfExtents: [rng.range(0.3, 1.2), rng.range(0.3, 1.2), rng.range(0.3, 1.2)],
    rotation: i % 2 === 0 ? [0, 0, 0, 1] : randomQuat(rng),
  });
}
const live = new Uint32Array(SPHERES);
const newSphere = (): number => addSphere(physics, {
  position: [rng.range(0, SIZE), rng.range(0, SIZE), rng.range(0, SIZE)],
  velocity: [rng.range(-6, 6), rng.range(-6, 6), rng.range(-6, 6)],
  radius: rng.range(0.15, 0.5),
});
for (let i = 0; i < SPHERES; i++) live[i] = newSphere();

const gc = (globalThis as { gc?: () => void }).gc;
const heapMiB = (): number => {
  gc?.();
  return process.memoryUsage().heapUsed / 1048576;
};

let snapshot = new Uint8Array(1 << 16);
const quarter = Math.max(1, Math.floor(TICKS / 4));
let firstQuarter = 0;
let lastQuarter = 0;
let sum = 0;
let max = 0;
let began = 0;
let restores = 0;
const WARMUP = Math.min(10_000, Math.floor(TICKS / 10));
let heapStart = 0;
let heapMiddle = 0;
const t0 = performance.now();
let tWarm = t0;

for (let t = 1; t <= TICKS; t++) {
  for (let k = 0; k < CHURN; k++) {
    const i = Math.floor(rng.next() * SPHERES);
    removeBody(physics, live[i]);
    live[i] = newSphere();
  }
  step(physics);
  reflectInBounds(physics.components.Position, physics.components.Velocity, live, SPHERES, SIZE);
  const n = physics.contacts.count;
  sum += n;
  if (n > max) max = n;
  began += physics.began.count;
  if (t <= quarter) firstQuarter += n;
  if (t > TICKS - quarter) lastQuarter += n;
  if (t % 100 === 0) {
    const need = snapshotSize(physics);
    if (need > snapshot.length) snapshot = new Uint8Array(2 * need);
    saveSnapshot(physics, snapshot);
    if (t % 1000 === 0) {
      const h = hashPhysicsState(physics);
      restoreSnapshot(physics, snapshot);
      if (hashPhysicsState(physics) !== h) throw new Error(`soak: snapshot round trip changed the state at tick ${t}`);
      restores++;
    }
  }
  if (t === WARMUP) {
    heapStart = heapMiB();
    tWarm = performance.now();
  }
  if (t === Math.floor(TICKS / 2)) heapMiddle = heapMiB();
  if (t % 100_000 === 0) {
    process.stderr.write(`  tick ${t}: ${((performance.now() - t0) / 1000).toFixed(1)} s, heap ${heapMiB().toFixed(1)} MiB, contacts ${n}\n`);
  }
}
const wall = (performance.now() - t0) / 1000;
const heapEnd = heapMiB();
const mean = sum / TICKS;
const q1 = firstQuarter / quarter;
const q4 = lastQuarter / quarter;
const heapGrowth = heapEnd - heapStart;
const heapFlat = heapGrowth < 8;
const contactsFlat = Math.abs(q4 - q1) <= 0.15 * Math.max(q1, 1);

console.log(
  `soak: ticks ${TICKS}, bodies ${SPHERES + BOXES} (churn ${CHURN}/tick, ${CHURN * TICKS} removed and added), ` +
  `wall ${wall.toFixed(1)} s (${((1e6 * (performance.now() - tWarm)) / 1000 / Math.max(1, TICKS - WARMUP)).toFixed(1)} µs/tick after warm-up), ` +
  `heap start ${heapStart.toFixed(1)} / middle ${heapMiddle.toFixed(1)} / end ${heapEnd.toFixed(1)} MiB${gc ? '' : ' (no --expose-gc: approximate)'}, ` +
  `contacts/tick mean ${mean.toFixed(2)} (first quarter ${q1.toFixed(2)}, last ${q4.toFixed(2)}), max ${max}, began ${began}, ` +
  `snapshot ${snapshotSize(physics)} B, ${restores} round trips, hash ${hashPhysicsState(physics)}`,
);
console.log(
  `verdict: heap ${heapFlat ? 'FLAT' : 'GROWING'} (${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(2)} MiB start→end), ` +
  `contacts ${contactsFlat ? 'FLAT' : 'DRIFTING'} (${(100 * (q4 - q1) / Math.max(q1, 1)).toFixed(1)} % last vs first quarter) → ${heapFlat && contactsFlat ? 'PASS' : 'FAIL'}`,
);
process.exitCode = heapFlat && contactsFlat ? 0 : 1;
