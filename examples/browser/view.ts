/**
 * The demo's three.js view of a {@link DemoScene}: instanced meshes for the spheres, static boxes,
 * moving boxes and bullets, the thin wall, the arena's outline, and one `LineSegments` fed by
 * `debugRender` (the wireframe of every body, or the contact normals alone).
 *
 * Moving bodies are drawn between the last two physics states, previous + alpha · (current −
 * previous), with alpha from the fixed stepper; the previous state is copied before each tick
 * (`beforeTick`). The wireframe is debugRender's, i.e. the current physics state, not interpolated.
 * Spheres touching something in the last tick are tinted. World frame and length units as the physics.
 * @module
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { createDebugLines, debugRender, type DebugLines, type DebugRenderOptions } from '../../src/index.js';
import type { DemoScene } from './scene.js';

export interface ViewOptions {
  /** Draw the bodies as debugRender's wireframe instead of meshes. */
  wireframe: boolean;
  /** Draw the contact normals (debugRender's contacts). */
  normals: boolean;
}

export interface DemoView {
  readonly renderer: THREE.WebGLRenderer;
  /** Builds the meshes of a new scene and aims the camera at it. */
  load(scene: DemoScene): void;
  /** Copies the current poses of the moving bodies as the previous ones; call before each tick. */
  beforeTick(): void;
  /** Draws one frame, interpolating moving bodies by alpha in [0, 1]. */
  draw(alpha: number, options: ViewOptions): void;
}

export const BACKGROUND = 0x0d1117;
const SPHERE_NEAR = new THREE.Color(0x3b82f6);
const SPHERE_FAR = new THREE.Color(0x22d3ee);
const TOUCHING = new THREE.Color(0xfb923c);
const BULLET = new THREE.Color(0xfde047);
/** Above this many spheres, meshes and wireframe use fewer segments. */
const DETAILED_LIMIT = 20_000;

/** An instanced mesh with a colour per instance, drawn whatever its bounds (instances move). */
function instanced(geometry: THREE.BufferGeometry, material: THREE.Material, count: number): THREE.InstancedMesh {
  const mesh = new THREE.InstancedMesh(geometry, material, count);
  mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
  mesh.instanceColor = new THREE.InstancedBufferAttribute(new Float32Array(3 * count), 3);
  mesh.frustumCulled = false;
  return mesh;
}

/** A group of moving bodies: their ids, the previous poses and the mesh that draws them. */
interface Movers {
  ids: Uint32Array;
  prev: Float64Array;
  mesh: THREE.InstancedMesh;
}

function movers(ids: Uint32Array, mesh: THREE.InstancedMesh): Movers {
  return { ids, prev: new Float64Array(3 * ids.length), mesh };
}

/** Faint lines along the bullets' paths, from their start to as far past the wall. */
function laneGuide(s: DemoScene): THREE.LineSegments {
  const p = s.physics.components.Position, points: number[] = [];
  const end = 2 * s.wallX - s.bulletStartX;
  for (const b of s.bullets) points.push(s.bulletStartX, p.y[b], s.laneZ, end, p.y[b], s.laneZ);
  const geometry = new THREE.BufferGeometry().setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
  return new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({ color: 0x854d0e }));
}

