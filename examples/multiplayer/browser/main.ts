/**
 * The arena's browser client (examples/multiplayer/page.ts builds and serves it): joins a room
 * through `?endpoint=` (default http://127.0.0.1:2567; the delay proxy's address to try a round
 * trip), predicts with `PredictedClient`, steers the local sphere with the arrow keys or WASD, and
 * draws the arena top-down with three.js, every moving body between its last two predicted ticks.
 *
 * The prediction runs from a 4 ms timer and from each frame: software WebGL may draw only a few
 * frames a second, and prediction must keep the ticks' pace. Bodies are drawn at the module's render
 * interpolation (`enableInterpolation` through the client's `interpolation` option,
 * `interpolatePoses`): the pose at alpha between the last two predicted ticks, alpha = the time since
 * the newest predicted tick over the tick period, clamped to [0, 1]. After a rollback the previous
 * poses are the re-simulated ones, so a re-simulation equal to the prediction draws the same poses.
 *
 * The panel shows the predicted tick, the confirmed tick, the round trip, rollbacks per second, the
 * re-simulation cost (ms per second and ticks per rollback) and the hash check. `window.arena`
 * exposes the client for tests.
 */
import * as THREE from 'three';
import { query } from 'bitecs';
import { interpolatePoses } from '../../../src/index.js';
import { PredictedClient } from '../predictedClient.js';
import { TICK_RATE } from '../sim.js';

declare global {
  interface Window {
    arena?: { client: PredictedClient | undefined; error: string | undefined; frames: number };
  }
}

const TICK_MS = 1000 / TICK_RATE;
const params = new URLSearchParams(location.search);
const endpoint = params.get('endpoint') ?? 'http://127.0.0.1:2567';
const bodies = Number(params.get('bodies') ?? 400);
const hud = document.getElementById('hud')!;
const state: NonNullable<Window['arena']> = { client: undefined, error: undefined, frames: 0 };
window.arena = state;

const keys = new Set<string>();
function stick(client: PredictedClient): void {
  const x = (keys.has('ArrowRight') || keys.has('KeyD') ? 1 : 0) - (keys.has('ArrowLeft') || keys.has('KeyA') ? 1 : 0);
  const z = (keys.has('ArrowDown') || keys.has('KeyS') ? 1 : 0) - (keys.has('ArrowUp') || keys.has('KeyW') ? 1 : 0);
  client.setStick(127 * x, 127 * z);
}

