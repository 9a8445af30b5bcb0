/**
 * Sphere queries in cell order (src/world/cellOrder.ts) list exactly what the id-order loop lists:
 * the same candidate pairs in the same order, the same work counters and the same contacts, tick by
 * tick, on static-only scenes that take each of its paths (one bucket, several cells, sliced fast
 * movers, far from the origin). The cell order is forced with `cellOrderMin = 0`; the default
 * keeps these small scenes in id order.
 */
import { describe, expect, it } from 'vitest';
import { addSphere } from '../../src/index.js';
import { buildArena, type Arena } from '../../src/scenes/buildArena.js';
import { internalsOf } from '../../src/world/internal.js';

interface SceneOptions {
  spheres: number;
  continuous?: boolean;
  /** Extra spheres: fast (sliced), large (several cells) and far from the arena. */
  extras?: boolean;
  /** Added to every coordinate of the extras' far sphere. */
  far?: number;
}

function scene(options: SceneOptions, cellOrder: boolean): Arena {
  const arena = buildArena({ spheres: options.spheres, seed: 7, physics: { continuous: options.continuous ?? false } });
  const physics = arena.physics;
  if (options.extras) {
    const L = arena.spec.size;
    const filter = { group: 2, mask: 1 };
    addSphere(physics, { position: [L / 2, L / 2, L / 2], velocity: [40 * L, 3 * L, -20 * L], radius: 0.2, ...filter });
    addSphere(physics, { position: [L / 3, L / 4, L / 2], velocity: [0, 0, 0], radius: L / 5, ...filter });
    addSphere(physics, { position: [L / 4, 2 * L / 3, L / 5], velocity: [0.5, -0.25, 1], radius: L / 12, ...filter });
    const f = options.far ?? 1e7;
    addSphere(physics, { position: [f, -f, f], velocity: [1, 2, 3], radius: 0.5, ...filter });
  }
  internalsOf(physics).cellOrderMin = cellOrder ? 0 : Infinity;
  return arena;
}

/** The broadphase's output and counters after the last tick, and the contacts. */
function snapshot(arena: Arena): number[] {
  const internal = internalsOf(arena.physics);
  const { pairs, work } = internal;
  const c = arena.physics.contacts;
  const out = [pairs.count, ...Array.from(work)];
  for (let k = 0; k < pairs.count; k++) out.push(pairs.a[k], pairs.b[k]);
  for (let k = 0; k < c.count; k++) out.push(c.a[k], c.b[k], c.nx[k], c.ny[k], c.nz[k], c.depth[k], c.toi[k]);
  return out;
}

function expectSameTicks(options: SceneOptions, ticks: number): void {
  const idOrder = scene(options, false);
  const cellOrder = scene(options, true);
  let pairs = 0;
  for (let t = 0; t < ticks; t++) {
    idOrder.tick();
    cellOrder.tick();
    const a = snapshot(idOrder);
    const b = snapshot(cellOrder);
    expect(b, `tick ${t}`).toEqual(a);
    pairs += a[0];
  }
  expect(pairs, 'the scene lists pairs').toBeGreaterThan(0);
}

describe('sphere queries in cell order', () => {
  it('list the same pairs, counters and contacts as id order: static contacts', () => {
    expectSameTicks({ spheres: 3000 }, 30);
  });

  it('… continuous contacts', () => {
    expectSameTicks({ spheres: 3000, continuous: true }, 30);
  });

  it('… with a sliced fast mover, spheres over several cells and one far away', () => {
    expectSameTicks({ spheres: 2000, continuous: true, extras: true }, 30);
    expectSameTicks({ spheres: 2000, continuous: false, extras: true, far: 1e12 }, 10);
  });

  it('is the default only for large worlds', () => {
    const arena = buildArena({ spheres: 100, seed: 1 });
    expect(internalsOf(arena.physics).cellOrderMin).toBeGreaterThan(100_000);
  });
});
