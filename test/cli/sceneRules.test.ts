/**
 * Regression tests of issue 26 for the scene files of the runner:
 * - the runner rejected the rotation `[1e-7, 0, 0, 0]` as "has length 0" although `addBox`
 *   accepts and normalises it: a scene file now accepts exactly the quaternions `addBox` accepts.
 */
import { createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addBox, createPhysics } from '../../src/index.js';
import { parseScene, SceneFileError, type SceneContact } from '../../src/scenes/sceneFile.js';
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
