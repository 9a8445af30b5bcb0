/**
 * Jolt (npm `jolt-physics` 1.1.0, float32 WASM, its default single-threaded build) by its query
 * route, the fastest one for this job: the boxes are static bodies in object layer NON_MOVING (box
 * convex radius 0, so edges are sharp: the default 0.05 rounds them and misses pairs near edges),
 * and each tick runs one `NarrowPhaseQuery.CollideShape` per sphere (a unit `SphereShape` scaled by
 * the radius, at the sphere's position) with the filters of object layer MOVING. The layer table
 * enables MOVING–NON_MOVING and disables MOVING–MOVING, so spheres skip spheres (the spheres are
 * query shapes, not bodies: nothing to skip in this scene, but the filter is the one a game with
 * sphere bodies would use). `mMaxBodies` is raised to the box count (default 10,240).
 * `CreateAndAddBody` returns one reused `BodyID` object: its value is copied at once.
 *
 * Jolt's WASM heap is fixed (128 MB in this build); all Jolt objects are freed with `Jolt.destroy`.
 */
import initJolt from 'jolt-physics';
import type { ArenaSpec } from '../../src/scenes/arena.js';
import { moveSpheres, sphereState, type Peer } from '../common.js';

type JoltModule = Awaited<ReturnType<typeof initJolt>>;

let ready: Promise<JoltModule> | undefined;
let J: JoltModule | undefined;

/** Loads the WASM module once per process. */
export async function initJoltModule(): Promise<void> {
  ready ??= initJolt();
  J = await ready;
}

const NON_MOVING = 0;
const MOVING = 1;

export function createJolt(spec: ArenaSpec): Peer {
  if (!J) throw new Error('call initJoltModule() first');
  const Jolt = J;
  const s = sphereState(spec);
  const m = spec.boxes.length;
  const owned: unknown[] = [];
  const keep = <T>(o: T): T => {
    owned.push(o);
    return o;
  };

  const pairFilter = new Jolt.ObjectLayerPairFilterTable(2);
  pairFilter.EnableCollision(NON_MOVING, MOVING);
  pairFilter.DisableCollision(MOVING, MOVING);
  pairFilter.DisableCollision(NON_MOVING, NON_MOVING);
  const bpNonMoving = new Jolt.BroadPhaseLayer(0);
  const bpMoving = new Jolt.BroadPhaseLayer(1);
  const bpInterface = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
  bpInterface.MapObjectToBroadPhaseLayer(NON_MOVING, bpNonMoving);
  bpInterface.MapObjectToBroadPhaseLayer(MOVING, bpMoving);
  const settings = new Jolt.JoltSettings();
  settings.mMaxBodies = Math.max(10240, m + 16);
  settings.mMaxBodyPairs = 65536;
  settings.mMaxContactConstraints = 10240;
  settings.mObjectLayerPairFilter = pairFilter;
  settings.mBroadPhaseLayerInterface = bpInterface;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, pairFilter, 2);
  const jolt = new Jolt.JoltInterface(settings);
  Jolt.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  const bodies = system.GetBodyInterface();

  // Boxes: static bodies; body index → box index (the BodyID returned is reused: copy its value).
  const boxOf = new Int32Array(Math.max(10240, m + 16)).fill(-1);
  const v = keep(new Jolt.Vec3(0, 0, 0));
  const rv = keep(new Jolt.RVec3(0, 0, 0));
  const q = keep(new Jolt.Quat(0, 0, 0, 1));
  for (let i = 0; i < m; i++) {
    const b = spec.boxes[i];
    v.Set(b.halfExtents[0], b.halfExtents[1], b.halfExtents[2]);
    const shape = new Jolt.BoxShape(v, 0);
    rv.Set(b.position[0], b.position[1], b.position[2]);
    q.Set(b.rotation[0], b.rotation[1], b.rotation[2], b.rotation[3]);
    const creation = new Jolt.BodyCreationSettings(shape, rv, q, Jolt.EMotionType_Static, NON_MOVING);
    const id = bodies.CreateAndAddBody(creation, Jolt.EActivation_DontActivate);
    boxOf[id.GetIndex()] = i;
    Jolt.destroy(creation);
  }
  system.OptimizeBroadPhase();

  // Per-query objects, made once.
  const unitSphere = keep(new Jolt.SphereShape(1));
  const scale = keep(new Jolt.Vec3(1, 1, 1));
  const transform = keep(new Jolt.RMat44());
  const identity = transform.sIdentity();
  const baseOffset = keep(new Jolt.RVec3(0, 0, 0));
  const collideSettings = keep(new Jolt.CollideShapeSettings());
  const collector = keep(new Jolt.CollideShapeAllHitCollisionCollector());
  const bpFilter = keep(new Jolt.DefaultBroadPhaseLayerFilter(jolt.GetObjectVsBroadPhaseLayerFilter(), MOVING));
  const objectFilter = keep(new Jolt.DefaultObjectLayerFilter(jolt.GetObjectLayerPairFilter(), MOVING));
  const bodyFilter = keep(new Jolt.BodyFilter());
  const shapeFilter = keep(new Jolt.ShapeFilter());
  const query = system.GetNarrowPhaseQuery();
  for (let c = 0; c < 4; c++) transform.SetColumn4(c, identity.GetColumn4(c));

  let count = 0;
  const collide = (i: number): number => {
    const r = s.r[i];
    scale.Set(r, r, r);
    rv.Set(s.px[i], s.py[i], s.pz[i]);
    transform.SetTranslation(rv);
    collector.Reset();
    query.CollideShape(unitSphere, scale, transform, collideSettings, baseOffset, collector, bpFilter, objectFilter, bodyFilter, shapeFilter);
    return collector.mHits.size();
  };
  return {
    id: 'jolt',
    bodies: s.n + m,
    lag: 0,
    tick() {
      moveSpheres(s);
      count = 0;
      for (let i = 0; i < s.n; i++) count += collide(i);
    },
    contacts: () => count,
    pairs(out) {
      for (let i = 0; i < s.n; i++) {
        const hits = collide(i);
        const list = collector.mHits;
        for (let k = 0; k < hits; k++) {
          const b = boxOf[list.at(k).mBodyID2.GetIndex()];
          if (b < 0) throw new Error('jolt: a hit on a body that is not a box');
          out.push(i * m + b);
        }
      }
    },
    free() {
      for (const o of owned) Jolt.destroy(o as never);
      owned.length = 0;
      Jolt.destroy(jolt);
    },
  };
}
