/**
 * Bodies for the tests: a body as plain data (`BodyData`), bodies made by raw bitecs calls
 * (`addEntity`, `addComponent`, then plain writes into the stores) instead of the helpers
 * (`addSphere`, `addBox`), the path a user takes who builds entities directly, and the smallest
 * touching scene (`addSphereOnBox`).
 * Raw writes store values exactly as given (a rotation is not normalised; fields left out keep what
 * the store holds, e.g. qw = 1 for a new Box), so the same numbers give the same bits as the helpers.
 */
import { addComponent, addEntity } from 'bitecs';
import { addBox, addSphere, type Physics } from '../../src/index.js';
import type { QuatTuple, Vec3Tuple } from '../../src/scenes/sceneFile.js';

/** The documented CollisionFilter defaults, written for the half of a filter a body leaves out. */
const DEFAULT_GROUP = 1;
const DEFAULT_MASK = 0xffffffff;

/**
 * A body of either shape as plain data, every field present: a sphere ignores `halfExtents` and
 * `rotation`, a box ignores `radius`. Used by the random scenarios and by the brute-force models.
 */
export interface BodyData {
  shape: 'sphere' | 'box';
  position: Vec3Tuple;
  /** null: no Velocity component. */
  velocity: Vec3Tuple | null;
  radius: number;
  halfExtents: Vec3Tuple;
  /** As stored (not normalised). */
  rotation: QuatTuple;
  sensor: boolean;
}

/**
 * One body for raw writes. Every field but the shape is optional; a field left out is not written,
 * nor is a field of the other shape (a sphere's halfExtents, a box's radius).
 */
export interface RawBody {
  shape: 'sphere' | 'box';
  position?: Vec3Tuple;
  /** Adds Velocity (null or absent: none). */
  velocity?: Vec3Tuple | null;
  radius?: number;
  halfExtents?: Vec3Tuple;
  /** Stored as given (the pipeline normalises where it uses it). */
  rotation?: QuatTuple;
  /** Either one adds CollisionFilter; the other then takes its default (group 1, mask 0xffffffff). */
  group?: number | null;
  mask?: number | null;
  /** Adds Sensor. */
  sensor?: boolean;
}

function hasFilter(b: RawBody): boolean {
  return (b.group ?? null) !== null || (b.mask ?? null) !== null;
}

/**
 * Writes a body's data straight into the stores. Its components must exist already: a store may
 * grow while components are added, so write after the last `addComponent`.
 */
export function writeBody(physics: Physics, eid: number, b: RawBody): void {
  const c = physics.components;
  if (b.position) [c.Position.x[eid], c.Position.y[eid], c.Position.z[eid]] = b.position;
  if (b.velocity) [c.Velocity.x[eid], c.Velocity.y[eid], c.Velocity.z[eid]] = b.velocity;
  if (hasFilter(b)) {
    c.CollisionFilter.group[eid] = b.group ?? DEFAULT_GROUP;
    c.CollisionFilter.mask[eid] = b.mask ?? DEFAULT_MASK;
  }
  if (b.shape === 'sphere') {
    if (b.radius !== undefined) c.Sphere.radius[eid] = b.radius;
    return;
  }
  if (b.halfExtents) [c.Box.hx[eid], c.Box.hy[eid], c.Box.hz[eid]] = b.halfExtents;
  if (b.rotation) [c.Box.qx[eid], c.Box.qy[eid], c.Box.qz[eid], c.Box.qw[eid]] = b.rotation;
}

/**
 * A new entity with the body's components attached by `addComponent` (Position, Velocity,
 * CollisionFilter, Sensor as the body asks, the shape last) and its data written by `writeBody`.
 */
export function addRawBody(physics: Physics, b: RawBody): number {
  const { world, components: c } = physics;
  const eid = addEntity(world);
  addComponent(world, eid, c.Position);
  if (b.velocity) addComponent(world, eid, c.Velocity);
  if (hasFilter(b)) addComponent(world, eid, c.CollisionFilter);
  if (b.sensor) addComponent(world, eid, c.Sensor);
  addComponent(world, eid, b.shape === 'sphere' ? c.Sphere : c.Box);
  writeBody(physics, eid, b);
  return eid;
}

/**
 * The smallest touching scene, made by the helpers: a unit box at the origin, then a unit sphere at
 * (0, 1.5, 0) sunk 0.5 into its top face (sphere–box contact, normal +y, depth 0.5).
 */
export function addSphereOnBox(physics: Physics): { box: number; sphere: number } {
  const box = addBox(physics, { position: [0, 0, 0], halfExtents: [1, 1, 1] });
  const sphere = addSphere(physics, { position: [0, 1.5, 0], radius: 1 });
  return { box, sphere };
}
