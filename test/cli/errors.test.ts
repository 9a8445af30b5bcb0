/**
 * User errors: bad arguments and bad scene files exit with code 2 and one clear line on stderr that
 * names the problem (option; file, body index and id, field), never a stack trace.
 */
import { describe, expect, it } from 'vitest';
import { parseScene, SceneFileError } from '../../src/scenes/sceneFile.js';
import { parseArgs, UsageError } from '../../src/cli/args.js';
import { runChild, runInProcess, tempFile, type Outcome } from './helpers.js';

function expectUserError(r: Outcome, message: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
}

const sphere = (extra: object = {}) => ({ id: 7, shape: 'sphere', position: [0, 0, 0], radius: 1, ...extra });
const box = (extra: object = {}) => ({ id: 9, shape: 'box', position: [0, 0, 0], halfExtents: [1, 1, 1], ...extra });
const sceneText = (bodies: unknown[], top: object = {}) => JSON.stringify({ ...top, bodies });

describe('argument errors', () => {
  const cases: [string[], RegExp][] = [
    [['--bogus'], /unknown option --bogus/],
    [['extra'], /unexpected argument "extra"/],
    [['constructor'], /unexpected argument "constructor"/],
    [['--toString'], /unknown option --toString/],
    [['--ticks'], /--ticks needs a value/],
    [['--ticks', '--json'], /--ticks needs a value/],
    [['--ticks', 'abc'], /--ticks must be an integer in 0\.\.\d+, got "abc"/],
    [['--ticks', '-1'], /--ticks must be an integer/],
    [['--spheres', '1.5'], /--spheres must be an integer/],
    [['--seed', '4294967296'], /--seed must be an integer in 0\.\.4294967295/],
    [['--json=yes'], /--json takes no value/],
    [['--scene', 'x.json', '--spheres', '10'], /--spheres applies to the built-in arena/],
    [['--scene='], /--scene needs a file name/],
  ];
  for (const [args, message] of cases) {
    it(`${args.join(' ')} → exit 2`, () => {
      expect(() => parseArgs(args)).toThrow(UsageError);
      const r = runInProcess(args);
      expectUserError(r, message);
      expect(r.stderr).toMatch(/--help/);
    });
  }

  it('child process: exit code 2 and the message on stderr', () => {
    expectUserError(runChild(['--ticks', 'many']), /^bitecs-collide: --ticks must be an integer in 0\.\.10000000, got "many"\n/);
  });

  it('accepts --name=value and the defaults', () => {
    expect(parseArgs([])).toMatchObject({ spheres: 10000, boxes: 1000, ticks: 600, seed: 1, continuous: true, json: false });
    expect(parseArgs(['--spheres=200', '--ticks=5', '--no-continuous'])).toMatchObject({ spheres: 200, boxes: 20, ticks: 5, continuous: false });
    expect(parseArgs(['--spheres', '50', '--boxes', '0'])).toMatchObject({ spheres: 50, boxes: 0 });
  });

  it('--help prints the usage and exits 0', () => {
    const r = runInProcess(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: /);
    expect(r.stdout).toMatch(/--scene FILE/);
  });
});

