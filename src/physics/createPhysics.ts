/**
 * `createPhysics(world, options)`: per-world physics storage and bookkeeping. Observers on the bitecs
 * world keep a flag byte per entity (sphere, box, moving, sensor, filtered) so that the systems scan
 * entity ids in ascending order, grow storage before a new id is written, and forget removed bodies.
 * @module
 */
import { $internal, observe, onAdd, onRemove, type World } from 'bitecs';
import { createComponents, growStore, type PhysicsComponents } from '../../components/index.js';
import { createContactsState, growContactsState } from '../contacts/contactsState.js';
import { doubledLength, growArray } from '../math/grow.js';
import { PhysicsInputError } from './errors.js';
import { createBeganList, createContactList, createEndedList, createIdList, idListPush } from './idLists.js';
import { registerSetHandlers } from './setHandlers.js';
import { readVector, vectorField } from './readInput.js';
import { BodyFlags, type Physics, type PhysicsOptions } from './physicsTypes.js';
import { checkLive, INTERNAL, internalsOf, type PhysicsState } from './internal.js';
import { createBroadphaseState } from '../step/broadphaseState.js';
import { createSleepState, growSleepState, wake } from '../response/sleep.js';
import { clearJam } from '../response/jam.js';
import { writeCharacterDefaults } from '../character/characterSettings.js';
import { forgetPoses } from '../debug/interpolation.js';

const { SPHERE, BOX, MOVING, SENSOR, FILTER, HAS_CONTACT, RESPONSE, CHARACTER } = BodyFlags;
const GRAVITY = vectorField('options.gravity', ['options.gravity.x', 'options.gravity.y', 'options.gravity.z']);
const gravityIn = new Float64Array(3);
const DEFAULT_GROUP = 1;
const DEFAULT_MASK = 0xffffffff;

function checkOption(name: string, value: number | undefined, ok: (v: number) => boolean, what: string): void {
  if (value !== undefined && !(typeof value === 'number' && ok(value))) {
    throw new PhysicsInputError({ field: `options.${name}`, problem: `${what}, got ${String(value)}`, source: 'createPhysics' });
  }
}

function validateOptions(o: PhysicsOptions): void {
  checkOption('dt', o.dt, (v) => Number.isFinite(v) && v > 0, 'must be a finite number > 0 (seconds)');
  checkOption('capacity', o.capacity, (v) => Number.isInteger(v) && v > 0 && v <= 1 << 24, 'must be an integer in 1..2^24');
  checkOption('cellSize', o.cellSize, (v) => Number.isFinite(v) && v > 0, 'must be a finite number > 0 (length units)');
  checkOption('contactBudget', o.contactBudget, (v) => Number.isInteger(v) && v > 0, 'must be an integer > 0 (candidate contact pairs per tick)');
  checkOption('maxIterations', o.maxIterations, (v) => Number.isInteger(v) && v >= 1 && v <= 65535, 'must be an integer in 1..65535 (impacts per body per tick)');
  if (o.gravity !== undefined) readVector(o.gravity, 3, gravityIn, GRAVITY, 'createPhysics', -1);
  if (o.sleep !== undefined) {
    if (o.sleep === null || typeof o.sleep !== 'object') throw new PhysicsInputError({ field: 'options.sleep', problem: `must be an object {speed?, time?}, got ${String(o.sleep)}`, source: 'createPhysics' });
    for (const k in o.sleep) {
      if (k !== 'speed' && k !== 'time') throw new PhysicsInputError({ field: `options.sleep.${k}`, problem: 'is not an option of sleep (options: speed, time)', source: 'createPhysics' });
    }
    checkOption('sleep.speed', o.sleep.speed, (v) => Number.isFinite(v) && v >= 0, 'must be a finite number >= 0 (length units per second)');
    checkOption('sleep.time', o.sleep.time, (v) => Number.isFinite(v) && v >= 0, 'must be a finite number >= 0 (seconds)');
  }
  for (const key of ['position', 'velocity'] as const) {
    const s = o[key];
    if (s !== undefined && !(s && s.x && s.y && s.z)) {
      throw new PhysicsInputError({ field: `options.${key}`, problem: 'must be an object of x, y, z arrays indexed by entity id', source: 'createPhysics' });
    }
    if (s !== undefined && !(s.x.length === s.y.length && s.y.length === s.z.length)) {
      throw new PhysicsInputError({
        field: `options.${key}`,
        problem: `x, y and z must have the same length (one entry per entity id), got ${s.x.length}, ${s.y.length}, ${s.z.length}`,
        source: 'createPhysics',
      });
    }
  }
}