async function start(): Promise<void> {
  let lastStepAt = performance.now();
  const client = await PredictedClient.connect({
    endpoint, roomOptions: { bodies, seed: 1 }, name: 'browser', interpolation: true,
    onPredicted: () => {
      lastStepAt = performance.now();
    },
  });
  state.client = client;
  for (const kind of ['keydown', 'keyup'] as const) {
    addEventListener(kind, (e) => {
      if (kind === 'keydown') keys.add(e.code);
      else keys.delete(e.code);
      stick(client);
    });
  }
  // Prediction at the ticks' pace, from a timer and from each frame.
  const pump = () => client.update();
  setInterval(pump, 4);

  // ---- View -------------------------------------------------------------------------------------
  const container = document.getElementById('view')!;
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setClearColor(0x0d1117);
  container.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xdde6ff, 0x202830, 1.8));
  const sun = new THREE.DirectionalLight(0xffffff, 1.5);
  sun.position.set(0.3, 1, 0.2);
  scene.add(sun);
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.1, 1000);
  camera.position.set(0, 100, 0);
  camera.up.set(0, 0, -1);
  camera.lookAt(0, 0, 0);
  const resize = () => {
    renderer.setSize(innerWidth, innerHeight);
  };
  addEventListener('resize', resize);
  resize();

  let spheres: THREE.InstancedMesh | undefined;
  let boxes: THREE.InstancedMesh | undefined;
  let sphereIds = new Uint32Array(0), boxIds = new Uint32Array(0);
  let builtFor: unknown;
  const m = new THREE.Matrix4(), q = new THREE.Quaternion(), s3 = new THREE.Vector3(), p3 = new THREE.Vector3();
  const ball = new THREE.Color(0x3b82f6), player = new THREE.Color(0xf59e0b), mine = new THREE.Color(0x22c55e);
  const staticBox = new THREE.Color(0x4b5563), movingBox = new THREE.Color(0xa855f7);

  const build = () => {
    const sim = client.sim!;
    const { Sphere, Box, Velocity } = sim.physics.components;
    if (spheres) scene.remove(spheres);
    if (boxes) scene.remove(boxes);
    sphereIds = Uint32Array.from(query(sim.world, [Sphere]));
    boxIds = Uint32Array.from(query(sim.world, [Box]));
    spheres = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 12, 8), new THREE.MeshStandardMaterial({ roughness: 0.5 }), sphereIds.length);
    boxes = new THREE.InstancedMesh(new THREE.BoxGeometry(2, 2, 2), new THREE.MeshStandardMaterial({ roughness: 0.8 }), boxIds.length);
    for (const mesh of [spheres, boxes]) {
      mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      mesh.frustumCulled = false;
      scene.add(mesh);
    }
    const moving = new Set(query(sim.world, [Box, Velocity]));
    for (let i = 0; i < boxIds.length; i++) boxes.setColorAt(i, moving.has(boxIds[i]) ? movingBox : staticBox);
    const h = sim.half + 2;
    const aspect = innerWidth / innerHeight;
    camera.left = -h * Math.max(1, aspect);
    camera.right = h * Math.max(1, aspect);
    camera.top = h * Math.max(1, 1 / aspect);
    camera.bottom = -h * Math.max(1, 1 / aspect);
    camera.updateProjectionMatrix();
    builtFor = sim;
  };

  /** The poses drawn: `interpolatePoses` writes every body's pose at alpha here, by entity id. */
  let pose = { x: new Float64Array(0), y: new Float64Array(0), z: new Float64Array(0), qx: new Float64Array(0), qy: new Float64Array(0), qz: new Float64Array(0), qw: new Float64Array(0) };
  let rollbacksAt = 0, rollbacks0 = 0, resim0 = 0, resimTicks0 = 0, rate = 0, cost = 0, perRollback = 0;
  const frame = () => {
    requestAnimationFrame(frame);
    pump(); // a slow frame (software WebGL) must not hold the prediction back
    const sim = client.sim;
    if (sim === undefined) return;
    const { Sphere, Position: P, Box } = sim.physics.components;
    if (builtFor !== sim || query(sim.world, [Sphere]).length !== sphereIds.length) build();
    const alpha = Math.min(1, Math.max(0, (performance.now() - lastStepAt) / TICK_MS));
    const n = P.x.length;
    if (pose.x.length < n) pose = { x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n), qx: new Float64Array(n), qy: new Float64Array(n), qz: new Float64Array(n), qw: new Float64Array(n) };
    interpolatePoses(sim.physics, alpha, pose);
    const players = new Set<number>();
    client.room.state?.players?.forEach((p) => players.add(p.eid));
    for (let i = 0; i < sphereIds.length; i++) {
      const e = sphereIds[i];
      p3.set(pose.x[e], pose.y[e], pose.z[e]);
      const r = Sphere.radius[e];
      s3.set(r, r, r);
      q.identity();
      spheres!.setMatrixAt(i, m.compose(p3, q, s3));
      spheres!.setColorAt(i, e === client.myEid ? mine : players.has(e) ? player : ball);
    }
    for (let i = 0; i < boxIds.length; i++) {
      const e = boxIds[i];
      p3.set(pose.x[e], pose.y[e], pose.z[e]);
      q.set(pose.qx[e], pose.qy[e], pose.qz[e], pose.qw[e]);
      s3.set(Box.hx[e], Box.hy[e], Box.hz[e]);
      boxes!.setMatrixAt(i, m.compose(p3, q, s3));
    }
    spheres!.instanceMatrix.needsUpdate = true;
    if (spheres!.instanceColor) spheres!.instanceColor.needsUpdate = true;
    boxes!.instanceMatrix.needsUpdate = true;
    renderer.render(scene, camera);
    state.frames++;
    const now = performance.now();
    const st = client.stats;
    if (now - rollbacksAt >= 1000) {
      const dt = (now - rollbacksAt) / 1000;
      rate = (st.rollbacks - rollbacks0) / dt;
      cost = (st.resimMs - resim0) / dt;
      perRollback = (st.resimulated - resimTicks0) / Math.max(1, st.rollbacks - rollbacks0);
      rollbacksAt = now;
      rollbacks0 = st.rollbacks;
      resim0 = st.resimMs;
      resimTicks0 = st.resimulated;
    }
    hud.textContent =
      `predicted tick ${client.predictedTick}\n` +
      `confirmed tick ${client.confirmedTick}  (lead ${client.predictedTick - client.confirmedTick}, round trip ${client.rttMs.toFixed(0)} ms)\n` +
      `rollbacks      ${rate.toFixed(1)} /s, ${perRollback.toFixed(1)} ticks each\n` +
      `re-simulation  ${cost.toFixed(1)} ms/s\n` +
      `hash check     ${st.matched}/${st.checked} confirmed ticks matched\n` +
      `players ${players.size}, bodies ${sphereIds.length + boxIds.length} · arrows / WASD steer the green sphere`;
  };
  requestAnimationFrame(frame);
}

start().catch((e: unknown) => {
  state.error = e instanceof Error ? e.message : String(e);
  hud.textContent = `error: ${state.error}`;
});