describe('scene file errors', () => {
  const cases: [string, string, RegExp][] = [
    ['invalid JSON', '{"bodies": [', /invalid JSON/],
    ['not an object', '[1, 2]', /scene: must be a JSON object with "bodies", got an array of 2/],
    ['no bodies', '{}', /bodies: must be an array of bodies, got undefined/],
    ['unknown top-level field', sceneText([], { dtt: 1 }), /dtt: unknown field/],
    ['bad dt', sceneText([], { dt: 0 }), /dt: must be a finite number > 0 \(seconds\), got 0/],
    ['body not an object', sceneText([3]), /bodies\[0\]: body: must be an object, got 3/],
    ['missing id', sceneText([{ shape: 'sphere', position: [0, 0, 0], radius: 1 }]), /bodies\[0\]: id: must be a non-negative integer, got undefined/],
    ['negative id', sceneText([sphere({ id: -1 })]), /bodies\[0\]: id: must be a non-negative integer, got -1/],
    ['fractional id', sceneText([sphere({ id: 1.5 })]), /bodies\[0\]: id: must be a non-negative integer, got 1\.5/],
    ['duplicate id', sceneText([sphere(), box({ id: 7 })]), /bodies\[1\]: id: duplicate id 7 \(also bodies\[0\]\)/],
    ['unknown shape', sceneText([sphere({ shape: 'cylinder' })]), /bodies\[0\] \(id 7\): shape: must be "sphere" or "box", got "cylinder"/],
    ['negative radius', sceneText([box(), sphere({ radius: -1 })]), /bodies\[1\] \(id 7\): radius: must be a finite number >= 0, got -1/],
    ['missing radius', sceneText([sphere({ radius: undefined })]), /bodies\[0\] \(id 7\): radius: must be a finite number >= 0, got undefined/],
    ['short position', sceneText([sphere({ position: [1, 2] })]), /bodies\[0\] \(id 7\): position: must be an array of 3 numbers, got an array of 2/],
    ['string in position', sceneText([sphere({ position: [1, '2', 3] })]), /bodies\[0\] \(id 7\): position\[1\]: must be a finite number, got "2"/],
    ['bad velocity', sceneText([sphere({ velocity: [0, null, 0] })]), /bodies\[0\] \(id 7\): velocity\[1\]: must be a finite number, got null/],
    ['negative half extent', sceneText([box({ halfExtents: [1, -2, 1] })]), /bodies\[0\] \(id 9\): halfExtents\[1\]: must be a finite number >= 0, got -2/],
    ['zero rotation', sceneText([box({ rotation: [0, 0, 0, 0] })]), /bodies\[0\] \(id 9\): rotation: quaternion has length 0 \(identity is \[0, 0, 0, 1\]\)/],
    ['typo in a field', sceneText([box({ halfExtents: undefined, halfExtent: [1, 1, 1] })]), /bodies\[0\] \(id 9\): halfExtent: unknown field \(allowed: id, shape, position, halfExtents, rotation, velocity\)/],
    ['sphere with a box field', sceneText([sphere({ rotation: [0, 0, 0, 1] })]), /bodies\[0\] \(id 7\): rotation: unknown field/],
  ];
  for (const [name, text, message] of cases) {
    it(`${name} → exit 2 naming the field`, () => {
      expect(() => parseScene(text, 'scene.json')).toThrow(SceneFileError);
      const file = tempFile('scene.json', text);
      const r = runInProcess(['--scene', file, '--ticks', '1']);
      expectUserError(r, message);
      expect(r.stderr).toContain(file);
    });
  }

  it('a missing file', () => {
    expectUserError(runInProcess(['--scene', 'no/such/scene.json']), /no\/such\/scene\.json: cannot read scene file: no such file/);
  });

  it('a body that becomes invalid during the run names the tick and the body', () => {
    const text = sceneText([sphere({ id: 42, position: [1.7e308, 0, 0], velocity: [1e308, 0, 0] })], { dt: 1 });
    const r = runInProcess(['--scene', tempFile('overflow.json', text), '--ticks', '3']);
    expectUserError(r, /at tick 1: bodies\[0\] \(id 42\): Position\.x: must be finite, got Infinity/);
  });

  it('child process: exit code 2, file and field on stderr, nothing on stdout', () => {
    const file = tempFile('bad.json', sceneText([sphere({ radius: 'big' })]));
    const r = runChild(['--scene', file, '--json']);
    expectUserError(r, /^bitecs-collide: error: .*bad\.json: bodies\[0\] \(id 7\): radius: must be a finite number >= 0, got "big"\n$/);
  });

  it('defaults: dt 1/60, no velocity, identity rotation', () => {
    const scene = parseScene(sceneText([sphere(), box()]));
    expect(scene.dt).toBe(1 / 60);
    expect(scene.bodies[0]).toEqual({ id: 7, shape: 'sphere', position: [0, 0, 0], radius: 1 });
    expect(scene.bodies[1]).toEqual({ id: 9, shape: 'box', position: [0, 0, 0], halfExtents: [1, 1, 1] });
  });
});
