/**
 * The moving-boxes section: 1,000 moving boxes among 10,000 static ones (the arena's boxes at the
 * density of its 100,000-sphere scene: cube side 4·cbrt(100,000), half extents in [0.5, 2], half of
 * them rotated; the moving ones at up to 10 units/s per axis, reflected at the walls), without
 * spheres and with 10,000 spheres, each against its twin with the same 11,000 boxes all static. Both
 * sides of a pair run in this one fresh process, in interleaved rounds. Reported per side: ms per
 * tick (median of rounds), the first tick, contacts (box–box among them) and candidate pairs of the
 * last tick.
 */
import { buildArena, type Arena } from '../src/scenes/buildArena.js';
import { cubeRoot } from '../src/scenes/arena.js';
import { internalsOf } from '../src/physics/internal.js';
import { WORK_CANDIDATES } from '../src/step/broadphaseState.js';
import { median, now } from './common.js';

export interface MovingBoxesOptions { seed: number; quick: boolean }

export interface MovingBoxesSide {
  msPerTick: number;
  firstTickMs: number;
  contacts: number;
  boxBoxContacts: number;
  candidates: number;
}

export interface MovingBoxesRow {
  spheres: number;
  staticBoxes: number;
  movingBoxes: number;
  moving: MovingBoxesSide;
  allStatic: MovingBoxesSide;
}

const STATIC_BOXES = 10_000;
const MOVING_BOXES = 1_000;

function build(spheres: number, moving: number, seed: number): Arena {
  return buildArena({ spheres, boxes: STATIC_BOXES + MOVING_BOXES, movingBoxes: moving, size: 4 * cubeRoot(100_000), seed });
}

function side(a: Arena, msPerTick: number, firstTickMs: number): MovingBoxesSide {
  const c = a.physics.contacts;
  const boxes = a.boxIds.length;
  let boxBox = 0;
  // Box ids come first (1 .. boxes): a box–box pair has a box as a.
  for (let i = 0; i < c.count; i++) if (c.a[i] <= boxes) boxBox++;
  return { msPerTick, firstTickMs, contacts: c.count, boxBoxContacts: boxBox, candidates: internalsOf(a.physics).broadphase.work[WORK_CANDIDATES] };
}

function pair(spheres: number, o: MovingBoxesOptions, log: (s: string) => void): MovingBoxesRow {
  const runs = [build(spheres, MOVING_BOXES, o.seed), build(spheres, 0, o.seed)];
  const first = runs.map((a) => {
    const t0 = now();
    a.tick();
    return now() - t0;
  });
  const warm = o.quick ? 50 : 200;
  for (let k = 0; k < warm; k++) for (const a of runs) a.tick();
  const ms: number[][] = [[], []];
  const rounds = o.quick ? 3 : 9;
  const ticks = o.quick ? 20 : 50;
  for (let r = 0; r < rounds; r++) {
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = now();
      for (let k = 0; k < ticks; k++) runs[i].tick();
      ms[i].push((now() - t0) / ticks);
    }
  }
  const row: MovingBoxesRow = {
    spheres,
    staticBoxes: STATIC_BOXES,
    movingBoxes: MOVING_BOXES,
    moving: side(runs[0], median(ms[0]), first[0]),
    allStatic: side(runs[1], median(ms[1]), first[1]),
  };
  log(`  ${spheres.toLocaleString('en-US')} spheres: ${row.moving.msPerTick.toFixed(2)} ms with 1,000 moving boxes (${row.moving.boxBoxContacts} box–box contacts), ${row.allStatic.msPerTick.toFixed(2)} ms all static`);
  return row;
}

/** Both rows: without spheres and with 10,000 spheres. */
export function runMovingBoxes(o: MovingBoxesOptions, log: (s: string) => void): MovingBoxesRow[] {
  return [0, 10_000].map((spheres) => pair(spheres, o, log));
}
