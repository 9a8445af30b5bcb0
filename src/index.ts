/**
 * bitecs-collide: exact, deterministic, tunnelling-free sphere and box collision for bitecs 0.4.
 * The one public barrel: explicit named exports only. Pure geometry is also at `bitecs-collide/geometry`,
 * the broadphase grid at `bitecs-collide/broadphase`.
 * @module
 */
// Geometry (pure, no ECS)
export type { Vec3, Quat, SphereShape, BoxShape, ContactResult, CastResult } from './geometry/types.js';
export {
  overlapSphereBox, contactSphereBox, castSphereBox,
  overlapSphereSphere, contactSphereSphere, castSphereSphere,
  overlapBoxSphere, contactBoxSphere, castBoxSphere,
  overlapBoxBox, contactBoxBox, castBoxBox,
} from './geometry/index.js';

// Components
export type {
  Vec3Store, PositionComponent, VelocityComponent, SphereComponent, BoxComponent, ContactComponent,
  CollisionFilterComponent, ResponseComponent, MaterialComponent, ResponseModeValue, PhysicsComponents, CharacterComponent,
} from '../components/index.js';
export { ResponseMode } from '../components/index.js';

// World API
export type { Physics, PhysicsOptions, ContactList, PairList, BeganList, EndedList } from './physics/physicsTypes.js';
export { ContactFlags, EndedFlags } from './physics/physicsTypes.js';
export type { PhysicsInputProblem } from './physics/errors.js';
export { PhysicsInputError } from './physics/errors.js';
export { createPhysics, destroyPhysics, markStaticDirty } from './physics/createPhysics.js';
export { step, runBroadphase, runNarrowphase, runIntegrate } from './step/step.js';
export type { Vec3Like, QuatLike, BodyOptions, SphereOptions, BoxOptions } from './physics/bodies.js';
export {
  addSphere, addBox, removeBody,
  setPosition, setVelocity, setRadius, setHalfExtents, setRotation, wakeBody,
} from './physics/bodies.js';
export { isAsleep } from './response/sleep.js';
export type { CharacterOptions } from './character/addCharacter.js';
export { addCharacter } from './character/addCharacter.js';
export type { ContactIndex } from './contacts/contactsOf.js';
export { contactsOf, readContactOf, ContactOf } from './contacts/contactsOf.js';
export { hashPhysicsState, hashPhysicsStateWords } from './snapshot/stateHash.js';
export type { QueryHit, QueryFilter, HitList, EntityList, BatchHits } from './queries/hitLists.js';
export { createHitList, createEntityList, createBatchHits } from './queries/hitLists.js';
export { castRay, castSphere, castRayAll, castSphereAll } from './queries/cast.js';
export { castRays, castSpheres } from './queries/batch.js';
export { overlapSphere, overlapBox } from './queries/overlap.js';
export type { SnapshotOptions } from './snapshot/format.js';
export { snapshotSize, saveSnapshot } from './snapshot/writer.js';
export { restoreSnapshot, SnapshotMismatchError, type RestoreOptions } from './snapshot/reader.js';
export { createRollbackRing, saveRollback, restoreRollback, clearRollback, MAX_ROLLBACK_DEPTH, type RollbackRing } from './snapshot/rollback.js';
export type { SnapshotProblem } from './snapshot/error.js';
/**
 * Late join: the entity ids (alive ids, and removed ids in bitecs's recycle order) and the body
 * manifest (each body's id and kind) in caller-owned buffers, and their restore into a fresh world,
 * so that `restoreSnapshot` finds the same ids and future `addEntity` calls agree. No frame or units
 * (ids and kinds only; the data comes with the snapshot). Each call allocates a DataView; restoring
 * makes bitecs allocate its bookkeeping of every entity (join time, not per tick).
 * See docs/multiplayer.md.
 */
export {
  entityIdsSize, saveEntityIds, restoreEntityIds,
  bodyManifestSize, saveBodyManifest, restoreBodyManifest,
  EntityManifestError,
} from './snapshot/entityIds.js';
export type { FixedStepper } from './physics/fixedStep.js';
export { createFixedStepper, fixedStepAdvance } from './physics/fixedStep.js';
export type { DebugLines, DebugColor, DebugColors, DebugRenderOptions } from './debug/debugRender.js';
export { enableInterpolation, disableInterpolation, interpolatePose, interpolatePoses, type PoseStore } from './debug/interpolation.js';
export { debugRender, createDebugLines, debugLinesCreate, DEBUG_SPHERE_SEGMENTS, DEBUG_CONTACT_LENGTH } from './debug/debugRender.js';

// Systems
export type { System } from '../systems/index.js';
export { createBroadphaseSystem, createNarrowphaseSystem, createIntegrateSystem } from '../systems/index.js';
