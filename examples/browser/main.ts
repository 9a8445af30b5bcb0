/**
 * The browser demo (`npm run demo`): a menu of scenes (scenes/index.ts), each with a one-line caption,
 * stepped at a fixed 60 Hz with the module's fixed stepper and drawn with interpolation by the 2D view
 * (Canvas 2D, view2d.ts) or the 3D view (three.js, view.ts, created at its first use), an overlay of
 * figures and the controls.
 *
 * URL parameters set the first scene: `scene` (bullets, sight, sensors, pit, character, stress),
 * `view=2d|3d`, `seed`, `bodies`, `continuous=0`, `paused=1`, `wireframe=1`, `normals=1`; changes
 * are written back to the address bar. `window.demo` and `window.demoControl` are described in api.ts.
 * @module
 */
import { createFixedStepper, fixedStepAdvance, hashPhysicsState } from '../../src/index.js';
import type { DemoControl, DemoReadout } from './api.js';
import { clampBodies, DEMO_DEFAULTS, type DemoSceneOptions } from './scene.js';
import { COMING, SCENES, sceneEntry, type SceneEntry, type SceneId, type ViewKind } from './scenes/index.js';
import type { ShowScene } from './showScene.js';
import { createTickTimer } from './tickTimer.js';
import { createView, type DemoView } from './view.js';
import { createView2d, type ViewOptions } from './view2d.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const ui = {
  title: $('title'),
  caption: $('caption'),
  info: $('info'),
  status: $('status'),
  figures: $('figures'),
  controls: $('controls'),
  scene: $<HTMLSelectElement>('scene'),
  view: $<HTMLSelectElement>('view-kind'),
  bodiesRow: $('bodies-row'),
  bodies: $<HTMLSelectElement>('bodies'),
  seed: $<HTMLInputElement>('seed'),
  reset: $<HTMLButtonElement>('reset'),
  continuousRow: $('continuous-row'),
  continuous: $<HTMLInputElement>('continuous'),
  wireframe: $<HTMLInputElement>('wireframe'),
  normals: $<HTMLInputElement>('normals'),
  pause: $<HTMLButtonElement>('pause'),
  step: $<HTMLButtonElement>('step'),
};
const BODY_CHOICES = [10_000, 20_000, 50_000, 100_000];

const params = new URLSearchParams(location.search);
const num = (name: string, fallback: number) => (params.has(name) ? Number(params.get(name)) : fallback);
const flag = (name: string, fallback: boolean) => (params.has(name) ? params.get(name) === '1' : fallback);

const container = $('view');
const view2d = createView2d(container);
let view3d: DemoView | undefined;
const viewOptions: ViewOptions = { wireframe: flag('wireframe', false), normals: flag('normals', false) };
const timer = createTickTimer();
const frameTimes = new Float64Array(256);
let frameCount = 0;
let paused = flag('paused', false);
/** The info panel's height when the 2D view's insets were last set. */
let infoHeight = -1;
let entry: SceneEntry = sceneEntry(params.get('scene') ?? '') ?? SCENES[0];
let viewKind: ViewKind = params.get('view') === '2d' || params.get('view') === '3d' ? (params.get('view') as ViewKind) : entry.view;
const options: DemoSceneOptions = {
  seed: Math.trunc(num('seed', DEMO_DEFAULTS.seed)) | 0,
  bodies: clampBodies(num('bodies', DEMO_DEFAULTS.bodies)),
  continuous: flag('continuous', DEMO_DEFAULTS.continuous),
};
let scene: ShowScene = entry.create(options);
let stepper = createFixedStepper({ dt: scene.physics.dt, maxSubSteps: 5 });

const readout = {
  scene: entry.id, view: viewKind, tick: 0, hash: '', msPerTick: NaN, fps: 0, contacts: 0, bodies: 0, bulletsThrough: 0, bullets: 0,
  figures: {} as Record<string, number>,
};
const demo: DemoReadout = Object.freeze({
  get scene() { return readout.scene; },
  get view() { return readout.view; },
  get tick() { return readout.tick; },
  get hash() { return readout.hash; },
  get msPerTick() { return readout.msPerTick; },
  get fps() { return readout.fps; },
  get contacts() { return readout.contacts; },
  get bodies() { return readout.bodies; },
  get bulletsThrough() { return readout.bulletsThrough; },
  get bullets() { return readout.bullets; },
  get figures() { return { ...readout.figures }; },
});
Object.defineProperty(window, 'demo', { value: demo, writable: false, enumerable: true });