export function createView(container: HTMLElement): DemoView {
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(1);
  renderer.setClearColor(BACKGROUND);
  container.appendChild(renderer.domElement);
  const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 10_000);
  const controls = new OrbitControls(camera, renderer.domElement);
  const root = new THREE.Scene();
  root.add(new THREE.HemisphereLight(0xdde6ff, 0x202830, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(-0.4, 1, -0.6);
  root.add(sun);

  const lines: DebugLines = createDebugLines(1 << 12);
  const lineGeometry = new THREE.BufferGeometry();
  const lineMesh = new THREE.LineSegments(lineGeometry, new THREE.LineBasicMaterial({ vertexColors: true }));
  lineMesh.frustumCulled = false;
  const lineOptions: DebugRenderOptions = { bodies: true, contacts: false, contactLength: 1, sphereSegments: 16 };

  let scene: DemoScene | undefined;
  let content = new THREE.Group();
  let groups: Movers[] = [];
  let spheres: Movers | undefined;
  let touching = new Uint8Array(0);
  const matrix = new THREE.Matrix4(), quaternion = new THREE.Quaternion(), scale = new THREE.Vector3(), position = new THREE.Vector3();
  const color = new THREE.Color();

  function resize(): void {
    const w = container.clientWidth || window.innerWidth, h = container.clientHeight || window.innerHeight;
    renderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }
  window.addEventListener('resize', resize);
  resize();

  /** Writes instance i's translation (its rotation and scale were set at load). */
  function place(mesh: THREE.InstancedMesh, i: number, x: number, y: number, z: number): void {
    const m = mesh.instanceMatrix.array as Float32Array;
    m[16 * i + 12] = x;
    m[16 * i + 13] = y;
    m[16 * i + 14] = z;
  }

  function boxMesh(s: DemoScene, ids: Uint32Array, hex: number, opacity = 1): THREE.InstancedMesh {
    const material = new THREE.MeshLambertMaterial({ color: 0xffffff, transparent: opacity < 1, opacity });
    const mesh = instanced(new THREE.BoxGeometry(2, 2, 2), material, ids.length);
    const { Position: p, Box: b } = s.physics.components;
    ids.forEach((e, i) => {
      // The physics normalises the stored quaternion where it uses it; so does the view.
      quaternion.set(b.qx[e], b.qy[e], b.qz[e], b.qw[e]).normalize();
      matrix.compose(position.set(p.x[e], p.y[e], p.z[e]), quaternion, scale.set(b.hx[e], b.hy[e], b.hz[e]));
      mesh.setMatrixAt(i, matrix);
      // Rotated boxes a shade lighter than axis-aligned ones.
      mesh.setColorAt(i, color.setHex(hex).offsetHSL(0, 0, b.qw[e] === 1 ? 0 : 0.08));
    });
    return mesh;
  }

  function sphereMesh(s: DemoScene, ids: Uint32Array, detail: number): THREE.InstancedMesh {
    const mesh = instanced(new THREE.IcosahedronGeometry(1, detail), new THREE.MeshLambertMaterial({ color: 0xffffff }), ids.length);
    const r = s.physics.components.Sphere.radius;
    ids.forEach((e, i) => {
      matrix.makeScale(r[e], r[e], r[e]);
      mesh.setMatrixAt(i, matrix);
    });
    return mesh;
  }

  function load(s: DemoScene): void {
    root.remove(content);
    content.traverse((o) => {
      if (o instanceof THREE.Mesh || o instanceof THREE.LineSegments) {
        o.geometry.dispose();
        (o.material as THREE.Material).dispose();
      }
    });
    scene = s;
    content = new THREE.Group();
    const detailed = s.spheres.length <= DETAILED_LIMIT;
    lineOptions.sphereSegments = detailed ? 16 : 8;
    spheres = movers(s.spheres, sphereMesh(s, s.spheres, detailed ? 1 : 0));
    groups = [spheres, movers(s.movingBoxes, boxMesh(s, s.movingBoxes, 0xf97316)), movers(s.bullets, sphereMesh(s, s.bullets, 1))];
    content.add(boxMesh(s, s.staticBoxes, 0x6b7280), boxMesh(s, Uint32Array.of(s.wall), 0xe5e7eb, 0.55));
    for (const g of groups) content.add(g.mesh);
    content.add(laneGuide(s));
    const outline = new THREE.LineSegments(new THREE.EdgesGeometry(new THREE.BoxGeometry(s.size, s.size, s.size)), new THREE.LineBasicMaterial({ color: 0x374151 }));
    outline.position.setScalar(s.size / 2);
    content.add(outline);
    root.add(content, lineMesh);
    touching = new Uint8Array(s.physics.components.Position.x.length);
    const c = s.size / 2;
    controls.target.set(c, c * 0.8, c);
    camera.position.set(c + 1.0 * s.size, c + 0.75 * s.size, c - 1.45 * s.size);
    camera.far = 20 * s.size;
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

  /** Marks both bodies of every contact of the last tick. */
  function markTouching(s: DemoScene): void {
    touching.fill(0);
    const c = s.physics.contacts;
    for (let i = 0; i < c.count; i++) {
      touching[c.a[i]] = 1;
      touching[c.b[i]] = 1;
    }
  }

  function placeMovers(s: DemoScene, alpha: number): void {
    const p = s.physics.components.Position, r = s.physics.components.Sphere.radius;
    // The bullets were moved back to their start at the end of the last tick: no interpolation.
    const bulletAlpha = s.firedAtTick === s.physics.tick ? 1 : alpha;
    for (const g of groups) {
      const a = g.ids === s.bullets ? bulletAlpha : alpha;
      const colors = g.mesh.instanceColor!.array as Float32Array;
      for (let i = 0; i < g.ids.length; i++) {
        const e = g.ids[i];
        const x0 = g.prev[3 * i], y0 = g.prev[3 * i + 1], z0 = g.prev[3 * i + 2];
        place(g.mesh, i, x0 + a * (p.x[e] - x0), y0 + a * (p.y[e] - y0), z0 + a * (p.z[e] - z0));
        if (g === spheres || g.ids === s.bullets) {
          if (touching[e] === 1) color.copy(TOUCHING);
          else if (g === spheres) color.lerpColors(SPHERE_NEAR, SPHERE_FAR, (r[e] - 0.25) / 0.75);
          else color.copy(BULLET);
          colors[3 * i] = color.r;
          colors[3 * i + 1] = color.g;
          colors[3 * i + 2] = color.b;
        }
      }
      g.mesh.instanceMatrix.needsUpdate = true;
      g.mesh.instanceColor!.needsUpdate = true;
    }
  }

  /** Points the line geometry at debugRender's buffer (new attributes when the buffer grew). */
  function updateLines(s: DemoScene, options: ViewOptions): void {
    lineMesh.visible = options.wireframe || options.normals;
    if (!lineMesh.visible) return;
    lineOptions.bodies = options.wireframe;
    lineOptions.contacts = options.normals;
    debugRender(s.physics, lines, lineOptions);
    const pos = lineGeometry.getAttribute('position') as THREE.BufferAttribute | undefined;
    if (pos === undefined || pos.array !== lines.positions) {
      lineGeometry.setAttribute('position', new THREE.BufferAttribute(lines.positions, 3).setUsage(THREE.DynamicDrawUsage));
      lineGeometry.setAttribute('color', new THREE.BufferAttribute(lines.colors, 3).setUsage(THREE.DynamicDrawUsage));
    }
    for (const name of ['position', 'color']) {
      const attr = lineGeometry.getAttribute(name) as THREE.BufferAttribute;
      attr.clearUpdateRanges();
      attr.addUpdateRange(0, 6 * lines.count);
      attr.needsUpdate = true;
    }
    lineGeometry.setDrawRange(0, 2 * lines.count);
  }

  function draw(alpha: number, options: ViewOptions): void {
    if (scene) {
      markTouching(scene);
      placeMovers(scene, alpha);
      content.visible = !options.wireframe;
      updateLines(scene, options);
    }
    controls.update();
    renderer.render(root, camera);
  }

  return { renderer, load, beforeTick, draw };
}
