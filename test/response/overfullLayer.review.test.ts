/**
 * Open (issue 24; docs/response.md, Limits, "A plate pressed through a layer of balls"): a kinematic
 * plate pressed down into a layer of touching balls (radius 0.5) filling a floor between four walls,
 * sometimes with one more ball on it. The layer has no room, so the plate must pass through the
 * balls under it (rule 2), but rule 3 breaks: a ball the projection leaves in the plate at the end of
 * a tick is pushed out again at the next by its whole depth into the layer, the passes drive the
 * layer apart, and the yield does not bring it back. In a scratch sweep of 40 random scenes of this
 * kind (three seeds) 26, 23 and 23 ended ticks with two balls beyond 1 % of their radii sum (worst
 * 0.84, 0.70 and 0.93). A fix that carried a squeeze from tick to tick (branch wip/squeeze-mark) made
 * these pass, and a second hostile review found it kept spheres in pushers with room (rows of more
 * than 8 balls, balls dragged along a pusher's edge over a floor) and launched balls out of open heaps
 * under a plate (41 u/s against 6): not kept. Three scenes of the sweep, named expected failures.
 */
import { describe, expect, it } from 'vitest';
import { step } from '../../src/index.js';
import { depths, dynamicSphere, emptyScene, kinematicBox, staticBox, type Scene } from '../support/responseScenes.js';

interface Layer {
  /** Balls a side (c × c, radius 0.5, touching, filling the floor between the walls). */
  c: number;
  /** The plate's speed down (u/s). */
  vs: number;
  /** The plate's centre in x and z. */
  ox: number;
  oz: number;
  /** The plate's half extents in x and z (half height 0.5). */
  hx: number;
  hz: number;
  /** One more ball on the layer, under the plate (at 0.3 of its offset). */
  top: boolean;
}

/** The scene: the plate starts 2.1 above the floor and goes down through everything in 60 ticks. */
function layer(o: Layer): Scene {
  const s = emptyScene({ gravity: [0, -9.81, 0], capacity: o.c * o.c + 16 });
  const w = o.c / 2;
  staticBox(s, [0, -1, 0], [w + 2, 1, w + 2]);
  staticBox(s, [-w - 1, 2, 0], [1, 3, w + 2]);
  staticBox(s, [w + 1, 2, 0], [1, 3, w + 2]);
  staticBox(s, [0, 2, -w - 1], [w + 2, 3, 1]);
  staticBox(s, [0, 2, w + 1], [w + 2, 3, 1]);
  for (let i = 0; i < o.c; i++) for (let j = 0; j < o.c; j++) dynamicSphere(s, [-w + 0.5 + i, 0.5, -w + 0.5 + j], 0.5, [0, 0, 0], 'slide');
  if (o.top) dynamicSphere(s, [o.ox * 0.3, 1.5, o.oz * 0.3], 0.5, [0, 0, 0], 'slide');
  kinematicBox(s, [o.ox, 2.6, o.oz], [o.hx, 0.5, o.hz], [0, -o.vs, 0]);
  return s;
}

/** The worst end-of-tick overlap of two balls (of their radii sum) and inside a static box (of the radius) over 60 ticks, run once per scene. */
const runs = new Map<Layer, { spheres: number; statics: number }>();
function press(o: Layer): { spheres: number; statics: number } {
  const done = runs.get(o);
  if (done) return done;
  const s = layer(o);
  let spheres = 0, statics = 0;
  for (let t = 0; t < 60; t++) {
    step(s.physics);
    const d = depths(s);
    spheres = Math.max(spheres, d.spheres);
    statics = Math.max(statics, d.statics);
  }
  runs.set(o, { spheres, statics });
  return { spheres, statics };
}

const SCENES: Array<[string, Layer]> = [
  ['6 × 6 and a ball on it, 2.91 u/s (0.533 today)', { c: 6, vs: 2.91, ox: -0.06, oz: 1.13, hx: 1.22, hz: 1.32, top: true }],
  ['8 × 8 and a ball on it, 1.79 u/s (0.149 today)', { c: 8, vs: 1.79, ox: 0.14, oz: 0.63, hx: 1.58, hz: 1.91, top: true }],
  ['8 × 8, 2.44 u/s (0.721 today)', { c: 8, vs: 2.44, ox: 1.22, oz: 0.39, hx: 1.24, hz: 0.87, top: false }],
];

describe('a plate pressed through a layer of touching balls between walls', () => {
  it.each(SCENES)('%s: no ball inside a wall or the floor', (_, o) => {
    expect(press(o).statics).toBeLessThanOrEqual(1e-9);
  });
  it.fails.each(SCENES)('%s: no two balls beyond 1 %% of their radii sum', (_, o) => {
    expect(press(o).spheres).toBeLessThanOrEqual(0.01);
  });
});
