/**
 * Running the headless simulation: the built-in seeded arena or a scene file, tick by tick, with
 * timing, contact statistics, optional JSON Lines and the final state hash.
 *
 * Bodies move by their velocities only (no collision response: the library's default integration),
 * so a scene file's output can be checked by hand. Tick k's contacts are those detected during the
 * step from the state after k steps (ticks are numbered from 0).
 * @module
 */
import { hashPhysicsState, PhysicsInputError, runBroadphase, runIntegrate, runNarrowphase, type Physics } from '../index.js';
import { reflectInBounds } from '../scenes/arena.js';
import { buildArena } from '../scenes/buildArena.js';
import { advanceScene, buildScene, detectScene, readSceneContacts, type BuiltScene } from '../scenes/buildScene.js';
import { parseScene, SceneFileError, type SceneContact } from '../scenes/sceneFile.js';
import { loadSceneFile } from './loadSceneFile.js';
import { UsageError, type CliOptions } from './args.js';
import { formatProblem } from '../physics/errors.js';
import { checkRunMemory } from './memory.js';
import { formatSummaryLine, formatSummaryText, formatTickLine, type RunIO, type RunSummary } from './output.js';
import { createProgress } from './progress.js';

/** A run that cannot print its result: a non-finite number in a contact (exit code 2). */
export class RunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunError';
  }
}

/** The one-line message of a user error (a bad scene, a run error), or undefined for anything else. */
export function runErrorMessage(e: unknown): string | undefined {
  if (e instanceof SceneFileError || e instanceof RunError || e instanceof UsageError) return e.message;
  if (e instanceof PhysicsInputError) return formatProblem(e);
  return undefined;
}

/** A simulation as the runner drives it: detection, contact reading and motion are separate. */
interface Simulation {
  physics: Physics;
  describe: Pick<RunSummary, 'scene' | 'seed' | 'spheres' | 'boxes'>;
  /** Broadphase and narrowphase of one tick. */
  detect(): void;
  /** The tick's contacts with the ids to print (call between detect and advance). */
  contacts(): SceneContact[];
  /** Moves the bodies (and, in the arena, reflects them at the walls). */
  advance(): void;
}

/** Contacts of the world list with entity ids (the arena has no user ids). */
function entityContacts(physics: Physics): SceneContact[] {
  const c = physics.contacts;
  const out: SceneContact[] = new Array(c.count);
  for (let i = 0; i < c.count; i++) {
    out[i] = { a: c.a[i], b: c.b[i], toi: c.toi[i], depth: c.depth[i], normal: [c.nx[i], c.ny[i], c.nz[i]], point: [c.px[i], c.py[i], c.pz[i]] };
  }
  return out;
}

/** The built-in arena; a tick is the same as `Arena.tick()` (step, then reflect at the walls). */
function arenaSimulation(o: CliOptions): Simulation {
  checkRunMemory(o.spheres + o.boxes, o.ticks);
  const arena = buildArena({ spheres: o.spheres, boxes: o.boxes, seed: o.seed, physics: { continuous: o.continuous } });
  const { physics, sphereIds, spec } = arena;
  const { Position, Velocity } = physics.components;
  return {
    physics,
    describe: { scene: 'arena', seed: o.seed, spheres: sphereIds.length, boxes: arena.boxIds.length },
    detect: () => {
      runBroadphase(physics);
      runNarrowphase(physics);
    },
    contacts: () => entityContacts(physics),
    advance: () => {
      if (physics.integrate) runIntegrate(physics);
      reflectInBounds(Position, Velocity, sphereIds, sphereIds.length, spec.size);
    },
  };
}

/** Turns a `PhysicsInputError` of a scene body into a `SceneFileError` naming the body's user id. */
function sceneBodyError(built: BuiltScene, file: string, e: unknown): unknown {
  if (!(e instanceof PhysicsInputError) || e.eid < 0) return e;
  const index = built.eids.indexOf(e.eid);
  const body = index >= 0 ? `bodies[${index}] (id ${built.scene.bodies[index].id})` : `entity ${e.eid}`;
  return new SceneFileError(file, `at tick ${built.physics.tick}: ${body}: ${e.field}: ${e.problem}`);
}

function sceneSimulation(o: CliOptions & { scene: string }, sceneText?: string): Simulation {
  const scene = sceneText === undefined ? loadSceneFile(o.scene) : parseScene(sceneText, o.scene);
  checkRunMemory(scene.bodies.length, o.ticks);
  const built = buildScene(scene, { continuous: o.continuous });
  return {
    physics: built.physics,
    describe: { scene: o.scene, spheres: built.spheres, boxes: built.boxes },
    detect: () => {
      try {
        detectScene(built);
      } catch (e) {
        throw sceneBodyError(built, o.scene, e);
      }
    },
    contacts: () => readSceneContacts(built),
    advance: () => advanceScene(built),
  };
}

