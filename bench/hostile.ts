/**
 * The hostile-scene section: each scene of `src/scenes/hostile.ts` against its well-conditioned
 * twin (same numbers of bodies and nearly the same contacts), both in one fresh process, ticked in
 * interleaved rounds so that they share the machine's noise; the ratio is the median over rounds of
 * hostile ms / twin ms. Also reported: the broadphase's work counters of one tick (candidate pairs,
 * cells and entries visited; deterministic) for both.
 *
 * A scene whose tick still takes over `SKIP_MS` on its second try is reported as skipped (with the
 * time), so the section stays bounded whatever the broadphase does.
 */
import { hostileScenes, type SceneRun } from '../src/scenes/hostile.js';
import { internalsOf } from '../src/physics/internal.js';
import { WORK_CANDIDATES, WORK_CELLS_VISITED, WORK_ITEMS_VISITED } from '../src/step/broadphaseState.js';
import { median, now } from './common.js';

export const HOSTILE_SKIP_MS = 2000;

export interface HostileOptions { id: string; scale: number; quick: boolean }

export interface SideResult {
  bodies: number;
  contacts: number;
  msPerTick: number;
  firstTickMs: number;
  candidates: number;
  cellsVisited: number;
  itemsVisited: number;
}

export interface HostileResult {
  id: string;
  description: string;
  status: 'ok' | 'skipped';
  reason?: string;
  hostile?: SideResult;
  twin?: SideResult;
  /** Median over rounds of hostile ms / twin ms. */
  ratio?: number;
}

/** Ids of the scenes, in order (for the parent, which runs each in its own process). */
export function hostileIds(): string[] {
  return hostileScenes(0.01).map((s) => s.id);
}

function timed(run: SceneRun): number {
  const t0 = now();
  run.tick();
  return now() - t0;
}

function side(run: SceneRun, firstTickMs: number): SideResult {
  const w = internalsOf(run.physics).broadphase.work;
  return {
    bodies: run.bodies,
    contacts: run.physics.contacts.count,
    msPerTick: NaN,
    firstTickMs,
    candidates: w[WORK_CANDIDATES],
    cellsVisited: w[WORK_CELLS_VISITED],
    itemsVisited: w[WORK_ITEMS_VISITED],
  };
}

/** Builds and times one scene and its twin (in this process). */
export function runHostile(o: HostileOptions, log: (s: string) => void): HostileResult {
  const scene = hostileScenes(o.scale).find((s) => s.id === o.id);
  if (!scene) throw new Error(`no hostile scene ${o.id}`);
  const result: HostileResult = { id: scene.id, description: scene.description, status: 'ok' };
  const runs: SceneRun[] = [];
  const first: number[] = [];
  for (const h of [true, false]) {
    const run = scene.build(h);
    let ms = timed(run);
    first.push(ms);
    if (ms > HOSTILE_SKIP_MS) ms = timed(run);
    if (ms > HOSTILE_SKIP_MS) {
      return { ...result, status: 'skipped', reason: `${h ? 'hostile' : 'twin'} tick took ${(ms / 1000).toFixed(2)} s (> ${HOSTILE_SKIP_MS / 1000} s)` };
    }
    runs.push(run);
  }
  // Warm-up, interleaved; then timed rounds, order alternating.
  const warm = o.quick ? 300 : 1000;
  const slice = o.quick ? 100 : 250;
  const estimate = [Infinity, Infinity];
  for (let spent = 0; spent < warm; spent += 2 * slice) {
    runs.forEach((run, i) => {
      const t0 = now();
      let k = 0;
      do {
        run.tick();
        k++;
      } while (now() - t0 < slice / 2);
      estimate[i] = Math.min(estimate[i], (now() - t0) / k);
    });
  }
  const ms: number[][] = [[], []];
  const rounds = o.quick ? 3 : 7;
  for (let r = 0; r < rounds; r++) {
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const ticks = Math.max(1, Math.round(slice / estimate[i]));
      const t0 = now();
      for (let k = 0; k < ticks; k++) runs[i].tick();
      ms[i].push((now() - t0) / ticks);
    }
  }
  result.hostile = { ...side(runs[0], first[0]), msPerTick: median(ms[0]) };
  result.twin = { ...side(runs[1], first[1]), msPerTick: median(ms[1]) };
  result.ratio = median(ms[0].map((x, i) => x / ms[1][i]));
  log(`  ${scene.id}: hostile ${result.hostile.msPerTick.toFixed(2)} ms, twin ${result.twin.msPerTick.toFixed(2)} ms, ratio ${result.ratio.toFixed(2)}`);
  return result;
}
