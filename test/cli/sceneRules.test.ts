/**
 * Regression tests of issue 26 for the scene files of the runner:
 * - the runner rejected the rotation `[1e-7, 0, 0, 0]` as "has length 0" although `addBox`
 *   accepts and normalises it: a scene file now accepts exactly the quaternions `addBox` accepts;
 * - box–box contacts had `a` = the box listed first in the file while sphere–sphere contacts had
 *   `a` = the lower user id: now both use the lower user id (a sphere–box pair keeps the sphere as
 *   `a`), so the contacts do not depend on the order of the bodies in the file.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, createPhysics } from '../../src/index.js';
import { buildScene, stepScene } from '../../src/scenes/buildScene.js';
import { createRng, randomQuat, type Rng } from '../../src/scenes/prng.js';
import { parseScene, SceneFileError, type SceneBody, type SceneContact } from '../../src/scenes/sceneFile.js';
import { jsonLines, runInProcess, tempFile } from './helpers.js';

const boxText = (rotation: string) =>
  `{"dt": 0.5, "bodies": [{"id": 9, "shape": "box", "position": [0, 0, 0], "halfExtents": [2, 1, 0.5], "rotation": ${rotation}}]}`;

/** Whether `addBox` accepts the quaternion (JSON text, parsed as a scene file would parse it). */
function addBoxAccepts(rotation: string): boolean {
  const q = JSON.parse(rotation) as [number, number, number, number];
  try {
    addBox(createPhysics(createWorld(), { capacity: 4 }), { position: [0, 0, 0], halfExtents: [2, 1, 0.5], rotation: q });
    return true;
  } catch {
    return false;
  }
}

function sceneAccepts(rotation: string): boolean {
  try {
    parseScene(boxText(rotation));
    return true;
  } catch (e) {
    expect(e).toBeInstanceOf(SceneFileError);
    return false;
  }
}

describe('regression: scene rotations are the quaternions addBox accepts', () => {
  // JSON text: 1e-400 parses to 0 and 1e400 to Infinity; -0 stays -0.
  const cases = [
    '[1e-7, 0, 0, 0]',
    '[0, 0, 0, 1e-7]',
    '[5e-324, 0, 0, 0]',
    '[1e-200, 1e-200, 0, 0]',
    '[1e300, 1e300, 1e300, 1e300]',
    '[0, 0, 0, 2]',
    '[0, 0, 0, 0]',
    '[-0, 0, -0, 0]',
    '[1e-400, 0, 0, 0]',
    '[1e400, 0, 0, 1]',
  ];
  for (const rotation of cases) {
    it(`${rotation}: the scene file accepts it exactly when addBox does`, () => {
      expect(sceneAccepts(rotation)).toBe(addBoxAccepts(rotation));
    });
  }

  it('the small quaternions are accepted and an all-zero one is still an error naming the field', () => {
    expect(sceneAccepts('[1e-7, 0, 0, 0]')).toBe(true);
    expect(sceneAccepts('[5e-324, 0, 0, 0]')).toBe(true);
    expect(() => parseScene(boxText('[0, 0, 0, 0]'), 'zero.json')).toThrow(
      'zero.json: bodies[0] (id 9): rotation: quaternion has length 0 (identity is [0, 0, 0, 1])',
    );
  });

  it('the runner runs [1e-7, 0, 0, 0] as the half turn [1, 0, 0, 0]: the same contacts', () => {
    // A sphere falling onto the box's top face: a half turn about x keeps the box's shape in place.
    const scene = (rotation: string) =>
      `{"dt": 0.5, "bodies": [{"id": 9, "shape": "box", "position": [0, 0, 0], "halfExtents": [2, 1, 0.5], "rotation": ${rotation}},` +
      ` {"id": 3, "shape": "sphere", "position": [0.5, 3, 0.25], "radius": 0.5, "velocity": [0, -2, 0]}]}`;
    const run = (rotation: string) => {
      const r = runInProcess(['--scene', tempFile('tiny.json', scene(rotation)), '--ticks', '3', '--json', '--no-progress']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return jsonLines(r.stdout).slice(0, -1);
    };
    const tiny = run('[1e-7, 0, 0, 0]');
    expect(tiny).toEqual(run('[1, 0, 0, 0]'));
    expect((tiny as { contacts: SceneContact[] }[]).flatMap((l) => l.contacts).length).toBeGreaterThan(0);
  });
});

/** A seeded scene of spheres and boxes close together, moving and static, some boxes rotated. */
function randomBodies(rng: Rng, n: number): SceneBody[] {
  const bodies: SceneBody[] = [];
  const ids = Array.from({ length: n }, (_, i) => 10 + 7 * i);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  const v3 = (s: number): [number, number, number] => [rng.range(-s, s), rng.range(-s, s), rng.range(-s, s)];
  for (let i = 0; i < n; i++) {
    const moving = rng.next() < 0.6 ? { velocity: v3(4) } : {};
    if (rng.next() < 0.5) bodies.push({ id: ids[i], shape: 'sphere', position: v3(3), radius: rng.range(0.2, 1), ...moving });
    else bodies.push({ id: ids[i], shape: 'box', position: v3(3), halfExtents: [rng.range(0.2, 1), rng.range(0.2, 1), rng.range(0.2, 1)], rotation: randomQuat(rng), ...moving });
  }
  return bodies;
}

function contactsOf(bodies: SceneBody[], ticks: number): SceneContact[][] {
  const built = buildScene(parseScene(JSON.stringify({ dt: 0.1, bodies })));
  return Array.from({ length: ticks }, () => stepScene(built));
}

describe('regression: one pair order for the runner, whatever the order of the bodies in the file', () => {
  const SCENES = 60;
  const TICKS = 4;

  it(`${SCENES} seeded scenes: every pair has a = the lower user id or the sphere of a sphere–box pair`, () => {
    let boxPairs = 0;
    for (let s = 0; s < SCENES; s++) {
      const bodies = randomBodies(createRng(1000 + s), 12);
      const shape = new Map(bodies.map((b) => [b.id, b.shape]));
      for (const tick of contactsOf(bodies, TICKS)) {
        for (const c of tick) {
          const [sa, sb] = [shape.get(c.a), shape.get(c.b)];
          if (sa !== sb) expect([sa, sb]).toEqual(['sphere', 'box']);
          else expect(c.a).toBeLessThan(c.b);
          if (sa === 'box' && sb === 'box') boxPairs++;
        }
      }
    }
    expect(boxPairs).toBeGreaterThan(20);
  });

  it(`${SCENES} seeded scenes listed in reverse: the same pairs and the same contacts`, () => {
    let compared = 0;
    for (let s = 0; s < SCENES; s++) {
      const bodies = randomBodies(createRng(2000 + s), 12);
      const forward = contactsOf(bodies, TICKS);
      const reversed = contactsOf(bodies.slice().reverse(), TICKS);
      for (let k = 0; k < TICKS; k++) {
        expect(reversed[k].map((c) => [c.a, c.b]), `scene ${s} tick ${k}`).toEqual(forward[k].map((c) => [c.a, c.b]));
        forward[k].forEach((c, i) => {
          const r = reversed[k][i];
          const what = `scene ${s} tick ${k} (${c.a}, ${c.b})`;
          const values = (x: SceneContact) => [x.toi, x.depth, ...x.normal, ...x.point];
          const diff = Math.max(...values(c).map((v, j) => Math.abs(v - values(r)[j])));
          expect(diff, what).toBeLessThanOrEqual(1e-9);
          compared++;
        });
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