/** Entity ids must stay below this (the stores are indexed by id; 2^24 ids of float64 is 128 MB per array). */
export const MAX_ENTITY_ID = 1 << 24;

/**
 * Rejects a world whose entity index uses bitecs versioning (`withVersioning`): its recycled ids
 * carry the version in their high bits (2^24 and above with 8 version bits), and the stores are
 * indexed by id.
 */
function checkWorld(world: World): void {
  const index = (world as { [$internal]?: { entityIndex?: { versioning?: boolean } } })[$internal]?.entityIndex;
  if (index === undefined) {
    throw new PhysicsInputError({ field: 'world', problem: 'must be a bitecs 0.4 world (createWorld())', source: 'createPhysics' });
  }
  if (index.versioning) {
    throw new PhysicsInputError({
      field: 'world',
      problem: 'entity id versioning (withVersioning) is not supported: recycled ids carry the version in their high bits, ' +
        'and the component stores are indexed by entity id; create the world without withVersioning',
      source: 'createPhysics',
    });
  }
}

/** Bytes one candidate contact may cost at its peak (pair lists, contact list, their doubling). */
const BYTES_PER_CONTACT = 256;
/** Memory assumed where the platform does not tell (bytes). */
const FALLBACK_MEMORY = 2 ** 31;

/** The machine's memory in bytes: Node's `os.totalmem()`, a browser's `navigator.deviceMemory`, or 2 GB. */
function machineMemory(): number {
  const g = globalThis as { process?: { getBuiltinModule?: (id: string) => { totalmem?: () => number } | undefined }; navigator?: { deviceMemory?: number } };
  const total = g.process?.getBuiltinModule?.('os')?.totalmem?.();
  if (typeof total === 'number' && total > 0) return total;
  const gb = g.navigator?.deviceMemory;
  return typeof gb === 'number' && gb > 0 ? gb * 2 ** 30 : FALLBACK_MEMORY;
}

/**
 * Default `contactBudget`: as many candidate contacts as fit in an eighth of the machine's memory at
 * `BYTES_PER_CONTACT` each (about 11 million with 23 GB), at least 2^20.
 */
export function defaultContactBudget(): number {
  return Math.max(2 ** 20, Math.floor(machineMemory() / 8 / BYTES_PER_CONTACT));
}

/**
 * Writes the CollisionFilter defaults to the ids from `from` on: an entity without the component
 * always holds them (they are reset when Position is added and when the component is removed), so
 * a `set(CollisionFilter, {group})` on a new filter keeps the default mask.
 */
function fillFilterDefaults(own: PhysicsComponents, from: number): void {
  own.CollisionFilter.group.fill(DEFAULT_GROUP, from);
  own.CollisionFilter.mask.fill(DEFAULT_MASK, from);
}

/**
 * Grows every physics-owned array so that entity id `eid` fits (the observers call it for each id
 * that gets a physics component; `restoreBodyManifest` for the highest id a snapshot may name).
 */
export function ensureCapacity(physics: Physics, eid: number): void {
  const internal = internalsOf(physics);
  if (eid < internal.capacity) return;
  const own = internal.own;
  if (!(eid < MAX_ENTITY_ID)) {
    throw new PhysicsInputError({
      eid,
      field: 'eid',
      problem: `entity ids must be below 2^24 (${MAX_ENTITY_ID}): the component stores are indexed by id (a world with entity id versioning hands out such ids)`,
    });
  }
  const cap = doubledLength(internal.capacity, eid + 1);
  for (const store of Object.values(own)) growStore(store, cap);
  fillFilterDefaults(own, internal.capacity);
  internal.flags = growArray(internal.flags, cap);
  internal.purgeMark = growArray(internal.purgeMark, cap);
  growContactsState(internal.contacts, cap);
  if (internal.sleep !== null) growSleepState(internal.sleep, cap);
  internal.hasMaterial = growArray(internal.hasMaterial, cap);
  internal.capacity = cap;
}

/**
 * Creates the physics state of one bitecs world: its component stores (`physics.components`), the
 * contact output and the broadphase. Register no component yourself: add `Position` + `Sphere`
 * (or `Box`) to an entity and it is a body; add `Velocity` to make it move (a box without Velocity is
 * static, bucketed once); `Sensor` and `CollisionFilter` are optional. Many instances may live in one
 * process, one per world. Throws `PhysicsInputError` for bad options.
 */
