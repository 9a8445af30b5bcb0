/**
 * Sleep benchmark (docs/response.md, "Sleep"): a settled pit of 10,000 balls (radius 0.5, one layer
 * on a floor inside four walls, friction 0.5, gravity −9.81) stepped with every ball asleep against
 * the same settled pit with sleep off (every ball awake, resting), in one process, in alternating
 * batches of about 60 ms with the order swapped every round, in process CPU time. Prints the median
 * ms per tick of each and the median of the per-round ratios (awake / asleep). Not a test: run it
 * alone, `npx tsx bench/sleep.ts [--balls 10000] [--rounds 15]`.
 */
import { createWorld } from 'bitecs';
import { addBox, addSphere, createPhysics, isAsleep, step, type Physics } from '../src/index.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const BALLS = arg('--balls', 10000);
const ROUNDS = arg('--rounds', 15);

/** The pit, settled (stepped until every ball sleeps, or 600 ticks). */
function pit(sleep: boolean): { physics: Physics; ids: number[] } {
  const side = Math.ceil(Math.sqrt(BALLS));
  const half = (side * 1.25) / 2;
  const physics = createPhysics(createWorld(), { gravity: [0, -9.81, 0], capacity: BALLS + 16, contactComponent: false, ...(sleep ? { sleep: {} } : {}) });
  addBox(physics, { position: [0, -1, 0], halfExtents: [half + 1, 1, half + 1], friction: 0.5 });
  for (const [x, z, hx, hz] of [[-half - 0.5, 0, 0.5, half], [half + 0.5, 0, 0.5, half], [0, -half - 0.5, half, 0.5], [0, half + 0.5, half, 0.5]]) {
    addBox(physics, { position: [x, 2, z], halfExtents: [hx, 3, hz], friction: 0.5 });
  }
  const ids: number[] = [];
  for (let i = 0; i < BALLS; i++) {
    const gx = i % side, gz = Math.floor(i / side);
    ids.push(addSphere(physics, { position: [-half + 0.625 + gx * 1.25, 0.6, -half + 0.625 + gz * 1.25], velocity: [0, 0, 0], radius: 0.5, response: 'slide', friction: 0.5 }));
  }
  for (let t = 0; t < 600; t++) {
    step(physics);
    if (sleep && t > 30 && ids.every((e) => isAsleep(physics, e))) break;
  }
  return { physics, ids };
}

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** Ticks `physics` for about 60 ms of CPU; returns ms per tick. */
function batch(physics: Physics): number {
  let n = 0;
  const t0 = cpuMs();
  let t = t0;
  while (t - t0 < 60) {
    step(physics);
    n++;
    t = cpuMs();
  }
  return (t - t0) / n;
}

const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1];

const asleep = pit(true);
const awake = pit(false);
const sleeping = asleep.ids.filter((e) => isAsleep(asleep.physics, e)).length;
const ke = (p: Physics, ids: number[]): number => ids.reduce((s, e) => s + p.components.Velocity.x[e] ** 2 + p.components.Velocity.y[e] ** 2 + p.components.Velocity.z[e] ** 2, 0);
console.log(`pit of ${BALLS} balls: ${sleeping} asleep; awake pit kinetic energy ${ke(awake.physics, awake.ids).toExponential(2)} (sum of v²)`);
batch(asleep.physics);
batch(awake.physics);
const a: number[] = [], w: number[] = [], r: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const first = i % 2 === 0;
  const x = first ? batch(asleep.physics) : 0;
  const y = batch(awake.physics);
  const z = first ? x : batch(asleep.physics);
  a.push(z);
  w.push(y);
  r.push(y / z);
}
console.log(`asleep ${median(a).toFixed(3)} ms/tick, awake ${median(w).toFixed(3)} ms/tick (CPU), awake / asleep ${median(r).toFixed(2)} (median of ${ROUNDS} rounds); contacts per tick ${asleep.physics.contacts.count} asleep, ${awake.physics.contacts.count} awake`);
