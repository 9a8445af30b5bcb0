/**
 * The demo's three.js view of any {@link ShowScene}: instanced meshes for its spheres and boxes
 * (translucent ones apart), a colour per body per frame, the scene's own lines, its labels on a 2D
 * canvas laid over the WebGL one, and one `LineSegments` fed by `debugRender` (the wireframe of every
 * body, or the contact normals alone). Drag to orbit, wheel to zoom.
 *
 * Moving bodies are drawn between the last two physics states, previous + alpha · (current −
 * previous), with alpha from the fixed stepper; the previous state is copied before each tick
 * (`beforeTick`). The wireframe is debugRender's, i.e. the current physics state, not interpolated.
 * World frame and length units as the physics. In headless Chromium WebGL is SwiftShader (software):
 * slow; the page creates this view only when a scene is shown in 3D.
 * @module
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createDebugLines, debugRender, type DebugLines, type DebugRenderOptions } from '../../src/index.js';
import { COLORS, css, type ShowScene } from './showScene.js';
import type { ViewOptions } from './view2d.js';

export type { ViewOptions } from './view2d.js';

export interface DemoView {
  readonly renderer: THREE.WebGLRenderer;
  readonly canvas: HTMLCanvasElement;
  /** Builds the meshes of a new scene and aims the camera at it. */
  load(scene: ShowScene): void;
  /** Copies the current poses of the bodies as the previous ones; call before each tick. */
  beforeTick(): void;
  /** Draws one frame, interpolating moving bodies by alpha in [0, 1]. */
  draw(alpha: number, options: ViewOptions): void;
  resize(): void;
}

export const BACKGROUND = COLORS.background;
/** Above this many spheres, meshes and wireframe use fewer segments. */
const DETAILED_LIMIT = 20_000;

/** An instanced mesh with a colour per instance, drawn whatever its bounds (instances move). */
function instanced(geometry: THREE.BufferGeometry, material: THREE.Material, count: number): THREE.InstancedMesh {
  const mesh = new THREE.InstancedMesh(geometry, material, Math.max(1, count));
  mesh.count = count;
  mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
  mesh.instanceColor = new THREE.InstancedBufferAttribute(new Float32Array(3 * Math.max(1, count)), 3);
  mesh.frustumCulled = false;
  return mesh;
}

/** Bodies of one kind drawn by one mesh: their ids, previous positions, and the mesh. */
interface Group {
  ids: Uint32Array;
  box: boolean;
  prev: Float64Array;
  mesh: THREE.InstancedMesh;
}

/** A `LineSegments` drawing a DebugLines buffer (new attributes when the buffer grew). */
function linesMesh(): { mesh: THREE.LineSegments; update(lines: DebugLines): void } {
  const geometry = new THREE.BufferGeometry();
  const mesh = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ vertexColors: true }));
  mesh.frustumCulled = false;
  return {
    mesh,
    update(lines) {
      const pos = geometry.getAttribute('position') as THREE.BufferAttribute | undefined;
      if (pos === undefined || pos.array !== lines.positions) {
        geometry.setAttribute('position', new THREE.BufferAttribute(lines.positions, 3).setUsage(THREE.DynamicDrawUsage));
        geometry.setAttribute('color', new THREE.BufferAttribute(lines.colors, 3).setUsage(THREE.DynamicDrawUsage));
      }
      for (const name of ['position', 'color']) {
        const attr = geometry.getAttribute(name) as THREE.BufferAttribute;
        attr.clearUpdateRanges();
        attr.addUpdateRange(0, 6 * lines.count);
        attr.needsUpdate = true;
      }
      geometry.setDrawRange(0, 2 * lines.count);
    },
  };
}

/**
 * Whether WebGL is drawn in software (SwiftShader, llvmpipe): then the view does without antialiasing,
 * which doubled the ball pit's frame rate in headless Chromium (13.5 → 27.5 frames/s).
 */
function softwareWebGl(): boolean {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return true;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|software/i.test(renderer);
}