/** The view drawing the scene now (the 3D one is created at its first use: WebGL starts slowly in software). */
function activeView(): { load(s: ShowScene): void; beforeTick(): void; draw(alpha: number, o: ViewOptions): void; resize(): void } {
  if (viewKind === '2d') return view2d;
  view3d ??= createView(container);
  return view3d;
}

/** Tells the 2D view which part of the page the panels leave free (it fits the scene there). */
function setInsets(): void {
  const h = window.innerHeight, w = window.innerWidth;
  view2d.setInsets(ui.info.getBoundingClientRect().bottom + 6, w - ui.controls.getBoundingClientRect().left + 6, h - ui.figures.getBoundingClientRect().top + 6, 10);
}

function showView(): void {
  refresh(performance.now());
  setInsets();
  view2d.canvas.style.display = viewKind === '2d' ? '' : 'none';
  if (view3d) view3d.canvas.parentElement!.querySelectorAll('canvas').forEach((c) => {
    if (c !== view2d.canvas) c.style.display = viewKind === '3d' ? '' : 'none';
  });
  const v = activeView();
  v.resize();
  v.load(scene);
}

function stepOnce(): void {
  activeView().beforeTick();
  const start = performance.now();
  scene.tick();
  timer.add(start, performance.now() - start);
}

function countBodies(s: ShowScene): number {
  return s.spheres.length + s.boxes.length;
}

/** Refreshes window.demo and the overlay from the scene. */
function refresh(now: number): void {
  const p = scene.physics;
  if (readout.tick !== p.tick || readout.hash === '') readout.hash = hashPhysicsState(p);
  readout.scene = entry.id;
  readout.view = viewKind;
  readout.tick = p.tick;
  readout.contacts = p.contacts.count;
  readout.bodies = countBodies(scene);
  readout.figures = scene.figures();
  readout.bulletsThrough = readout.figures.through ?? 0;
  readout.bullets = entry.id === 'bullets' || entry.id === 'stress' ? 8 : 0;
  let frames = 0;
  for (let k = 0; k < Math.min(frameCount, frameTimes.length); k++) if (now - frameTimes[(frameCount - 1 - k) % frameTimes.length] <= 1000) frames++;
  readout.fps = frames;
  const ms = timer.median(now);
  if (!Number.isNaN(ms)) readout.msPerTick = ms;
  const msText = Number.isNaN(readout.msPerTick) ? '–' : readout.msPerTick.toFixed(2);
  ui.status.textContent = scene.status();
  if (ui.info.offsetHeight !== infoHeight) {
    infoHeight = ui.info.offsetHeight;
    setInsets();
  }
  ui.figures.textContent =
    `physics  ${msText} ms/tick (median, last 1 s) · ${readout.fps} frames/s\n` +
    `bodies   ${readout.bodies.toLocaleString('en-US')} · contacts ${readout.contacts.toLocaleString('en-US')} per tick\n` +
    `tick     ${readout.tick}${paused ? '  (paused)' : ''} · hash ${readout.hash}\n` +
    `${viewKind === '2d' ? 'Canvas 2D, top-down (xy)' : 'three.js (WebGL)'} · 60 Hz fixed step`;
}

function syncControls(): void {
  ui.title.textContent = entry.title;
  ui.caption.textContent = entry.caption;
  ui.scene.value = entry.id;
  ui.view.value = viewKind;
  ui.bodiesRow.style.display = entry.controls.includes('bodies') ? '' : 'none';
  ui.continuousRow.style.display = entry.controls.includes('continuous') ? '' : 'none';
  if (!Array.from(ui.bodies.options).some((o) => o.value === String(options.bodies))) ui.bodies.add(new Option(options.bodies.toLocaleString('en-US'), String(options.bodies)));
  ui.bodies.value = String(options.bodies);
  ui.seed.value = String(options.seed);
  ui.continuous.checked = scene.physics.continuous;
  ui.wireframe.checked = viewOptions.wireframe;
  ui.normals.checked = viewOptions.normals;
  ui.pause.textContent = paused ? 'Resume' : 'Pause';
}

function writeAddress(): void {
  const q = new URLSearchParams({ scene: entry.id });
  if (viewKind !== entry.view) q.set('view', viewKind);
  q.set('seed', String(options.seed));
  if (entry.controls.includes('bodies')) q.set('bodies', String(options.bodies));
  if (!scene.physics.continuous) q.set('continuous', '0');
  if (paused) q.set('paused', '1');
  if (viewOptions.wireframe) q.set('wireframe', '1');
  if (viewOptions.normals) q.set('normals', '1');
  history.replaceState(null, '', `?${q}`);
}

