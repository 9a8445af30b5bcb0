/**
 * The stress scene: the arena of scene.ts (`npm start`'s and the benchmarks', with its moving boxes and
 * bullet lane), 10,000 to 100,000 bodies, as a {@link ShowScene}. Spheres that touched something in
 * the last tick are tinted; the bullet lane and the arena's outline are drawn as lines.
 * @module
 */
import { createDebugLines } from '../../../src/index.js';
import { createDemoScene, type DemoScene, type DemoSceneOptions } from '../scene.js';
import { COLORS, pushLine, type ShowScene } from '../showScene.js';

export interface StressScene extends ShowScene {
  readonly arena: DemoScene;
}

export function createStressScene(options: DemoSceneOptions): StressScene {
  const arena = createDemoScene(options);
  const { physics, size } = arena;
  const touching = new Uint8Array(physics.components.Position.x.length);
  const kind = new Uint8Array(physics.components.Position.x.length);
  for (const e of arena.movingBoxes) kind[e] = 1;
  for (const e of arena.bullets) kind[e] = 2;
  kind[arena.wall] = 3;
  for (const e of arena.staticBoxes) kind[e] = 4;

  const lines = createDebugLines(arena.bullets.length + 12);
  const p = physics.components.Position;
  const end = 2 * arena.wallX - arena.bulletStartX;
  for (const b of arena.bullets) pushLine(lines, arena.bulletStartX, p.y[b], arena.laneZ, end, p.y[b], arena.laneZ, 0x854d0e);
  // The arena cube's 12 edges.
  for (let axis = 0; axis < 3; axis++) {
    for (const u of [0, size]) {
      for (const v of [0, size]) {
        const a = [0, 0, 0], b = [0, 0, 0];
        a[(axis + 1) % 3] = b[(axis + 1) % 3] = u;
        a[(axis + 2) % 3] = b[(axis + 2) % 3] = v;
        b[axis] = size;
        pushLine(lines, a[0], a[1], a[2], b[0], b[1], b[2], 0x374151);
      }
    }
  }

  function markTouching(): void {
    touching.fill(0);
    const c = physics.contacts;
    for (let i = 0; i < c.count; i++) {
      touching[c.a[i]] = 1;
      touching[c.b[i]] = 1;
    }
  }

  const colorOf = [COLORS.sphere, COLORS.movingBox, COLORS.bullet, COLORS.wall, COLORS.staticBox];
  const c = size / 2;
  return {
    arena,
    world: arena.world,
    physics,
    spheres: Uint32Array.from([...arena.spheres, ...arena.bullets]),
    boxes: Uint32Array.from([...arena.staticBoxes, ...arena.movingBoxes, arena.wall]),
    tick() {
      arena.tick();
      markTouching();
    },
    color: (e) => (kind[e] <= 2 && touching[e] === 1 ? COLORS.touching : colorOf[kind[e]]),
    teleported: (e) => kind[e] === 2 && arena.firedAtTick === physics.tick,
    lines,
    figures: () => ({ bodies: arena.options.bodies, through: arena.bulletsThrough(), contacts: physics.contacts.count }),
    status: () =>
      `${arena.spheres.length.toLocaleString('en-US')} spheres (dynamic), ${arena.staticBoxes.length.toLocaleString('en-US')} static boxes, ` +
      `${arena.movingBoxes.length} moving boxes\nbullet lane (front): ${arena.bulletsThrough()}/${arena.bullets.length} through the thin wall`,
    bounds2d: [-size * 0.05, -size * 0.05, size * 1.05, size * 1.05],
    camera3d: { eye: [c + 1.0 * size, c + 0.75 * size, c - 1.45 * size], target: [c, c * 0.8, c] },
  };
}
