/**
 * What a scene of the demo's menu gives the page: its physics and tick, which bodies to draw in which
 * colour, extra lines and labels (rays, lanes), a few live figures, and where to look. Both views
 * (view2d.ts: Canvas 2D, top-down onto the xy plane; view.ts: three.js) draw any scene from this.
 *
 * World frame and length units as the physics; colours are 0xRRGGBB.
 * @module
 */
import type { World } from 'bitecs';
import type { DebugLines, Physics } from '../../src/index.js';

/** A text drawn next to a point of the world. */
export interface Label {
  x: number;
  y: number;
  z: number;
  text: string;
  color: number;
}

export interface ShowScene {
  readonly world: World;
  readonly physics: Physics;
  /** One fixed step of the scene (the physics and the scene's own systems). */
  tick(): void;
  /** Sphere bodies to draw, and box bodies (sensors included). Fixed for the scene's life. */
  readonly spheres: Uint32Array;
  readonly boxes: Uint32Array;
  /** Bodies drawn translucent (sensor zones). */
  readonly translucent?: Uint32Array;
  /** Colour of body `eid` now (called every frame for every drawn body). */
  color(eid: number): number;
  /** Bodies not to interpolate this frame (teleported in the last tick, e.g. a new salvo). */
  teleported?(eid: number): boolean;
  /** Extra line segments (DebugLines layout: positions and colours per vertex), refreshed after each tick. */
  readonly lines?: DebugLines;
  /** Texts at points, refreshed after each tick. */
  labels?(): readonly Label[];
  /** Live figures (the page shows `status()`, tests read `figures()`). */
  figures(): Record<string, number>;
  status(): string;
  /** Where the 2D view looks: the xy rectangle [minX, minY, maxX, maxY] to fit. */
  readonly bounds2d: readonly [number, number, number, number];
  /** Where the 3D view looks from and at. */
  readonly camera3d: { readonly eye: readonly [number, number, number]; readonly target: readonly [number, number, number] };
}

export const COLORS = {
  background: 0x0d1117,
  staticBox: 0x6b7280,
  movingBox: 0xf97316,
  sphere: 0x3b82f6,
  touching: 0xfb923c,
  bullet: 0xfde047,
  wall: 0xe5e7eb,
  player: 0x22c55e,
  enemy: 0xef4444,
  seen: 0xef4444,
  blocked: 0x9ca3af,
  sensorIdle: 0xa855f7,
  sensorLit: 0xfacc15,
  ball: 0x22d3ee,
  text: 0xe5e7eb,
} as const;

/** Appends one segment (a → b, colour c) to `lines`; the caller sized it (createDebugLines(capacity)). */
export function pushLine(lines: DebugLines, ax: number, ay: number, az: number, bx: number, by: number, bz: number, c: number): void {
  const i = lines.count++;
  const p = lines.positions, k = lines.colors;
  p[6 * i] = ax;
  p[6 * i + 1] = ay;
  p[6 * i + 2] = az;
  p[6 * i + 3] = bx;
  p[6 * i + 4] = by;
  p[6 * i + 5] = bz;
  const r = ((c >> 16) & 255) / 255, g = ((c >> 8) & 255) / 255, b = (c & 255) / 255;
  for (const o of [0, 3]) {
    k[6 * i + o] = r;
    k[6 * i + o + 1] = g;
    k[6 * i + o + 2] = b;
  }
}

/** CSS `#rrggbb` of a colour. */
export function css(c: number): string {
  return `#${c.toString(16).padStart(6, '0')}`;
}