/** Builds the current entry's scene afresh from `options` and shows it. */
function rebuild(): void {
  scene = entry.create(options);
  stepper = createFixedStepper({ dt: scene.physics.dt, maxSubSteps: 5 });
  timer.clear();
  readout.msPerTick = NaN;
  readout.hash = '';
  showView();
  writeAddress();
  syncControls();
  refresh(performance.now());
}

const control: DemoControl = {
  setScene(id) {
    const e = sceneEntry(id);
    if (!e) throw new Error(`demoControl.setScene: no scene ${JSON.stringify(id)} (scenes: ${SCENES.map((s) => s.id).join(', ')})`);
    entry = e;
    viewKind = e.view;
    rebuild();
  },
  setView(kind) {
    if (kind !== '2d' && kind !== '3d') throw new Error(`demoControl.setView: '2d' or '3d', got ${JSON.stringify(kind)}`);
    viewKind = kind;
    showView();
    writeAddress();
    syncControls();
    refresh(performance.now());
  },
  reset(o: Partial<DemoSceneOptions> = {}) {
    options.seed = o.seed ?? options.seed;
    options.bodies = clampBodies(o.bodies ?? options.bodies);
    options.continuous = o.continuous ?? scene.physics.continuous;
    rebuild();
  },
  step(n = 1) {
    for (let i = 0; i < n; i++) stepOnce();
    refresh(performance.now());
  },
  pause(p) {
    paused = p;
    writeAddress();
    syncControls();
    refresh(performance.now());
  },
  setContinuous(on) {
    scene.physics.continuous = on;
    options.continuous = on;
    writeAddress();
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

for (const s of SCENES) ui.scene.add(new Option(s.title, s.id));
for (const c of COMING) {
  const o = new Option(`${c.title} (coming)`, '');
  o.disabled = true;
  o.title = c.reason;
  ui.scene.add(o);
}
for (const n of BODY_CHOICES) ui.bodies.add(new Option(n.toLocaleString('en-US'), String(n)));
// The menus give the focus back to the page, so that the arrow keys walk instead of changing the choice.
ui.scene.addEventListener('change', () => {
  control.setScene(ui.scene.value as SceneId);
  ui.scene.blur();
});
ui.view.addEventListener('change', () => {
  control.setView(ui.view.value as ViewKind);
  ui.view.blur();
});
ui.bodies.addEventListener('change', () => control.reset({ bodies: Number(ui.bodies.value) }));
ui.reset.addEventListener('click', () => control.reset({ seed: Math.trunc(Number(ui.seed.value)) | 0 }));
ui.continuous.addEventListener('change', () => control.setContinuous(ui.continuous.checked));
ui.wireframe.addEventListener('change', () => control.setWireframe(ui.wireframe.checked));
ui.normals.addEventListener('change', () => control.setNormals(ui.normals.checked));
ui.pause.addEventListener('click', () => control.pause(!paused));
ui.step.addEventListener('click', () => control.step(1));

// Keyboard: arrows or WASD (and Space), for the scenes that take it (sight, character).
const keys = new Set<string>();
const KEYS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0], KeyA: [-1, 0], ArrowRight: [1, 0], KeyD: [1, 0], ArrowUp: [0, 1], KeyW: [0, 1], ArrowDown: [0, -1], KeyS: [0, -1], Space: [0, 0],
};
function sendInput(): void {
  let x = 0, y = 0;
  for (const k of keys) {
    if (k === 'Space') continue;
    x += KEYS[k][0];
    y += KEYS[k][1];
  }
  (scene as ShowScene & { setInput?(x: number, y: number, jump: boolean): void }).setInput?.(Math.sign(x), Math.sign(y), keys.has('Space'));
}
window.addEventListener('keydown', (e) => {
  if (!(e.code in KEYS) || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  e.preventDefault();
  keys.add(e.code);
  sendInput();
});
window.addEventListener('keyup', (e) => {
  if (keys.delete(e.code)) sendInput();
});
window.addEventListener('blur', () => {
  keys.clear();
  sendInput();
});

window.addEventListener('resize', () => {
  setInsets();
  view2d.resize();
});

let last = performance.now();
function frame(now: number): void {
  const elapsed = (now - last) / 1000;
  last = now;
  frameTimes[frameCount++ % frameTimes.length] = now;
  if (!paused) fixedStepAdvance(stepper, elapsed, stepOnce);
  activeView().draw(paused ? 1 : stepper.alpha, viewOptions);
  refresh(now);
  requestAnimationFrame(frame);
}

showView();
writeAddress();
syncControls();
refresh(performance.now());
requestAnimationFrame(frame);