export function createPhysics(world: World, options: PhysicsOptions = {}): Physics {
  checkWorld(world);
  validateOptions(options);
  const capacity = options.capacity ?? 1024;
  const own = createComponents(capacity);
  fillFilterDefaults(own, 0);
  const components: PhysicsComponents = {
    ...own,
    Position: options.position ?? own.Position,
    Velocity: options.velocity ?? own.Velocity,
  };
  const physics: PhysicsState = {
    world,
    components,
    dt: options.dt ?? 1 / 60,
    continuous: options.continuous ?? true,
    integrate: options.integrate ?? true,
    validate: options.validate ?? true,
    contactComponent: options.contactComponent ?? true,
    tick: 0,
    contacts: createContactList(),
    began: createBeganList(),
    ended: createEndedList(),
    [INTERNAL]: {
      capacity,
      own,
      maxEid: 0,
      flags: new Uint8Array(capacity),
      purgeMark: new Uint8Array(capacity),
      purgeList: createIdList(),
      broadphase: createBroadphaseState(options.cellSize, options.contactBudget ?? defaultContactBudget()),
      contacts: createContactsState(capacity),
      gravity: options.gravity === undefined ? new Float64Array(3) : Float64Array.from(gravityIn),
      gravityOn: options.gravity !== undefined && (gravityIn[0] !== 0 || gravityIn[1] !== 0 || gravityIn[2] !== 0) ? 1 : 0,
      maxIterations: options.maxIterations ?? 4,
      responseCount: 0,
      response: null,
      sleep: options.sleep === undefined ? null : createSleepState(options.sleep.speed ?? 0.05, options.sleep.time ?? 0.5, capacity),
      hasMaterial: new Uint8Array(capacity),
      characterCount: 0,
      character: null,
      interpolation: null,
      unobserve: [],
      destroyed: false,
      queries: undefined,
      queryDirty: true,
      writes: 0,
    },
  };
  registerObservers(physics, own);
  return physics;
}

