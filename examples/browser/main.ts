/**
 * The browser demo (`npm run demo`): the scene of scene.ts stepped at a fixed 60 Hz with the module's
 * fixed stepper, drawn by view.ts with interpolation, an overlay of figures and the controls.
 *
 * URL parameters set the first scene: `seed`, `bodies`, `continuous=0`, `paused=1`, `wireframe=1`,
 * `normals=1`; Reset writes the current ones back to the address bar. `window.demo` and
 * `window.demoControl` are described in api.ts.
 * @module
 */
import { createFixedStepper, fixedStepAdvance, hashPhysicsState } from '../../src/index.js';
import type { DemoControl, DemoReadout } from './api.js';
import { BULLETS, clampBodies, createDemoScene, DEMO_DEFAULTS, type DemoScene, type DemoSceneOptions } from './scene.js';
import { createTickTimer } from './tickTimer.js';
import { createView, type ViewOptions } from './view.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const ui = {
  overlay: $('overlay'),
  bodies: $<HTMLInputElement>('bodies'),
  bodiesOut: $<HTMLOutputElement>('bodies-out'),
  seed: $<HTMLInputElement>('seed'),
  reset: $<HTMLButtonElement>('reset'),
  continuous: $<HTMLInputElement>('continuous'),
  bulletsNote: $('bullets-note'),
  wireframe: $<HTMLInputElement>('wireframe'),
  normals: $<HTMLInputElement>('normals'),
  pause: $<HTMLButtonElement>('pause'),
  step: $<HTMLButtonElement>('step'),
};

const params = new URLSearchParams(location.search);
const num = (name: string, fallback: number) => (params.has(name) ? Number(params.get(name)) : fallback);
const flag = (name: string, fallback: boolean) => (params.has(name) ? params.get(name) === '1' : fallback);

const view = createView($('view'));
const viewOptions: ViewOptions = { wireframe: flag('wireframe', false), normals: flag('normals', false) };
const timer = createTickTimer();
let paused = flag('paused', false);
let scene: DemoScene = createDemoScene({
  seed: Math.trunc(num('seed', DEMO_DEFAULTS.seed)) | 0,
  bodies: clampBodies(num('bodies', DEMO_DEFAULTS.bodies)),
  continuous: flag('continuous', DEMO_DEFAULTS.continuous),
});
let stepper = createFixedStepper({ dt: scene.physics.dt, maxSubSteps: 5 });

const readout = { tick: 0, hash: '', msPerTick: NaN, contacts: 0, bodies: 0, bulletsThrough: 0, bullets: BULLETS };
const demo: DemoReadout = Object.freeze({
  get tick() { return readout.tick; },
  get hash() { return readout.hash; },
  get msPerTick() { return readout.msPerTick; },
  get contacts() { return readout.contacts; },
  get bodies() { return readout.bodies; },
  get bulletsThrough() { return readout.bulletsThrough; },
  get bullets() { return readout.bullets; },
});
Object.defineProperty(window, 'demo', { value: demo, writable: false, enumerable: true });

function stepOnce(): void {
  view.beforeTick();
  const start = performance.now();
  scene.tick();
  timer.add(start, performance.now() - start);
}

/** Refreshes window.demo, the overlay and the bullet note from the scene. */
function refresh(now: number): void {
  const p = scene.physics;
  if (readout.tick !== p.tick || readout.hash === '') readout.hash = hashPhysicsState(p);
  readout.tick = p.tick;
  readout.contacts = p.contacts.count;
  readout.bodies = scene.options.bodies;
  readout.bulletsThrough = scene.bulletsThrough();
  const ms = timer.median(now);
  if (!Number.isNaN(ms)) readout.msPerTick = ms;
  const msText = Number.isNaN(readout.msPerTick) ? '–' : readout.msPerTick.toFixed(2);
  ui.overlay.textContent =
    `physics  ${msText} ms/tick (median, last 1 s)\n` +
    `bodies   ${readout.bodies.toLocaleString('en-US')}\n` +
    `contacts ${readout.contacts.toLocaleString('en-US')} per tick\n` +
    `tick     ${readout.tick}${paused ? '  (paused)' : ''}\n` +
    `hash     ${readout.hash}\n` +
    `${p.continuous ? 'continuous' : 'discrete'} contacts, 60 Hz fixed step, built-in response`;
  ui.bulletsNote.textContent =
    `bullets through the thin wall: ${readout.bulletsThrough}/${BULLETS}\n` +
    (p.continuous ? 'bullets: dynamic (the response sweeps)' : 'bullets: kinematic, seen per tick');
}

