/**
 * The state of the collision response (src/response), one per physics instance
 * (`internalsOf(physics).response`, created by `responseOf` (resolve.ts) at the first tick with a dynamic
 * body): per-body state within a tick, the event pool and its queue, the contact records of dynamic
 * bodies, and the values the response's
 * functions pass one another within a tick (the current time, the rest speed, the best event of a
 * prediction...). Nothing of the response lives in module variables, so instances stepped
 * interleaved in one process do not share anything. Typed arrays grown by doubling outside the
 * per-event loops; reset (not reallocated) at each tick.
 *
 * Times are fractions of the tick in [0, 1]; positions and normals in the world frame; velocities in
 * length units per second.
 * @module
 */

import { ScratchBox, ScratchCast, ScratchContact, ScratchSphere, ScratchVec3 } from '../geometry/scratch.js';
import { createGrid, type Grid } from '../grid/grid.js';
import { createQueryOut, type QueryOut } from '../grid/query.js';
import { growArray as grow } from '../math/grow.js';
import { createPathGrid, type PathGrid } from './pathGrid.js';

/**
 * Values of `ResponseState.state`: DYNAMIC, predicted and reacting; CAPPED, past its budget of
 * impacts or predictions this tick: it stays where it is (suspects.ts), still exchanges impulses
 * with the dynamic bodies that hit it (on their relative velocity, momentum conserved; one jammed at
 * the last tick too takes none: resolve.ts `processEvent`), and is checked by the end-of-tick
 * projection (project.ts).
 */
export const DYNAMIC = 1, CAPPED = 2;

/** Per-body slots of `ResponseState.planes`: up to two slide planes (unit normals) per body per tick. */
export const PLANE_SLOTS = 6;
/** Slots per body of `projectEnd`: where the projection's last three passes left it (x y z each). */
export const PROJECT_END_SLOTS = 9;

/**
 * The in/out objects of the current prediction's geometry calls (predict.ts): the predicted sphere
 * at the current time, the partner's shape then, the motion relative to the partner over the
 * remaining path, and the cast and contact results.
 */
export interface PredictShapes {
  sphere: ScratchSphere;
  partnerSphere: ScratchSphere;
  partnerBox: ScratchBox;
  motion: ScratchVec3;
  cast: ScratchCast;
  contact: ScratchContact;
}