function registerObservers(physics: Physics, own: PhysicsComponents): void {
  const { world, components: c } = physics;
  const internal = internalsOf(physics);
  const on = (hook: ReturnType<typeof onAdd>, fn: (eid: number) => void) => internal.unobserve.push(observe(world, hook, fn));
  const grow = (eid: number) => ensureCapacity(physics, eid);
  // Contact is added by the physics itself (ids already fit) and has no observer: every observer
  // of a component makes bitecs allocate on each add/remove of it, and Contact changes every tick.
  for (const store of Object.values(c)) if (store !== c.Contact) on(onAdd(store), grow);
  const setFlag = (flag: number) => (eid: number) => {
    grow(eid);
    internal.flags[eid] |= flag;
    if (eid > internal.maxEid) internal.maxEid = eid;
    if ((internal.flags[eid] & BOX) !== 0) internal.broadphase.staticDirty = true;
    internal.queryDirty = true;
    internal.writes++;
  };
  const clearFlag = (flag: number) => (eid: number) => {
    const was = internal.flags[eid];
    // A body's removal also ends its Contact bookkeeping (bitecs drops the component with the entity;
    // a surviving non-body entity has it removed at the next narrowphase).
    internal.flags[eid] = was & ~((flag & (SPHERE | BOX)) !== 0 ? flag | HAS_CONTACT : flag);
    if ((was & BOX) !== 0) internal.broadphase.staticDirty = true;
    internal.queryDirty = true;
    internal.writes++;
    // Render interpolation: a body that takes this id later must not start from this one's poses.
    if ((flag & (SPHERE | BOX | MOVING)) !== 0 && internal.interpolation !== null) forgetPoses(internal.interpolation, eid);
    // Sleep: a body that takes this id later (bitecs recycles ids) must not be born asleep.
    if ((flag & (SPHERE | BOX | MOVING | RESPONSE)) !== 0 && internal.sleep !== null && eid < internal.sleep.asleep.length) wake(internal.sleep, eid);
    // Likewise the jam mark (response/jam.ts).
    if ((flag & (SPHERE | BOX | MOVING | RESPONSE)) !== 0) clearJam(internal, eid);
    if ((flag & (SPHERE | BOX)) !== 0 && (was & flag) !== 0 && internal.purgeMark[eid] === 0) {
      internal.purgeMark[eid] = 1;
      idListPush(internal.purgeList, eid);
    }
  };
  on(onAdd(c.Position, c.Sphere), setFlag(SPHERE));
  on(onRemove(c.Position, c.Sphere), clearFlag(SPHERE));
  on(onAdd(c.Position, c.Box), setFlag(BOX));
  on(onRemove(c.Position, c.Box), clearFlag(BOX));
  // Velocity's values are not reset on add (unlike Response's): the store may be the game's own
  // (`options.velocity`), its data the game's, for entities that are not bodies too.
  on(onAdd(c.Velocity), setFlag(MOVING));
  on(onRemove(c.Velocity), clearFlag(MOVING));
  on(onAdd(c.Response), (eid) => {
    if ((internal.flags[eid] & RESPONSE) === 0) internal.responseCount++;
    setFlag(RESPONSE)(eid);
    // Every field's default, as on a fresh id (mode stop, restitution 0, mass 0: ∝ radius³, damping 0,
    // gravity scale 1): a recycled id keeps no old values (a partial `set(Response, …)` on one took
    // the removed body's mode, restitution and mass on a server, zeros on a joined replica). Data
    // given with the add is written after this.
    c.Response.mode[eid] = 0;
    c.Response.restitution[eid] = 0;
    c.Response.mass[eid] = 0;
    c.Response.damping[eid] = 0;
    c.Response.gravityScale[eid] = 1;
  });
  on(onRemove(c.Response), (eid) => {
    if ((internal.flags[eid] & RESPONSE) !== 0) internal.responseCount--;
    clearFlag(RESPONSE)(eid);
  });
  on(onAdd(c.Material), (eid) => {
    grow(eid);
    internal.hasMaterial[eid] = 1;
    c.Material.friction[eid] = 0;
  });
  on(onRemove(c.Material), (eid) => {
    internal.hasMaterial[eid] = 0;
  });
  on(onAdd(c.Character), (eid) => {
    if ((internal.flags[eid] & CHARACTER) === 0) internal.characterCount++;
    setFlag(CHARACTER)(eid);
    writeCharacterDefaults(physics, eid);
  });
  on(onRemove(c.Character), (eid) => {
    if ((internal.flags[eid] & CHARACTER) !== 0) internal.characterCount--;
    clearFlag(CHARACTER)(eid);
  });
  on(onAdd(c.Sensor), setFlag(SENSOR));
  on(onRemove(c.Sensor), clearFlag(SENSOR));
  on(onAdd(c.Box), (eid) => {
    grow(eid);
    const b = c.Box;
    if (b.qx[eid] === 0 && b.qy[eid] === 0 && b.qz[eid] === 0 && b.qw[eid] === 0) b.qw[eid] = 1;
  });
  const resetFilter = (eid: number) => {
    grow(eid);
    c.CollisionFilter.group[eid] = DEFAULT_GROUP;
    c.CollisionFilter.mask[eid] = DEFAULT_MASK;
  };
  on(onAdd(c.Position), (eid) => {
    if ((internal.flags[eid] & FILTER) === 0) resetFilter(eid);
  });
  on(onAdd(c.CollisionFilter), setFlag(FILTER));
  on(onRemove(c.CollisionFilter), (eid) => {
    clearFlag(FILTER)(eid);
    resetFilter(eid);
  });
  // bitecs set(): run after the onAdd observers above (bitecs adds, then notifies the data).
  internal.unobserve.push(...registerSetHandlers(physics, own));
}

/**
 * Marks the static boxes as changed so the broadphase re-buckets them at the next step. A hint
 * only: each step notices by itself a static box whose Position or Box fields were written (it
 * compares every static box's bounds with the bucketed ones) and bodies added or removed.
 */
export function markStaticDirty(physics: Physics): void {
  checkLive(physics, 'markStaticDirty');
  internalsOf(physics).broadphase.staticDirty = true;
  internalsOf(physics).queryDirty = true;
  internalsOf(physics).writes++;
}

/**
 * Detaches the physics instance from its world (removes its observers). Afterwards every helper,
 * `step` and the systems throw `PhysicsInputError` for it; components added by raw bitecs calls
 * are ignored. Calling it again does nothing.
 */
export function destroyPhysics(physics: Physics): void {
  const internal = internalsOf(physics);
  for (const off of internal.unobserve) off();
  internal.unobserve.length = 0;
  internal.destroyed = true;
}
