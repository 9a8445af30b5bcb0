/**
 * The scene examples/scenes/known-contacts.json (dt = 0.5 s) against hand-computed contacts, through
 * the real command (child process) and the in-process run function. Every tick line is compared:
 * the pairs in (a, b) order, then toi, depth, normal and point within 1e-12.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildScene, stepScene } from '../../src/scenes/buildScene.js';
import { parseScene } from '../../src/scenes/sceneFile.js';
import { formatTickLine } from '../../src/cli/output.js';
import { KNOWN, runInProcess, sceneFileTests, tickPairs, type ExpectedContact } from './helpers.js';

const S2 = Math.SQRT2;
const H = Math.SQRT1_2;

type Expected = ExpectedContact;

/** Sphere 1 (radius 1, centre (0, 2, 0)) touches the top face y = 1 of box 0 at (0, 1, 0). */
const resting: Expected = { a: 1, b: 0, toi: 0, depth: 0, normal: [0, 1, 0], point: [0, 1, 0] };

/** Hand-computed contacts of ticks 0, 1, 2. */
const EXPECTED: Expected[][] = [
  [
    resting,
    // Sphere 2 (r 1/8) from x = 16 moves 8 per tick; box 200's face x = 19.875 is reached when the
    // centre is at 19.75: toi = 3.75 / 8. The box is 0.25 thick: a discrete test would miss it.
    { a: 2, b: 200, toi: 0.46875, depth: 0, normal: [-1, 0, 0], point: [19.875, 0, 20] },
  ],
  [
    resting,
    // Tick 1 starts with centres at x = 2 and 5 (distance 3), closing 4 per tick, touching at 2:
    // toi = 1/4; then 3 is at 2.5 and 4 at 4.5; the point is on 4: 4.5 - 1.
    { a: 3, b: 4, toi: 0.25, depth: 0, normal: [-1, 0, 0], point: [3.5, 0, 40] },
    // 11 (r 1, created first) at 0.5 and 10 (r 0.75) at 2.5, closing 1 per tick, touch at 1.75:
    // toi = 1/4, 11 at 0.625; a = 10, so the normal points from 11 toward 10 and the point is on 11.
    { a: 10, b: 11, toi: 0.25, depth: 0, normal: [1, 0, 0], point: [1.625, 0, 80] },
  ],
  [
    resting,
    // Centres at x = 4 (sphere 3) and 3 (sphere 4): overlap 2 - 1 = 1, normal from 4 toward 3.
    { a: 3, b: 4, toi: 0, depth: 1, normal: [1, 0, 0], point: [4, 0, 40] },
    // Box 300 turned 45° about z has its edge at x = -√2; sphere 5 (r 1/2) goes from -2 to -1 and
    // touches when its centre is at -√2 - 1/2: toi = 1.5 - √2.
    { a: 5, b: 300, toi: 1.5 - S2, depth: 0, normal: [-1, 0, 0], point: [-S2, 0, 60] },
    // Sphere 6 goes from (1.5, 1.5) to (1, 1) toward the face x + y = √2 (normal (1, 1, 0)/√2);
    // it touches when x + y = 1.5·√2: toi = (1.5 - 0.75·√2) / 0.5 = 3 - 1.5·√2, at the face centre.
    { a: 6, b: 300, toi: 3 - 1.5 * S2, depth: 0, normal: [H, H, 0], point: [H, H, 60] },
    // 11 at x = 1, 10 at x = 2: overlap 1.75 - 1 = 0.75; the point is on 11: 1 + 1·r11.
    { a: 10, b: 11, toi: 0, depth: 0.75, normal: [1, 0, 0], point: [2, 0, 80] },
  ],
];

/** The summary line of the three ticks. */
const SUMMARY = { ticks: 3, spheres: 8, boxes: 3, dt: 0.5, continuous: true, contacts: { total: 10, max: 5 } };

const ARGS = ['--scene', KNOWN, '--ticks', '3', '--json'];

describe('known-contacts.json', () => {
  sceneFileTests(KNOWN, ARGS, EXPECTED, SUMMARY);

  it('--no-continuous misses the tunnelling sphere and the approaching pairs', () => {
    expect(tickPairs([...ARGS, '--no-continuous'])).toEqual([[[1, 0]], [[1, 0]], [[1, 0], [3, 4], [10, 11]]]);
  });

  it('prints the human summary without --json', () => {
    const r = runInProcess(['--scene', KNOWN, '--ticks', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ticks\s+3 \(dt 0\.5 s, continuous\)/);
    expect(r.stdout).toMatch(/spheres\s+8\n/);
    expect(r.stdout).toMatch(/boxes\s+3\n/);
    expect(r.stdout).toMatch(/contacts\/tick\s+mean 3\.33, max 5 \(total 10\)/);
    expect(r.stdout).toMatch(/state hash\s+[0-9a-f]{16}\n/);
  });
});

describe('JSON numbers', () => {
  it('prints -0 as 0 and numbers as shortest round-trip', () => {
    const built = buildScene(parseScene(readFileSync(KNOWN, 'utf8'), KNOWN));
    stepScene(built);
    const swapped = stepScene(built).find((c) => c.a === 10)!;
    // The swapped pair's normal is the negated (-1, 0, 0): its zero components are -0.
    expect(Object.is(swapped.normal[1], -0)).toBe(true);
    const line = formatTickLine(1, [swapped, { ...swapped, toi: 0.1 + 0.2 }]);
    expect(line).toContain('"normal":[1,0,0]');
    expect(line).toContain('"toi":0.30000000000000004');
    expect(line).not.toContain('-0');
  });
});