/** The response's state. */
export interface ResponseState {
  /** Entity-id capacity of the per-body arrays. */
  capacity: number;
  /** Per body: local time (fraction of the tick) at which its Position is. */
  time: Float64Array;
  /** Per body: version stamp, bumped whenever its velocity changes (stale predictions are skipped). */
  version: Uint32Array;
  /** Per body: impacts resolved this tick. */
  iterations: Uint16Array;
  /** Per body: 1 when dynamic this tick, 2 when capped (`CAPPED`). */
  state: Uint8Array;
  /** This tick's most predictions per body (`predictionCap` of predict.ts). */
  predictCap: number;
  /** Per body: predictions made this tick (bounded by `predictCap`). */
  predictions: Uint32Array;
  /** Per body: its start-of-tick position (3 slots) and the reach of its dynamic-grid item (|motion|₁ over the tick). */
  start: Float64Array;
  reach: Float64Array;
  /** Per body: 0 when not listed in `suspects` this tick, else the SUSPECT_* bits of suspects.ts. */
  suspect: Uint8Array;
  /**
   * Per body: the projection pass in which it was pinned (pushed out of a kinematic body, or moved
   * all the way by a pinned sphere), and its level in that pass: 0 for a push out of a kinematic
   * body, one more than the pinned sphere that moved it otherwise (project.ts).
   */
  pinned: Uint8Array;
  pinLevel: Int32Array;
  /**
   * Per listed body, this tick: the kinematic body on whose side of a squeeze the projection found
   * it (the first it touched, or the one a sphere touching it is on), 0 for none (project.ts).
   */
  squeezeSide: Int32Array;
  /** Per body (3 each), this tick: the normal of the static body that last stopped a separation of it (with SUSPECT_STOPPED, project.ts). */
  stopNormal: Float64Array;
  /**
   * Per body (3 each), with `pinned`: the way it was pushed when it was pinned, a unit vector from
   * what pins it (the kinematic body, or the pinned sphere that moved it) toward it (project.ts).
   */
  pinNormal: Float64Array;
  /**
   * Per body (`PROJECT_END_SLOTS` each): where the projection's last pass left it, then the two
   * passes before (project.ts `passStill`); and how many suspects those three passes had.
   */
  projectEnd: Float64Array;
  projectRecorded: Int32Array;
  /**
   * Bodies the end-of-tick projection checks (project.ts): capped ones, those whose path left their
   * dynamic-grid item, those it moved. In the order they were listed.
   */
  suspects: Int32Array;
  suspectCount: number;
  /** The suspects at their end-of-tick poses, for the projection's queries (built per pass). */
  suspectGrid: Grid;
  /** Scratch of the static sweeps (sweepStatic.ts): input motion (3), fraction moved (slot 3). */
  move: Float64Array;
  /** Candidates of a static sweep. */
  sweepPath: QueryOut;
  /** The shapes of the static sweeps (apart from the prediction's, which the projection uses at the end of the tick). */
  sweepShapes: PredictShapes;
  /** Per body: slide planes this tick (count) and their normals (PLANE_SLOTS float64 each). */
  planeCount: Uint8Array;
  planes: Float64Array;
  /** Per entity: first contact record owned by it (-1: none). */
  head: Int32Array;
  /** Dynamic bodies of this tick, ascending. */
  bodies: Int32Array;
  bodyCount: number;
  /** Event pool: time, owner (dynamic), partner, their versions, normal and world point. */
  evTime: Float64Array;
  evA: Int32Array;
  evB: Int32Array;
  evVa: Uint32Array;
  evVb: Uint32Array;
  evN: Float64Array;
  evP: Float64Array;
  evCount: number;
  /** Binary min-heap of event indices ordered by (time, lower id, higher id). */
  heap: Int32Array;
  heapSize: number;
  /** Contact records: pair (a, b) as the contact list orders it, normal (b → a), depth, point, toi, flags. */
  recA: Int32Array;
  recB: Int32Array;
  recF: Float64Array;
  recFlags: Uint8Array;
  recNext: Int32Array;
  recCount: number;
  /** Entities owning records this tick (for the merge and the reset of `head`). */
  owners: Int32Array;
  ownerCount: number;
  /** Scratch: one owner's records, sorted by b. */
  sorted: Int32Array;
  /** Start-of-tick touching contacts (solver.ts): body, partner, normal (partner → body), impulse, target. */
  conA: Int32Array;
  conB: Int32Array;
  conF: Float64Array;
  /**
   * Per contact: 1 when it was added by the rest-skin distance test (`collectNear`, predict.ts) and
   * not by a cast; such a contact is recorded as touching when the solve holds it.
   */
  conNear: Uint8Array;
  conCount: number;
  /**
   * Start-of-tick solve, the weight guess (weightGuess.ts), per contact: the contacts ordered from
   * the top down, their owner's height (key), their owner, and a mark of the owner's least squares.
   */
  conOrder: Int32Array;
  conKey: Float64Array;
  conOwner: Int32Array;
  conMark: Uint8Array;
  /** Per contact: the impulse it alone would take to stop its owner approaching its partner (weightGuess.ts). */
  conDemand: Float64Array;
  /** Per body, 3 slots: the velocity the guess assumes it held at by its contacts (weightGuess.ts). */
  held: Float64Array;
  /**
   * Per body: the index in `conOrder` of the first contact it owns in this tick's guess (written for
   * every owner after the guess's sort; valid for `b` only when that contact's owner is `b`).
   */
  guessFirst: Int32Array;
  /** The guess's least squares: its active contacts (at most 3), their impulses, their normals (3 × 3), the owner's largest demand. */
  guessSet: Int32Array;
  guessZ: Float64Array;
  guessN: Float64Array;
  guessScale: Float64Array;
  /** Per body: 1 when the start-of-tick solve changed its velocity. */
  solved: Uint8Array;
  /**
   * Per entity, carried across ticks (in snapshots and the state hash): 1 when the body was jammed at
   * its last tick (capped without moving beyond the rest skin, with gravity: `stopJammed`,
   * resolve.ts), else 0. Within a tick, 2 marks a body jammed at the previous tick that has not
   * been jammed again yet. Cleared when the game writes the body's Position or Velocity, when it
   * falls asleep, and when it stops being a dynamic body (jam.ts).
   */
  jam: Uint8Array;
  /** The bodies whose mark was 1 at the start of this tick (then 2), to clear the ones not jammed again. */
  jamList: Int32Array;
  jamCount: number;
  /**
   * The grids the broadphase built this tick (static boxes; moving bodies' swept items), handed over
   * by `respond` at the start of each tick: the predictions query them, the response builds none.
   */
  staticGrid: Grid | null;
  /** This tick's static spheres (no Velocity): sweepStatic.ts also queries the dynamic grid, which holds them, when there are some. */
  staticSpheres: number;
  dynamicGrid: Grid | null;
  /** The dynamic bodies' remaining paths, the predictions' finer candidates for fast crowds (pathGrid.ts). */
  paths: PathGrid;
  /** Candidates of the current prediction's path query. */
  path: QueryOut;
  /** Candidates of a projection query. */
  near: QueryOut;
  /** Dynamic bodies near a body that was capped. */
  wake: QueryOut;
  /** Bodies capped since the last wake, whose neighbours are predicted again (resolve.ts). */
  wakeList: Int32Array;
  wakeCount: number;
  /** Work of the last tick: slots `R_*`. */
  work: Float64Array;
  /** Slot 0: the current time of the resolution (the event being processed; predictions start from it). */
  clock: Float64Array;
  /** Slot 0: this tick's rest speed, 2 |gravity| dt: an approach slower than it does not bounce. */
  rest: Float64Array;
  /** 1 while the first predictions of the tick collect the touches at time 0 for the start-of-tick solve. */
  collect: number;
  /** Which start-of-tick overlaps the current prediction pass pushes out (`PUSH_*` of predict.ts). */
  pushing: number;
  /** Start-of-tick contacts listed before the current prediction (a push-out pass lists them again). */
  conStart: number;
  /** The current prediction's earliest event: time, partner, normal, world point (slots `B_*` of predict.ts). */
  best: Float64Array;
  /** The partner's velocity over its remaining path in the current cast (0 when at rest). */
  partnerV: Float64Array;
  /** The shapes and results of the current prediction's casts. */
  shapes: PredictShapes;
  /** A contact record's numbers on their way to `recordContact` (slots `RI_*` of contactRecords.ts). */
  recIn: Float64Array;
  /** The obstacle's velocity at the current event or solver contact (0 when static or frozen). */
  obstacleV: Float64Array;
  /** The relative velocity being reacted (react.ts). */
  relV: Float64Array;
  /**
   * Restitutions and inverse masses of the current pair (react.ts, solver.ts), then its normal
   * impulse, friction coefficient and friction limit (friction.ts).
   */
  pair: Float64Array;
  /** Solver: the largest approach speed of the contacts, the largest velocity change of the last pass. */
  solverScale: Float64Array;
  /**
   * The projection's deepest correction in its current pass, a fraction of the radius or radii sum
   * (project.ts).
   */
  projectDepth: Float64Array;
}

