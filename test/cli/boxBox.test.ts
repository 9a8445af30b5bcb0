/**
 * The scene examples/scenes/box-box.json (dt = 0.5 s) against hand-computed box–box contacts, through
 * the real command (child process), the in-process run function and stepScene: a box with a zero
 * velocity resting on a static box, a fast box crossing a thin static box within one tick, two
 * moving boxes head-on (swept touch, then overlap), and two touching static boxes never reported.
 * In a box–box contact `a` is the box listed first in the file (the lower entity id).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT, sceneFileTests, tickPairs, type ExpectedContact } from './helpers.js';

const SCENE = join(ROOT, 'examples/scenes/box-box.json');

type Expected = ExpectedContact;

/** Box 21 (half 0.5, centre (0, 1.5, 0), velocity 0) on box 20's top face y = 1: b's face y first, from 21 toward 20. */
const resting: Expected = { a: 20, b: 21, toi: 0, depth: 0, normal: [0, -1, 0], point: [0, 1, 0] };

const EXPECTED: Expected[][] = [
  [
    resting,
    // Box 31 (listed first: a) from x = 16 moves 8 per tick; its face x = 16.25 reaches the wall's
    // face x = 19.875 at toi = 3.625 / 8; the point is the middle of 31's face on the wall's face.
    { a: 31, b: 30, toi: 0.453125, depth: 0, normal: [-1, 0, 0], point: [19.875, 0, 20] },
  ],
  [
    resting,
    // Tick 1 starts with 40 at x = 1 and 41 at 3.5 (faces 1.5 and 3: gap 1.5), closing 2 per tick:
    // toi 0.75, faces meet at x = 1.5 + 0.75 = 2.25.
    { a: 40, b: 41, toi: 0.75, depth: 0, normal: [-1, 0, 0], point: [2.25, 0, 40] },
  ],
  [
    resting,
    // 40 at x = 2 and 41 at 2.5: overlap 0.5 along x, from 41 toward 40; the point is on 41's face x = 2.
    { a: 40, b: 41, toi: 0, depth: 0.5, normal: [-1, 0, 0], point: [2, 0, 40] },
  ],
];

/** The summary line of the three ticks. */
const SUMMARY = { ticks: 3, spheres: 0, boxes: 8, dt: 0.5, continuous: true, contacts: { total: 6, max: 2 } };

const ARGS = ['--scene', SCENE, '--ticks', '3', '--json'];

describe('box-box.json', () => {
  sceneFileTests(SCENE, ARGS, EXPECTED, SUMMARY);

  it('--no-continuous misses the crossing box and the approach, keeps the resting pair and the overlap', () => {
    expect(tickPairs([...ARGS, '--no-continuous'])).toEqual([[[20, 21]], [[20, 21]], [[20, 21], [40, 41]]]);
  });
});
