/**
 * The demo's 2D view: Canvas 2D, top-down onto the xy plane (x to the right, y up), for the 2D use of
 * the module (circles and rectangles at z = 0). Fast without a GPU: no WebGL at all. A 3D scene is
 * drawn as its projection onto xy (a side view when gravity is along −y), each box as the outline
 * of its projected corners.
 *
 * Moving bodies are drawn at previous + alpha · (current − previous), as the 3D view does; the scene's
 * lines and labels, and optionally debugRender's wireframe and contact normals, on top.
 * @module
 */
import { createDebugLines, debugRender, type DebugLines, type DebugRenderOptions } from '../../src/index.js';
import { COLORS, css, type ShowScene } from './showScene.js';

export interface ViewOptions {
  /** Draw the bodies as debugRender's wireframe instead of filled shapes. */
  wireframe: boolean;
  /** Draw the contact normals (debugRender's contacts). */
  normals: boolean;
}

export interface View2d {
  readonly canvas: HTMLCanvasElement;
  load(scene: ShowScene): void;
  beforeTick(): void;
  draw(alpha: number, options: ViewOptions): void;
  resize(): void;
  /** Pixels at the top, right, bottom and left that panels cover: the scene is fitted between them. */
  setInsets(top: number, right: number, bottom: number, left: number): void;
}