/**
 * Creates the simulation the options ask for (throws `SceneFileError` for a bad scene file). With
 * `sceneText`, the scene is that JSON text, named `o.scene` in messages and in the summary.
 */
export function createSimulation(o: CliOptions, sceneText?: string): Simulation {
  return o.scene === undefined ? arenaSimulation(o) : sceneSimulation({ ...o, scene: o.scene }, sceneText);
}

function median(values: Float64Array): number {
  if (values.length === 0) return 0;
  const s = Float64Array.from(values).sort();
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Per-tick measurements of a run. */
interface Tally {
  ms: Float64Array;
  contactTotal: number;
  contactMax: number;
}

function summarize(sim: Simulation, o: CliOptions, t: Tally): RunSummary {
  const n = o.ticks;
  const msTotal = t.ms.reduce((s, v) => s + v, 0);
  const { scene, seed, spheres, boxes } = sim.describe;
  return {
    scene,
    ...(seed === undefined ? {} : { seed }),
    ticks: n,
    spheres,
    boxes,
    dt: sim.physics.dt,
    continuous: sim.physics.continuous,
    contacts: { total: t.contactTotal, mean: n > 0 ? t.contactTotal / n : 0, max: t.contactMax },
    msPerTick: { mean: n > 0 ? msTotal / n : 0, median: median(t.ms) },
    hash: hashPhysicsState(sim.physics),
  };
}

const FIELDS = ['toi', 'depth', 'normal.x', 'normal.y', 'normal.z', 'point.x', 'point.y', 'point.z'] as const;

/** The first non-finite field of a contact (in print order), or undefined. */
function nonFiniteField(c: SceneContact): string | undefined {
  const values = [c.toi, c.depth, c.normal[0], c.normal[1], c.normal[2], c.point[0], c.point[1], c.point[2]];
  const i = values.findIndex((v) => !Number.isFinite(v));
  return i < 0 ? undefined : `${FIELDS[i]} is ${values[i]}`;
}

/** Throws `RunError` naming the tick, the bodies and the field of the first non-finite contact value. */
export function checkFinite(tick: number, contacts: readonly SceneContact[]): void {
  for (const c of contacts) {
    const bad = nonFiniteField(c);
    if (bad !== undefined) throw new RunError(`at tick ${tick}: contact of bodies ${c.a} and ${c.b}: ${bad}; the runner prints finite numbers only`);
  }
}

/**
 * Runs the simulation of `o` (a scene file or the arena), writes JSON Lines (each tick's line as
 * soon as it is computed, so a failing tick k leaves ticks 0..k−1 printed) or the human summary to
 * `io.stdout` and progress to `io.stderr`, and returns the summary. Throws `SceneFileError` for a
 * bad scene file (also when a scene body becomes invalid during the run, e.g. a position overflows),
 * `PhysicsInputError` when an arena body does, `UsageError` when the run needs more memory than the
 * machine or the heap limit allows (memory.ts), and `RunError` for a non-finite contact value.
 * `sceneText`: the scene file's text, already read (batch jobs), instead of reading `o.scene`.
 */
export function runSimulation(o: CliOptions, io: RunIO, sceneText?: string): RunSummary {
  const sim = createSimulation(o, sceneText);
  const out = io.stdout;
  const progress = createProgress({ total: o.ticks, stream: io.stderr, enabled: o.progress });
  const tally: Tally = { ms: new Float64Array(o.ticks), contactTotal: 0, contactMax: 0 };
  for (let k = 0; k < o.ticks; k++) {
    const t0 = performance.now();
    sim.detect();
    const t1 = performance.now();
    if (o.json) {
      const contacts = sim.contacts();
      checkFinite(k, contacts);
      out.write(formatTickLine(k, contacts) + '\n');
    }
    const t2 = performance.now();
    sim.advance();
    tally.ms[k] = t1 - t0 + (performance.now() - t2);
    const count = sim.physics.contacts.count;
    tally.contactTotal += count;
    if (count > tally.contactMax) tally.contactMax = count;
    progress.update(k + 1);
  }
  progress.finish();
  const summary = summarize(sim, o, tally);
  out.write(o.json ? formatSummaryLine(summary) + '\n' : formatSummaryText(summary));
  return summary;
}
