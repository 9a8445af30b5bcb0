/**
 * The response section of `npm run bench`: the arena (src/scenes) with every sphere dynamic
 * (Response BOUNCE, restitution 1, sphere–sphere on) against the same arena detection only
 * (sphere–sphere on, the spheres kinematic), ours, and Rapier with dynamic balls (restitution 1, no
 * friction, no gravity, six fixed walls around the arena in place of our arena's reflection), in one
 * process, interleaved rounds, median ms per tick. Also the impacts our response resolved per tick.
 * Run alone: `npx tsx bench/run.ts --response '{"size":10000,"quick":false}'`.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { addComponent } from 'bitecs';
import { ResponseMode } from '../src/index.js';
import { arenaSpec } from '../src/scenes/arena.js';
import { buildArena, type Arena } from '../src/scenes/buildArena.js';
import { internalsOf } from '../src/physics/internal.js';
import { R_IMPACTS } from '../src/response/responseState.js';
import { median, now } from './common.js';

export interface ResponseOptions {
  size: number;
  seed?: number;
  quick?: boolean;
}

export interface ResponseResult {
  spheres: number;
  detectionMs: number;
  responseMs: number;
  /** responseMs / detectionMs. */
  ratio: number;
  rapierMs: number;
  impactsPerTick: number;
}

function arena(size: number, seed: number, dynamic: boolean): Arena {
  const a = buildArena({ spheres: size, seed, sphereSphere: true, physics: { contactComponent: false } });
  if (dynamic) {
    const R = a.physics.components.Response;
    for (const e of a.sphereIds) {
      addComponent(a.world, e, R);
      R.mode[e] = ResponseMode.BOUNCE;
      R.restitution[e] = 1;
    }
  }
  return a;
}

function rapierWorld(size: number, seed: number): RAPIER.World {
  const spec = arenaSpec({ spheres: size, seed });
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  world.timestep = spec.dt;
  for (const b of spec.boxes) {
    const [qx, qy, qz, qw] = b.rotation;
    world.createCollider(RAPIER.ColliderDesc.cuboid(b.halfExtents[0], b.halfExtents[1], b.halfExtents[2])
      .setTranslation(b.position[0], b.position[1], b.position[2]).setRotation({ x: qx, y: qy, z: qz, w: qw }).setRestitution(1).setFriction(0));
  }
  const L = spec.size;
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [-1, 1]) {
      const c = [L / 2, L / 2, L / 2];
      c[axis] = side < 0 ? -1 : L + 1;
      const h = [L, L, L];
      h[axis] = 1;
      world.createCollider(RAPIER.ColliderDesc.cuboid(h[0], h[1], h[2]).setTranslation(c[0], c[1], c[2]).setRestitution(1).setFriction(0));
    }
  }
  for (const s of spec.spheres) {
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(...s.position).setLinvel(...s.velocity).setCanSleep(false));
    world.createCollider(RAPIER.ColliderDesc.ball(s.radius).setRestitution(1).setFriction(0)
      .setRestitutionCombineRule(RAPIER.CoefficientCombineRule.Max).setFrictionCombineRule(RAPIER.CoefficientCombineRule.Min), body);
  }
  return world;
}

/** Median ms per call of `fn` over `rounds` rounds of `ticks` calls. */
function timeRound(fn: () => void, ticks: number): number {
  const t0 = now();
  for (let i = 0; i < ticks; i++) fn();
  return (now() - t0) / ticks;
}

export async function runResponse(o: ResponseOptions, log: (s: string) => void): Promise<ResponseResult> {
  await RAPIER.init();
  const seed = o.seed ?? 1;
  const detection = arena(o.size, seed, false);
  const dynamic = arena(o.size, seed, true);
  const rapier = rapierWorld(o.size, seed);
  const ticks = o.quick ? 10 : o.size >= 100_000 ? 20 : 60;
  const rounds = o.quick ? 3 : 7;
  const warm = o.quick ? 20 : 60;
  for (let i = 0; i < warm; i++) {
    detection.tick();
    dynamic.tick();
    rapier.step();
  }
  const d: number[] = [], r: number[] = [], p: number[] = [];
  let impacts = 0;
  const work = () => internalsOf(dynamic.physics).response!.work;
  for (let k = 0; k < rounds; k++) {
    d.push(timeRound(detection.tick, ticks));
    r.push(timeRound(() => {
      dynamic.tick();
      impacts += work()[R_IMPACTS];
    }, ticks));
    p.push(timeRound(() => rapier.step(), ticks));
  }
  const result: ResponseResult = {
    spheres: o.size,
    detectionMs: median(d),
    responseMs: median(r),
    ratio: median(r) / median(d),
    rapierMs: median(p),
    impactsPerTick: impacts / (rounds * ticks),
  };
  log(`  N = ${o.size.toLocaleString('en-US')}: detection only ${result.detectionMs.toFixed(2)} ms/tick, every sphere dynamic ${result.responseMs.toFixed(2)} ms/tick ` +
    `(${result.ratio.toFixed(2)}×, ${result.impactsPerTick.toFixed(0)} impacts per tick), Rapier dynamic balls ${result.rapierMs.toFixed(2)} ms/tick`);
  return result;
}
