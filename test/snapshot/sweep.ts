/**
 * The byte-flip sweep of snapshots (test/snapshot/corruption.test.ts, scripts/snapshotSweep.ts): small
 * worlds whose snapshots hold every kind of record (contacts with BEGAN, PERSISTING and SENSOR flags,
 * ended pairs with and without REMOVED, touching entities with primary-contact references and with
 * explicit Contact data, bodies removed since the last step with and without Contact, filters,
 * static and moving boxes), saved under each shapes option; then every byte of a snapshot XORed
 * with each single bit and set to 0xFF, each corrupted copy given to `restoreSnapshot`.
 *
 * Outcomes: `caught` (SnapshotMismatchError, and the world's full state — hash, contacts, pairs,
 * touching and removed lists, Contact presence and data — unchanged), `identical` (restored, and
 * the state is exactly the snapshot's), `different` (restored, another state: possible only with
 * `verify: false`, for a changed value within its range), and the failures: `otherError` (any other
 * exception) and `changedOnThrow` (a SnapshotMismatchError after the state had changed).
 */
import { createWorld, removeComponent, type World } from 'bitecs';
import {
  addBox, addSphere, createPhysics, removeBody, restoreSnapshot, saveSnapshot, setVelocity, snapshotSize, SnapshotMismatchError, step,
  type Physics, type SnapshotOptions,
} from '../../src/index.js';
import { digest } from './scene.js';

export interface SweepScene {
  name: string;
  world: World;
  physics: Physics;
  /** Entities that exist (for the Contact presence part of the state). */
  ids: number[];
  options: SnapshotOptions | undefined;
  /** The snapshot (saved after the scene's last step and removals). */
  snap: Uint8Array;
  /** The saved state, and a later state the world is in before each attempt (with its snapshot). */
  savedDigest: string;
  laterDigest: string;
  later: Uint8Array;
}

export interface SweepCounts {
  attempts: number;
  caught: number;
  identical: number;
  different: number;
  otherError: number;
  changedOnThrow: number;
  /** Caught corruptions per `SnapshotMismatchError.field`. */
  fields: Record<string, number>;
  /** The first failures (otherError / changedOnThrow), for the message of a failing test. */
  failures: string[];
}

const v3 = (x: number, y: number, z: number): [number, number, number] => [x, y, z];

function save(physics: Physics, options: SnapshotOptions | undefined): Uint8Array {
  const buf = new Uint8Array(snapshotSize(physics, options));
  saveSnapshot(physics, buf, 0, options);
  return buf;
}

/**
 * A world of 11 bodies in three touching groups and a far pair: its last step ended pairs of a
 * removed body (REMOVED) and of bodies that moved apart; after that step one touching body lost its
 * Sphere component (removed, still holding Contact) and one was removed as an entity.
 */
export function buildSweepScene(name: string, options: SnapshotOptions | undefined, contactComponentOff = false): SweepScene {
  const world = createWorld();
  const physics = createPhysics(world, { capacity: 16, cellSize: 2 });
  const a = addSphere(physics, { position: v3(0, 0, 0), velocity: v3(0, 0, 0), radius: 1 });
  const b = addSphere(physics, { position: v3(1.5, 0, 0), velocity: v3(0, 0, 0), radius: 1 });
  const c = addSphere(physics, { position: v3(0, 1.5, 0), velocity: v3(0, 0, 0), radius: 1, group: 2, mask: 3 });
  const floor = addBox(physics, { position: v3(0, -1.5, 0), halfExtents: v3(2, 0.5, 2) });
  const s = addSphere(physics, { position: v3(8, 0, 0), velocity: v3(0, 0, 0), radius: 1, sensor: true });
  const f = addSphere(physics, { position: v3(8, 1.5, 0), velocity: v3(0, 0, 0), radius: 1 });
  const g = addBox(physics, { position: v3(16, 0, 0), velocity: v3(0, 0, 0), halfExtents: v3(1, 1, 1), rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] });
  const h = addSphere(physics, { position: v3(16, 1.8, 0), velocity: v3(0, 0, 0), radius: 1 });
  const gone = addSphere(physics, { position: v3(16, -1.8, 0), velocity: v3(0, 0, 0), radius: 1 });
  const far1 = addSphere(physics, { position: v3(30, 0, 0), velocity: v3(0, 0, 0), radius: 1 });
  const far2 = addSphere(physics, { position: v3(31.5, 0, 0), velocity: v3(2, 0, 0), radius: 1 });
  step(physics);
  step(physics);
  // Ended at the next step: gone's pair (REMOVED) and far1–far2 (moved apart); a new contact begins.
  removeBody(physics, gone);
  physics.components.Position.x[far2] = 40;
  physics.components.Position.x[b] = 1.4;
  if (contactComponentOff) physics.contactComponent = false;
  step(physics);
  // Removed since the last step: f (Sphere component removed, keeps Contact), h (entity removed).
  removeComponent(world, f, physics.components.Sphere);
  removeBody(physics, h);
  const ids = [a, b, c, floor, s, f, g, far1, far2];
  const snap = save(physics, options);
  const savedDigest = digest(physics, ids);
  physics.contactComponent = true;
  setVelocity(physics, a, [3, 0, 0]);
  step(physics);
  step(physics);
  const later = save(physics, options);
  return { name, world, physics, ids, options, snap, savedDigest, laterDigest: digest(physics, ids), later };
}

