/**
 * What the demo page exposes on `window`, for tests and for anyone at the browser's console.
 * @module
 */
import type { DemoSceneOptions } from './scene.js';
import type { SceneId, ViewKind } from './scenes/index.js';

/**
 * `window.demo`: read-only numbers about the running scene, refreshed every frame (and at once after
 * a `demoControl` call).
 */
export interface DemoReadout {
  /** The scene of the menu shown (scenes/index.ts). */
  readonly scene: SceneId;
  /** The view drawing it: Canvas 2D or three.js (WebGL). */
  readonly view: ViewKind;
  /** Physics ticks stepped since the last reset. */
  readonly tick: number;
  /** `hashPhysicsState` after the last tick (16 hex digits). */
  readonly hash: string;
  /** Physics milliseconds per tick: the median over the ticks of the last second (the last value when none ran). */
  readonly msPerTick: number;
  /** Frames drawn per second over the last second. */
  readonly fps: number;
  /** Contacts of the last tick. */
  readonly contacts: number;
  /** Bodies in the scene. */
  readonly bodies: number;
  /** Bullets now beyond the thin wall (bullets and stress scenes; else 0), of `bullets`. */
  readonly bulletsThrough: number;
  readonly bullets: number;
  /** The scene's own figures (a copy): e.g. `passedOff`, `seeing`, `lit`, `moving`. */
  readonly figures: Readonly<Record<string, number>>;
}

/** `window.demoControl`: what the page's controls do, callable from a test. */
export interface DemoControl {
  /** Shows another scene of the menu (its own default view), built afresh. */
  setScene(id: SceneId): void;
  /** Draws the scene with Canvas 2D or three.js. */
  setView(view: ViewKind): void;
  /** Rebuilds the scene (options not given keep their current values) and resets the tick count. */
  reset(options?: Partial<DemoSceneOptions>): void;
  /** Runs `n` ticks now (default 1), whether paused or not. */
  step(n?: number): void;
  pause(paused: boolean): void;
  setContinuous(on: boolean): void;
  setWireframe(on: boolean): void;
  setNormals(on: boolean): void;
}

declare global {
  interface Window {
    demo: DemoReadout;
    demoControl: DemoControl;
  }
}