/**
 * Constraint float slots (CON_SLOTS per contact): nx ny nz, accumulated impulse, target normal speed
 * of the passes, inverse mass sum, the accumulated friction impulse (3), the friction coefficient
 * (friction.ts), then the bounce target (solver.ts `bounce`).
 */
export const CON_SLOTS = 11;
/** Constraint slots: accumulated normal impulse, inverse mass sum, accumulated friction impulse (3), friction coefficient, bounce target. */
export const CON_ACC = 3, CON_INV = 5, CON_TX = 6, CON_MU = 9, CON_BOUNCE = 10;

/** Record float slots (REC_SLOTS per record): nx ny nz depth px py pz toi. */
export const REC_SLOTS = 8;
/** Slots of `best`: time, partner, normal (3), point (3). */
export const BEST_SLOTS = 8;
/** Work slot: impacts resolved (reactions) in the last tick. */
export const R_IMPACTS = 0;
/** Work slot: events popped (valid or stale). */
export const R_EVENTS = 1;
/** Work slot: casts run. */
export const R_CASTS = 2;
/** Work slot: dynamic bodies stepped. */
export const R_BODIES = 3;
/** Work slot: bodies capped (reached maxIterations or the prediction cap). */
export const R_CAPPED = 4;
/** Work slot: bodies checked by the end-of-tick projection. */
export const R_SUSPECTS = 5;
/** Work slot: position corrections made by the end-of-tick projection. */
export const R_PROJECTED = 6;
/** Work slot: sphere–sphere casts skipped by the conservative reject (sweptApart.ts). */
export const R_REJECTS = 7;
/** Work slots. */
export const R_SLOTS = 8;