export function createView2d(container: HTMLElement): View2d {
  const canvas = document.createElement('canvas');
  canvas.style.position = 'absolute';
  canvas.style.inset = '0';
  container.appendChild(canvas);
  const g = canvas.getContext('2d', { alpha: false })!;
  const debug: DebugLines = createDebugLines(1 << 12);
  const debugOptions: DebugRenderOptions = { bodies: true, contacts: false, contactLength: 1, sphereSegments: 16 };
  let scene: ShowScene | undefined;
  let ids = new Uint32Array(0);
  let prev = new Float64Array(0);
  let translucent = new Set<number>();
  // World to screen: sx = ox + k x, sy = oy − k y.
  let k = 1, ox = 0, oy = 0;
  const insets = { top: 0, right: 0, bottom: 0, left: 0 };
  const corners = new Float64Array(16);
  const hull: number[] = [];

  function resize(): void {
    canvas.width = container.clientWidth || window.innerWidth;
    canvas.height = container.clientHeight || window.innerHeight;
    fit();
  }

  function fit(): void {
    if (!scene) return;
    const [x0, y0, x1, y1] = scene.bounds2d;
    // The free part of the canvas; the whole canvas when the panels leave less than a third of it.
    let w = canvas.width - insets.left - insets.right, h = canvas.height - insets.top - insets.bottom;
    let left = insets.left, top = insets.top;
    if (w < canvas.width / 3 || h < canvas.height / 3) {
      w = canvas.width;
      h = canvas.height;
      left = top = 0;
    }
    k = Math.min(w / (x1 - x0), h / (y1 - y0));
    ox = left + w / 2 - (k * (x0 + x1)) / 2;
    oy = top + h / 2 + (k * (y0 + y1)) / 2;
  }

  function load(s: ShowScene): void {
    scene = s;
    ids = Uint32Array.from([...s.boxes, ...s.spheres]);
    prev = new Float64Array(2 * ids.length);
    translucent = new Set(s.translucent ?? []);
    debugOptions.sphereSegments = s.spheres.length > 20_000 ? 8 : 16;
    resize();
    beforeTick();
  }

  function beforeTick(): void {
    if (!scene) return;
    const p = scene.physics.components.Position;
    for (let i = 0; i < ids.length; i++) {
      prev[2 * i] = p.x[ids[i]];
      prev[2 * i + 1] = p.y[ids[i]];
    }
  }

  /** The xy outline of box e centred at (cx, cy): its projected corners' convex hull (monotone chain), into `hull`. */
  function boxOutline(s: ShowScene, e: number, cx: number, cy: number): void {
    const b = s.physics.components.Box;
    const l = Math.hypot(b.qx[e], b.qy[e], b.qz[e], b.qw[e]) || 1;
    const x = b.qx[e] / l, y = b.qy[e] / l, z = b.qz[e] / l, w = b.qw[e] / l;
    // The first two rows of the rotation matrix: the x and y of each rotated axis.
    const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - w * z), r02 = 2 * (x * z + w * y);
    const r10 = 2 * (x * y + w * z), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - w * x);
    hull.length = 0;
    const flat = Math.abs(r02) < 1e-12 && Math.abs(r12) < 1e-12;
    let n = 0;
    for (let c = 0; c < (flat ? 4 : 8); c++) {
      const sx = c & 1 ? 1 : -1, sy = c & 2 ? 1 : -1, sz = c & 4 ? 1 : -1;
      const hx = sx * b.hx[e], hy = sy * b.hy[e], hz = sz * b.hz[e];
      corners[2 * n] = cx + r00 * hx + r01 * hy + r02 * hz;
      corners[2 * n + 1] = cy + r10 * hx + r11 * hy + r12 * hz;
      n++;
    }
    const order = Array.from({ length: n }, (_, i) => i).sort((a, c) => corners[2 * a] - corners[2 * c] || corners[2 * a + 1] - corners[2 * c + 1]);
    const cross = (o: number, a: number, c: number) =>
      (corners[2 * a] - corners[2 * o]) * (corners[2 * c + 1] - corners[2 * o + 1]) - (corners[2 * a + 1] - corners[2 * o + 1]) * (corners[2 * c] - corners[2 * o]);
    const chain: number[] = [];
    for (const pass of [order, [...order].reverse()]) {
      const start = chain.length;
      for (const i of pass) {
        while (chain.length >= start + 2 && cross(chain[chain.length - 2], chain[chain.length - 1], i) <= 0) chain.pop();
        chain.push(i);
      }
      chain.pop();
    }
    for (const i of chain) hull.push(corners[2 * i], corners[2 * i + 1]);
  }

  function drawLines(lines: DebugLines, width: number): void {
    g.lineWidth = width;
    const p = lines.positions, c = lines.colors;
    for (let i = 0; i < lines.count; i++) {
      g.strokeStyle = `rgb(${(c[6 * i] * 255) | 0},${(c[6 * i + 1] * 255) | 0},${(c[6 * i + 2] * 255) | 0})`;
      g.beginPath();
      g.moveTo(ox + k * p[6 * i], oy - k * p[6 * i + 1]);
      g.lineTo(ox + k * p[6 * i + 3], oy - k * p[6 * i + 4]);
      g.stroke();
    }
  }

  function draw(alpha: number, options: ViewOptions): void {
    g.fillStyle = css(COLORS.background);
    g.fillRect(0, 0, canvas.width, canvas.height);
    const s = scene;
    if (!s) return;
    const { Position: p, Sphere: sphere } = s.physics.components;

    if (s.lines) drawLines(s.lines, 2);
    if (!options.wireframe) {
      // Boxes first, then spheres, each filled on its own: one path per shape measured 2.8× faster
      // than one path of all the shapes of a colour (9,000 circles in headless Chromium: 37 against
      // 103 ms), and a paused frame of the stress scene at 10,000 bodies took 19.5 ms instead of
      // 168. Translucent bodies (sensors) last, filled at 30 % and outlined.
      let fill = -1;
      for (let pass = 0; pass < 2; pass++) {
        for (let i = 0; i < ids.length; i++) {
          const e = ids[i];
          const t = translucent.has(e);
          if (t !== (pass === 1)) continue;
          const a = s.teleported?.(e) ? 1 : alpha;
          const x = prev[2 * i] + a * (p.x[e] - prev[2 * i]), y = prev[2 * i + 1] + a * (p.y[e] - prev[2 * i + 1]);
          const c = s.color(e);
          if (c !== fill) {
            fill = c;
            g.fillStyle = g.strokeStyle = css(c);
          }
          g.beginPath();
          if (i < s.boxes.length) {
            boxOutline(s, e, x, y);
            g.moveTo(ox + k * hull[0], oy - k * hull[1]);
            for (let j = 2; j < hull.length; j += 2) g.lineTo(ox + k * hull[j], oy - k * hull[j + 1]);
            g.closePath();
          } else {
            g.arc(ox + k * x, oy - k * y, Math.max(1, k * sphere.radius[e]), 0, 2 * Math.PI);
          }
          if (t) {
            g.globalAlpha = 0.3;
            g.fill();
            g.globalAlpha = 1;
            g.lineWidth = 2;
            g.stroke();
          } else g.fill();
        }
      }
    }
    if (options.wireframe || options.normals) {
      debugOptions.bodies = options.wireframe;
      debugOptions.contacts = options.normals;
      debugRender(s.physics, debug, debugOptions);
      drawLines(debug, 1);
    }
    g.font = '13px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    for (const l of s.labels?.() ?? []) {
      g.fillStyle = css(l.color);
      g.fillText(l.text, ox + k * l.x, oy - k * l.y);
    }
  }

  window.addEventListener('resize', resize);
  function setInsets(top: number, right: number, bottom: number, left: number): void {
    Object.assign(insets, { top, right, bottom, left });
    fit();
  }

  return { canvas, load, beforeTick, draw, resize, setInsets };
}
