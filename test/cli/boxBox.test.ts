/**
 * The scene examples/scenes/box-box.json (dt = 0.5 s) against hand-computed box–box contacts, through
 * the real command (child process), the in-process run function and stepScene: a box with a zero
 * velocity resting on a static box, a fast box crossing a thin static box within one tick, two
 * moving boxes head-on (swept touch, then overlap), two touching static boxes never reported, and a
 * box overlapping a static one. In a box–box contact `a` is the lower user id whatever the order in
 * the file: the crossing box and the overlapping box are listed before the box of lower id, so their
 * contacts are the ECS's swapped (issue 26: they had `a` = the box listed first).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT, sceneFileTests, tickPairs, type ExpectedContact } from './helpers.js';

const SCENE = join(ROOT, 'examples/scenes/box-box.json');

type Expected = ExpectedContact;

/** Box 21 (half 0.5, centre (0, 1.5, 0), velocity 0) on box 20's top face y = 1: b's face y first, from 21 toward 20. */
const resting: Expected = { a: 20, b: 21, toi: 0, depth: 0, normal: [0, -1, 0], point: [0, 1, 0] };

/**
 * Box 61 (half 1, centre (0, 0, 80), listed first, velocity 0) and the static box 60 (half 0.5, centre
 * (1.25, 0, 80)) overlap by 1 - 0.75 = 0.25 along x; a = 60, so the normal points from 61 toward 60
 * and the point is on 61's face x = 1 (60's face x = 0.75 clipped to it, moved onto it): the box
 * listed first as `a` would have given the normal (-1, 0, 0) and the point on 60's face, x = 0.75.
 */
const overlapping: Expected = { a: 60, b: 61, toi: 0, depth: 0.25, normal: [1, 0, 0], point: [1, 0, 80] };

const EXPECTED: Expected[][] = [
  [
    resting,
    // Box 31 (listed first, b: the higher id) from x = 16 moves 8 per tick; its face x = 16.25 reaches
    // the wall's face x = 19.875 at toi = 3.625 / 8; the normal points from 31 toward 30; the point is
    // the middle of 31's face on the wall's face.
    { a: 30, b: 31, toi: 0.453125, depth: 0, normal: [1, 0, 0], point: [19.875, 0, 20] },
    overlapping,
  ],
  [
    resting,
    // Tick 1 starts with 40 at x = 1 and 41 at 3.5 (faces 1.5 and 3: gap 1.5), closing 2 per tick:
    // toi 0.75, faces meet at x = 1.5 + 0.75 = 2.25.
    { a: 40, b: 41, toi: 0.75, depth: 0, normal: [-1, 0, 0], point: [2.25, 0, 40] },
    overlapping,
  ],
  [
    resting,
    // 40 at x = 2 and 41 at 2.5: overlap 0.5 along x, from 41 toward 40; the point is on 41's face x = 2.
    { a: 40, b: 41, toi: 0, depth: 0.5, normal: [-1, 0, 0], point: [2, 0, 40] },
    overlapping,
  ],
];

/** The summary line of the three ticks. */
const SUMMARY = { ticks: 3, spheres: 0, boxes: 10, dt: 0.5, continuous: true, contacts: { total: 9, max: 3 } };

const ARGS = ['--scene', SCENE, '--ticks', '3', '--json'];

describe('box-box.json', () => {
  sceneFileTests(SCENE, ARGS, EXPECTED, SUMMARY);

  it('--no-continuous misses the crossing box and the approach, keeps the resting pair and the overlaps', () => {
    expect(tickPairs([...ARGS, '--no-continuous'])).toEqual([[[20, 21], [60, 61]], [[20, 21], [60, 61]], [[20, 21], [40, 41], [60, 61]]]);
  });
});