function syncControls(): void {
  ui.bodies.value = String(scene.options.bodies);
  ui.bodiesOut.textContent = scene.options.bodies.toLocaleString('en-US');
  ui.seed.value = String(scene.options.seed);
  ui.continuous.checked = scene.physics.continuous;
  ui.wireframe.checked = viewOptions.wireframe;
  ui.normals.checked = viewOptions.normals;
  ui.pause.textContent = paused ? 'Resume' : 'Pause';
}

function writeAddress(): void {
  const q = new URLSearchParams({ seed: String(scene.options.seed), bodies: String(scene.options.bodies) });
  if (!scene.physics.continuous) q.set('continuous', '0');
  if (paused) q.set('paused', '1');
  if (viewOptions.wireframe) q.set('wireframe', '1');
  if (viewOptions.normals) q.set('normals', '1');
  history.replaceState(null, '', `?${q}`);
}

const control: DemoControl = {
  reset(options: Partial<DemoSceneOptions> = {}) {
    scene = createDemoScene({
      seed: options.seed ?? scene.options.seed,
      bodies: options.bodies ?? scene.options.bodies,
      continuous: options.continuous ?? scene.physics.continuous,
    });
    stepper = createFixedStepper({ dt: scene.physics.dt, maxSubSteps: 5 });
    timer.clear();
    readout.msPerTick = NaN;
    readout.hash = '';
    view.load(scene);
    writeAddress();
    syncControls();
    refresh(performance.now());
  },
  step(n = 1) {
    for (let i = 0; i < n; i++) stepOnce();
    refresh(performance.now());
  },
  pause(p) {
    paused = p;
    syncControls();
    refresh(performance.now());
  },
  setContinuous(on) {
    scene.physics.continuous = on;
    syncControls();
    refresh(performance.now());
  },
  setWireframe(on) {
    viewOptions.wireframe = on;
    syncControls();
  },
  setNormals(on) {
    viewOptions.normals = on;
    syncControls();
  },
};
Object.defineProperty(window, 'demoControl', { value: Object.freeze(control), writable: false, enumerable: true });

ui.bodies.addEventListener('input', () => {
  ui.bodiesOut.textContent = Number(ui.bodies.value).toLocaleString('en-US');
});
ui.bodies.addEventListener('change', () => control.reset({ bodies: clampBodies(Number(ui.bodies.value)) }));
ui.reset.addEventListener('click', () => control.reset({ seed: Math.trunc(Number(ui.seed.value)) | 0 }));
ui.continuous.addEventListener('change', () => control.setContinuous(ui.continuous.checked));
ui.wireframe.addEventListener('change', () => control.setWireframe(ui.wireframe.checked));
ui.normals.addEventListener('change', () => control.setNormals(ui.normals.checked));
ui.pause.addEventListener('click', () => control.pause(!paused));
ui.step.addEventListener('click', () => control.step(1));

let last = performance.now();
function frame(now: number): void {
  const elapsed = (now - last) / 1000;
  last = now;
  if (!paused) fixedStepAdvance(stepper, elapsed, stepOnce);
  view.draw(paused ? 1 : stepper.alpha, viewOptions);
  refresh(now);
  requestAnimationFrame(frame);
}

view.load(scene);
syncControls();
refresh(performance.now());
requestAnimationFrame(frame);