/** The sweep scenes: each shapes option, static boxes left out, and explicit Contact data. */
export function buildSweepScenes(): SweepScene[] {
  return [
    buildSweepScene("shapes 'all'", undefined),
    buildSweepScene("shapes 'dynamic'", { shapes: 'dynamic' }),
    buildSweepScene("shapes 'none'", { shapes: 'none' }),
    buildSweepScene('staticBoxes false', { staticBoxes: false }),
    buildSweepScene('Contact component off at the last step', undefined, true),
  ];
}

/** The corruptions of one byte: XOR with each bit, then 0xFF. */
const CORRUPTIONS = [1, 2, 4, 8, 16, 32, 64, 128, -1];

/**
 * Restores every corruption of bytes `from, from + stride, …` of the scene's snapshot and tallies
 * the outcomes into `counts` (the world is back in its later state after each attempt).
 */
export function sweep(scene: SweepScene, verify: boolean, counts: SweepCounts, stride = 1, from = 0): void {
  const { physics, ids, snap } = scene;
  const copy = new Uint8Array(snap.length);
  const opts = { verify };
  for (let i = from; i < snap.length; i += stride) {
    for (const x of CORRUPTIONS) {
      copy.set(snap);
      copy[i] = x < 0 ? 0xff : copy[i] ^ x;
      if (copy[i] === snap[i]) continue; // (0xFF over a 0xFF byte)
      counts.attempts++;
      let threw: unknown = undefined;
      try {
        restoreSnapshot(physics, copy, 0, opts);
      } catch (e) {
        threw = e;
      }
      const now = digest(physics, ids);
      const where = `${scene.name}, byte ${i}, ${x < 0 ? 'set to 0xFF' : `bit ${Math.log2(x)}`}`;
      if (threw === undefined) {
        if (now === scene.savedDigest) counts.identical++;
        else counts.different++;
        restoreSnapshot(physics, scene.later);
      } else if (!(threw instanceof SnapshotMismatchError)) {
        counts.otherError++;
        if (counts.failures.length < 5) counts.failures.push(`${where}: ${String(threw)}`);
        restoreSnapshot(physics, scene.later);
      } else if (now !== scene.laterDigest) {
        counts.changedOnThrow++;
        if (counts.failures.length < 5) counts.failures.push(`${where}: state changed before ${threw.message}`);
        restoreSnapshot(physics, scene.later);
      } else {
        counts.caught++;
        counts.fields[threw.field] = (counts.fields[threw.field] ?? 0) + 1;
      }
    }
  }
}

export function emptyCounts(): SweepCounts {
  return { attempts: 0, caught: 0, identical: 0, different: 0, otherError: 0, changedOnThrow: 0, fields: {}, failures: [] };
}

/** One line per tally: attempts, outcomes, then the caught ones per field. */
export function formatCounts(label: string, c: SweepCounts): string {
  const fields = Object.entries(c.fields).sort((x, y) => y[1] - x[1]).map(([k, n]) => `${k} ${n}`).join(', ');
  return `${label}: ${c.attempts} corruptions: ${c.caught} caught, ${c.identical} identical, ${c.different} restored differently, ` +
    `${c.otherError} other errors, ${c.changedOnThrow} changed before throwing (caught by field: ${fields})`;
}
