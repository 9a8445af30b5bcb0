/**
 * Rollback ring and render interpolation figures (docs/netcode.md).
 *
 *   npx tsx bench/rollback.ts [--bodies 2000,10000] [--runs 61] [--rounds 3] [--depth 16]
 *
 * Scenes: the arena after 200 ticks (live contacts), N/1.1 spheres (sphere–box contacts) and
 * one static box per ten spheres, so N bodies; and the same with the boxes moving. Per round, interleaved (the variants of one round run back to back, so machine noise
 * hits them alike), each timed as the median of `runs` calls in milliseconds of CPU time
 * (process.cpuUsage: on a shared machine, wall time also counts the waits for a core):
 * - `step`: one tick, interpolation on (for scale);
 * - `saveRollback`: a frame of the current tick (replacing itself);
 * - `saveSnapshot`: the same bytes into a buffer of its own, with the checksum the ring leaves out;
 * - `restoreRollback`: a frame 4 ticks back, then the present frame again (each timed; the pair
 *   adds and removes the Contact component where its presence differs, as a real rollback does);
 * - a rollback of 4 ticks: `restoreRollback` 4 back, then 4 × (step + `saveRollback`);
 * - `keepPoses`: the interpolation's stage (copies the moving bodies' poses), and
 *   `interpolatePoses`: every body's pose at alpha 0.5 into a caller's store.
 * Printed: the median over rounds of each, the frame's bytes (and per body), and the share of its
 * 8-byte words that differ from the previous tick's frame (what a delta against the previous frame
 * could leave out, before its own bookkeeping).
 */
import { createRollbackRing, enableInterpolation, interpolatePoses, restoreRollback, saveRollback, saveSnapshot, snapshotSize } from '../src/index.js';
import { keepPoses } from '../src/debug/interpolation.js';
import { buildArena } from '../src/scenes/buildArena.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const bodies = arg('bodies', '2000,10000').split(',').map(Number);
const runs = Number(arg('runs', '61'));
const rounds = Number(arg('rounds', '3'));
const depth = Number(arg('depth', '16'));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** CPU time of the process in milliseconds (wall time on a loaded machine counts the waits for a core). */
function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function time(fn: () => void): number {
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = cpu();
    fn();
    t.push(cpu() - t0);
  }
  return median(t);
}

for (const n of bodies) {
  for (const boxes of [false, true]) {
    const spheres = Math.round(n / 1.1);
    const arena = buildArena({ spheres, seed: 11, ...(boxes ? { movingBoxes: Math.round(spheres / 10) } : {}) });
    const p = arena.physics;
    for (let i = 0; i < 200; i++) arena.tick();
    enableInterpolation(p);
    const ring = createRollbackRing(p, depth);
    for (let i = 0; i < depth; i++) {
      arena.tick();
      saveRollback(p, ring);
    }
    // Share of 8-byte words changed between two consecutive frames (the same layout when the counts match).
    const a = new Uint8Array(snapshotSize(p) * 2);
    saveSnapshot(p, a);
    const sizeA = snapshotSize(p);
    arena.tick();
    saveRollback(p, ring);
    const b = new Uint8Array(snapshotSize(p) * 2);
    saveSnapshot(p, b);
    const words = Math.min(sizeA, snapshotSize(p)) >>> 3;
    const ua = new Uint32Array(a.buffer, 0, 2 * words), ub = new Uint32Array(b.buffer, 0, 2 * words);
    let changed = 0;
    for (let k = 0; k < words; k++) if (ua[2 * k] !== ub[2 * k] || ua[2 * k + 1] !== ub[2 * k + 1]) changed++;
    const out = { x: new Float64Array(2 * n + 64), y: new Float64Array(2 * n + 64), z: new Float64Array(2 * n + 64), qx: new Float64Array(2 * n + 64), qy: new Float64Array(2 * n + 64), qz: new Float64Array(2 * n + 64), qw: new Float64Array(2 * n + 64) };
    const own = new Uint8Array(snapshotSize(p) * 2);
    const res: Record<string, number[]> = { step: [], saveRollback: [], saveSnapshot: [], restoreBack: [], restorePresent: [], resim: [], keepPoses: [], interpolatePoses: [] };
    for (let r = 0; r < rounds; r++) {
      const steps: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = cpu();
        arena.tick();
        steps.push(cpu() - t0);
        saveRollback(p, ring);
      }
      res.step.push(median(steps));
      res.saveRollback.push(time(() => saveRollback(p, ring)));
      res.saveSnapshot.push(time(() => saveSnapshot(p, own)));
      const now = p.tick;
      const back: number[] = [];
      const present: number[] = [];
      for (let i = 0; i < runs; i++) {
        let t0 = cpu();
        restoreRollback(p, ring, now - 4);
        back.push(cpu() - t0);
        t0 = cpu();
        restoreRollback(p, ring, now);
        present.push(cpu() - t0);
      }
      res.resim.push(time(() => {
        restoreRollback(p, ring, now - 4);
        for (let i = 0; i < 4; i++) {
          arena.tick();
          saveRollback(p, ring);
        }
      }));
      res.restoreBack.push(median(back));
      res.restorePresent.push(median(present));
      res.keepPoses.push(time(() => keepPoses(p)));
      res.interpolatePoses.push(time(() => interpolatePoses(p, 0.5, out)));
    }
    const f = (k: string) => `${median(res[k]).toFixed(3)} ms`;
    const bodiesNow = spheres + Math.round(spheres / 10);
    console.log(
      `${bodiesNow} bodies (${spheres} spheres + ${Math.round(spheres / 10)} ${boxes ? 'moving' : 'static'} boxes), ${p.contacts.count} contacts: ` +
      `frame ${ring.frameBytes} B (${(ring.frameBytes / bodiesNow).toFixed(1)} B/body), ${(100 * changed / words).toFixed(1)} % of its 8-byte words changed since the previous tick; ` +
      `step ${f('step')}, saveRollback ${f('saveRollback')}, saveSnapshot ${f('saveSnapshot')}, restoreRollback 4 back ${f('restoreBack')}, to the present ${f('restorePresent')}; ` +
      `a rollback of 4 ticks (restore, 4 × step + save) ${f('resim')}; ` +
      `keepPoses ${f('keepPoses')}, interpolatePoses ${f('interpolatePoses')}`,
    );
  }
}
