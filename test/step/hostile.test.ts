/**
 * Work-counting regressions of the hostile scenes (src/scenes/hostile.ts): the broadphase's own
 * deterministic counters (`broadphase.work`: candidate pairs listed, grid cells looked up, grid
 * entries examined) stay within a small multiple of bodies + contacts, and within twice those of
 * each scene's well-conditioned twin. Counters, not milliseconds: the same on every machine.
 *
 * Each scene broke the broadphase of issue 11 (quadratic, results still correct): a cell size
 * chosen at an empty first step or from one giant or fast body, cell coordinates clamped to ±2^30
 * far from the origin, a cell of 1e-9 for radius-0 points, one box around a fast mover's whole path.
 */
import { describe, expect, it } from 'vitest';
import { hostileScenes, type SceneRun } from '../../src/scenes/hostile.js';
import { internalsOf } from '../../src/physics/internal.js';
import { WORK_CANDIDATES, WORK_CELLS_VISITED, WORK_ITEMS_VISITED } from '../../src/step/broadphaseState.js';

/** Ticks per scene; the largest counters over them are checked. */
const TICKS = 4;
/** Bounds per (bodies + contacts): candidate pairs, cells looked up, entries examined. */
const PER_BODY = { candidates: 2, cells: 8, items: 32 };

interface Work { candidates: number; cells: number; items: number; base: number }

function measure(run: SceneRun): Work {
  const w: Work = { candidates: 0, cells: 0, items: 0, base: 0 };
  let contacts = 0;
  for (let t = 0; t < TICKS; t++) {
    run.tick();
    const c = internalsOf(run.physics).broadphase.work;
    w.candidates = Math.max(w.candidates, c[WORK_CANDIDATES]);
    w.cells = Math.max(w.cells, c[WORK_CELLS_VISITED]);
    w.items = Math.max(w.items, c[WORK_ITEMS_VISITED]);
    contacts = Math.max(contacts, run.physics.contacts.count);
  }
  w.base = run.bodies + contacts;
  return w;
}

describe('hostile scenes: broadphase work stays linear (counters, deterministic)', () => {
  for (const scene of hostileScenes(0.05)) {
    it(`${scene.id}: ${scene.description}`, () => {
      const hostile = measure(scene.build(true));
      const twin = measure(scene.build(false));
      for (const key of ['candidates', 'cells', 'items'] as const) {
        expect(hostile[key], `${key} per (bodies + contacts)`).toBeLessThanOrEqual(PER_BODY[key] * hostile.base);
        expect(hostile[key], `${key} against the twin (${twin[key]})`).toBeLessThanOrEqual(2 * twin[key] + 64);
      }
    });
  }

  it('regression: bullets beside the arena leave the static grid\'s work as in the twin', () => {
    // Their slices looked up static cells (hash-shared with the arena's) and, as 2 % of the extents,
    // raised the static margin to a whole cell, so every arena query examined twice the entries.
    const scene = hostileScenes(0.05).find((s) => s.id === 'bullets')!;
    const staticWork = (run: SceneRun) => {
      for (let t = 0; t < TICKS; t++) run.tick();
      const w = internalsOf(run.physics).broadphase.staticGrid.work;
      return [w[0], w[1]];
    };
    const [cells, items] = staticWork(scene.build(true));
    const [twinCells, twinItems] = staticWork(scene.build(false));
    expect(cells).toBeLessThanOrEqual(twinCells);
    expect(items).toBeLessThanOrEqual(Math.ceil(1.1 * twinItems));
  });
});