export function createView(container: HTMLElement): DemoView {
  const renderer = new THREE.WebGLRenderer({ antialias: !softwareWebGl() });
  renderer.setPixelRatio(1);
  renderer.setClearColor(BACKGROUND);
  const canvas = renderer.domElement;
  canvas.style.position = 'absolute';
  canvas.style.inset = '0';
  container.appendChild(canvas);
  const labelCanvas = document.createElement('canvas');
  labelCanvas.style.cssText = 'position:absolute;inset:0;pointer-events:none';
  container.appendChild(labelCanvas);
  const labels2d = labelCanvas.getContext('2d')!;
  const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 10_000);
  const controls = new OrbitControls(camera, canvas);
  const root = new THREE.Scene();
  root.add(new THREE.HemisphereLight(0xdde6ff, 0x202830, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(-0.4, 1, 0.6);
  root.add(sun);

  const debug: DebugLines = createDebugLines(1 << 12);
  const debugMesh = linesMesh();
  const sceneLines = linesMesh();
  const debugOptions: DebugRenderOptions = { bodies: true, contacts: false, contactLength: 1, sphereSegments: 16 };

  let scene: ShowScene | undefined;
  let content = new THREE.Group();
  let groups: Group[] = [];
  const matrix = new THREE.Matrix4(), quaternion = new THREE.Quaternion(), scale = new THREE.Vector3(), position = new THREE.Vector3();
  const color = new THREE.Color(), projected = new THREE.Vector3();

  function resize(): void {
    const w = container.clientWidth || window.innerWidth, h = container.clientHeight || window.innerHeight;
    renderer.setSize(w, h);
    labelCanvas.width = w;
    labelCanvas.height = h;
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }
  window.addEventListener('resize', resize);
  resize();

  function group(s: ShowScene, ids: Uint32Array, box: boolean, translucent: boolean): Group {
    const material = new THREE.MeshLambertMaterial({ color: 0xffffff, transparent: translucent, opacity: translucent ? 0.3 : 1, depthWrite: !translucent });
    const geometry = box ? new THREE.BoxGeometry(2, 2, 2) : new THREE.IcosahedronGeometry(1, s.spheres.length <= DETAILED_LIMIT ? 2 : 0);
    return { ids, box, prev: new Float64Array(3 * ids.length), mesh: instanced(geometry, material, ids.length) };
  }

  function load(s: ShowScene): void {
    root.remove(content);
    content.traverse((o) => {
      if (o instanceof THREE.Mesh) {
        o.geometry.dispose();
        (o.material as THREE.Material).dispose();
      }
    });
    scene = s;
    content = new THREE.Group();
    const clear = new Set(s.translucent ?? []);
    const split = (ids: Uint32Array, t: boolean) => Uint32Array.from([...ids].filter((e) => clear.has(e) === t));
    groups = [
      group(s, split(s.boxes, false), true, false),
      group(s, split(s.spheres, false), false, false),
      group(s, split(s.spheres, true), false, true),
      group(s, split(s.boxes, true), true, true),
    ].filter((g) => g.ids.length > 0);
    for (const g of groups) content.add(g.mesh);
    root.add(content, sceneLines.mesh, debugMesh.mesh);
    debugOptions.sphereSegments = s.spheres.length <= DETAILED_LIMIT ? 16 : 8;
    const [ex, ey, ez] = s.camera3d.eye, [tx, ty, tz] = s.camera3d.target;
    controls.target.set(tx, ty, tz);
    camera.position.set(ex, ey, ez);
    camera.far = 40 * Math.hypot(ex - tx, ey - ty, ez - tz);
    camera.updateProjectionMatrix();
    controls.update();
    beforeTick();
  }

  function beforeTick(): void {
    if (!scene) return;
    const p = scene.physics.components.Position;
    for (const g of groups) {
      for (let i = 0; i < g.ids.length; i++) {
        const e = g.ids[i];
        g.prev[3 * i] = p.x[e];
        g.prev[3 * i + 1] = p.y[e];
        g.prev[3 * i + 2] = p.z[e];
      }
    }
  }

  function place(s: ShowScene, alpha: number): void {
    const { Position: p, Sphere: sphere, Box: b } = s.physics.components;
    for (const g of groups) {
      const colors = g.mesh.instanceColor!.array as Float32Array;
      for (let i = 0; i < g.ids.length; i++) {
        const e = g.ids[i];
        const a = s.teleported?.(e) ? 1 : alpha;
        const x0 = g.prev[3 * i], y0 = g.prev[3 * i + 1], z0 = g.prev[3 * i + 2];
        position.set(x0 + a * (p.x[e] - x0), y0 + a * (p.y[e] - y0), z0 + a * (p.z[e] - z0));
        if (g.box) {
          // The physics normalises the stored quaternion where it uses it; so does the view.
          quaternion.set(b.qx[e], b.qy[e], b.qz[e], b.qw[e]).normalize();
          matrix.compose(position, quaternion, scale.set(b.hx[e], b.hy[e], b.hz[e]));
        } else {
          const r = sphere.radius[e];
          matrix.makeScale(r, r, r).setPosition(position);
        }
        g.mesh.setMatrixAt(i, matrix);
        color.setHex(s.color(e));
        colors[3 * i] = color.r;
        colors[3 * i + 1] = color.g;
        colors[3 * i + 2] = color.b;
      }
      g.mesh.instanceMatrix.needsUpdate = true;
      g.mesh.instanceColor!.needsUpdate = true;
    }
  }

  function drawLabels(s: ShowScene): void {
    labels2d.clearRect(0, 0, labelCanvas.width, labelCanvas.height);
    const list = s.labels?.() ?? [];
    if (list.length === 0) return;
    labels2d.font = '13px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace';
    labels2d.textAlign = 'center';
    labels2d.textBaseline = 'middle';
    for (const l of list) {
      projected.set(l.x, l.y, l.z).project(camera);
      if (projected.z > 1) continue;
      labels2d.fillStyle = css(l.color);
      labels2d.fillText(l.text, ((projected.x + 1) / 2) * labelCanvas.width, ((1 - projected.y) / 2) * labelCanvas.height);
    }
  }

  function draw(alpha: number, options: ViewOptions): void {
    if (scene) {
      place(scene, alpha);
      content.visible = !options.wireframe;
      sceneLines.mesh.visible = scene.lines !== undefined;
      if (scene.lines) sceneLines.update(scene.lines);
      debugMesh.mesh.visible = options.wireframe || options.normals;
      if (debugMesh.mesh.visible) {
        debugOptions.bodies = options.wireframe;
        debugOptions.contacts = options.normals;
        debugRender(scene.physics, debug, debugOptions);
        debugMesh.update(debug);
      }
    }
    controls.update();
    renderer.render(root, camera);
    if (scene) drawLabels(scene);
  }

  return { renderer, canvas, load, beforeTick, draw, resize };
}