/** Creates the response state for entity ids below `capacity`. */
export function createResponseState(capacity: number): ResponseState {
  const n = 64;
  return {
    capacity,
    time: new Float64Array(capacity),
    version: new Uint32Array(capacity),
    iterations: new Uint16Array(capacity),
    state: new Uint8Array(capacity),
    predictCap: 0,
    predictions: new Uint32Array(capacity),
    start: new Float64Array(3 * capacity),
    reach: new Float64Array(capacity),
    suspect: new Uint8Array(capacity),
    pinned: new Uint8Array(capacity),
    pinLevel: new Int32Array(capacity),
    squeezeSide: new Int32Array(capacity),
    stopNormal: new Float64Array(3 * capacity),
    pinNormal: new Float64Array(3 * capacity),
    projectEnd: new Float64Array(PROJECT_END_SLOTS * capacity),
    projectRecorded: new Int32Array(3),
    suspects: new Int32Array(n),
    suspectCount: 0,
    suspectGrid: createGrid(1),
    move: new Float64Array(4),
    sweepPath: createQueryOut(),
    sweepShapes: {
      sphere: new ScratchSphere(), partnerSphere: new ScratchSphere(), partnerBox: new ScratchBox(),
      motion: new ScratchVec3(), cast: new ScratchCast(), contact: new ScratchContact(),
    },
    planeCount: new Uint8Array(capacity),
    planes: new Float64Array(capacity * PLANE_SLOTS),
    head: new Int32Array(capacity).fill(-1),
    bodies: new Int32Array(n),
    bodyCount: 0,
    evTime: new Float64Array(n),
    evA: new Int32Array(n),
    evB: new Int32Array(n),
    evVa: new Uint32Array(n),
    evVb: new Uint32Array(n),
    evN: new Float64Array(3 * n),
    evP: new Float64Array(3 * n),
    evCount: 0,
    heap: new Int32Array(n),
    heapSize: 0,
    recA: new Int32Array(n),
    recB: new Int32Array(n),
    recF: new Float64Array(REC_SLOTS * n),
    recFlags: new Uint8Array(n),
    recNext: new Int32Array(n),
    recCount: 0,
    owners: new Int32Array(n),
    ownerCount: 0,
    sorted: new Int32Array(n),
    conA: new Int32Array(n),
    conB: new Int32Array(n),
    conF: new Float64Array(CON_SLOTS * n),
    conNear: new Uint8Array(n),
    conCount: 0,
    conOrder: new Int32Array(n),
    conKey: new Float64Array(n),
    conOwner: new Int32Array(n),
    conMark: new Uint8Array(n),
    conDemand: new Float64Array(n),
    held: new Float64Array(3 * capacity),
    guessFirst: new Int32Array(capacity),
    guessSet: new Int32Array(4),
    guessZ: new Float64Array(4),
    guessN: new Float64Array(12),
    guessScale: new Float64Array(1),
    solved: new Uint8Array(capacity),
    jam: new Uint8Array(capacity),
    jamList: new Int32Array(n),
    jamCount: 0,
    staticGrid: null,
    staticSpheres: 0,
    dynamicGrid: null,
    paths: createPathGrid(),
    path: createQueryOut(),
    near: createQueryOut(),
    wake: createQueryOut(),
    wakeList: new Int32Array(n),
    wakeCount: 0,
    work: new Float64Array(R_SLOTS),
    clock: new Float64Array(1),
    rest: new Float64Array(1),
    collect: 0,
    pushing: 0,
    conStart: 0,
    best: new Float64Array(BEST_SLOTS),
    partnerV: new Float64Array(3),
    shapes: {
      sphere: new ScratchSphere(), partnerSphere: new ScratchSphere(), partnerBox: new ScratchBox(),
      motion: new ScratchVec3(), cast: new ScratchCast(), contact: new ScratchContact(),
    },
    recIn: new Float64Array(REC_SLOTS),
    obstacleV: new Float64Array(3),
    relV: new Float64Array(3),
    pair: new Float64Array(8),
    solverScale: new Float64Array(2),
    projectDepth: new Float64Array(1),
  };
}


/** Makes the per-body arrays fit entity ids up to `maxEid` (when bodies were added). */
export function responseReserveBodies(s: ResponseState, maxEid: number): void {
  if (maxEid < s.capacity && maxEid < s.bodies.length) return;
  let cap = s.capacity;
  while (cap <= maxEid) cap *= 2;
  if (cap !== s.capacity) {
    s.time = grow(s.time, cap);
    s.version = grow(s.version, cap);
    s.iterations = grow(s.iterations, cap);
    s.state = grow(s.state, cap);
    s.predictions = grow(s.predictions, cap);
    s.start = grow(s.start, 3 * cap);
    s.reach = grow(s.reach, cap);
    s.suspect = grow(s.suspect, cap);
    s.pinned = grow(s.pinned, cap);
    s.pinLevel = grow(s.pinLevel, cap);
    s.squeezeSide = grow(s.squeezeSide, cap);
    s.stopNormal = grow(s.stopNormal, 3 * cap);
    s.pinNormal = grow(s.pinNormal, 3 * cap);
    s.projectEnd = grow(s.projectEnd, PROJECT_END_SLOTS * cap);
    s.planeCount = grow(s.planeCount, cap);
    s.planes = grow(s.planes, cap * PLANE_SLOTS);
    s.head = grow(s.head, cap, -1);
    s.solved = grow(s.solved, cap);
    s.held = grow(s.held, 3 * cap);
    s.guessFirst = grow(s.guessFirst, cap);
    s.jam = grow(s.jam, cap);
    s.capacity = cap;
  }
  let b = s.bodies.length;
  while (b <= maxEid) b *= 2;
  if (b !== s.bodies.length) s.bodies = grow(s.bodies, b);
  if (s.suspects.length < s.bodies.length) s.suspects = grow(s.suspects, s.bodies.length);
  if (s.jamList.length < s.bodies.length) s.jamList = grow(s.jamList, s.bodies.length);
}

/** Makes room for `n` more events (and heap slots). */
export function reserveEvents(s: ResponseState, n: number): void {
  const need = s.evCount + n;
  if (need <= s.evTime.length) return;
  let cap = s.evTime.length;
  while (cap < need) cap *= 2;
  s.evTime = grow(s.evTime, cap);
  s.evA = grow(s.evA, cap);
  s.evB = grow(s.evB, cap);
  s.evVa = grow(s.evVa, cap);
  s.evVb = grow(s.evVb, cap);
  s.evN = grow(s.evN, 3 * cap);
  s.evP = grow(s.evP, 3 * cap);
  s.heap = grow(s.heap, cap);
}

/** Makes room for one more record (and owner). */
export function reserveRecord(s: ResponseState): void {
  if (s.recCount < s.recA.length && s.ownerCount < s.owners.length) return;
  const cap = 2 * Math.max(s.recA.length, s.owners.length);
  s.recA = grow(s.recA, cap);
  s.recB = grow(s.recB, cap);
  s.recF = grow(s.recF, REC_SLOTS * cap);
  s.recFlags = grow(s.recFlags, cap);
  s.recNext = grow(s.recNext, cap);
  s.owners = grow(s.owners, cap);
  s.sorted = grow(s.sorted, cap);
}

/** Makes room for one more start-of-tick contact. */
export function reserveConstraint(s: ResponseState): void {
  if (s.conCount < s.conA.length) return;
  const cap = 2 * s.conA.length;
  s.conA = grow(s.conA, cap);
  s.conB = grow(s.conB, cap);
  s.conF = grow(s.conF, CON_SLOTS * cap);
  s.conNear = grow(s.conNear, cap);
  s.conOrder = grow(s.conOrder, cap);
  s.conKey = grow(s.conKey, cap);
  s.conOwner = grow(s.conOwner, cap);
  s.conMark = grow(s.conMark, cap);
  s.conDemand = grow(s.conDemand, cap);
}
