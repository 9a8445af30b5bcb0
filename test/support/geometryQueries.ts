/**
 * Every public geometry query as one uniform entry, for tests that hold a contract over all of them
 * (non-finite input, `out` aliasing an input): its name, the scene fields it reads and a runner that
 * takes a scene (plain data) and an output object.
 */
import {
  castBoxSphere,
  castSphereBox,
  castSphereSphere,
  contactBoxSphere,
  contactSphereBox,
  contactSphereSphere,
  overlapBoxSphere,
  overlapSphereBox,
  overlapSphereSphere,
  type BoxShape,
  type CastResult,
  type ContactResult,
  type SphereShape,
  type Vec3,
} from '../../src/index.js';

/** The inputs of any query: a sphere and a box, or spheres a and b, and a motion for the casts. */
export interface GeometryScene {
  sphere?: SphereShape;
  box?: BoxShape;
  a?: SphereShape;
  b?: SphereShape;
  motion?: Vec3;
}

export type OutKind = 'none' | 'contact' | 'cast';
export type AnyOut = ContactResult | CastResult;

export interface GeometryQuery {
  name: string;
  out: OutKind;
  /** the scene fields it reads */
  uses: Array<keyof GeometryScene>;
  run(sc: GeometryScene, out: AnyOut | undefined): boolean;
}

const q = (name: string, out: OutKind, uses: Array<keyof GeometryScene>, run: GeometryQuery['run']): GeometryQuery => ({ name, out, uses, run });

export const GEOMETRY_QUERIES: GeometryQuery[] = [
  q('overlapSphereBox', 'none', ['sphere', 'box'], (s) => overlapSphereBox(s.sphere!, s.box!)),
  q('contactSphereBox', 'contact', ['sphere', 'box'], (s, o) => contactSphereBox(s.sphere!, s.box!, o as ContactResult)),
  q('castSphereBox', 'cast', ['sphere', 'box', 'motion'], (s, o) => castSphereBox(s.sphere!, s.motion!, s.box!, o as CastResult)),
  q('overlapBoxSphere', 'none', ['sphere', 'box'], (s) => overlapBoxSphere(s.box!, s.sphere!)),
  q('contactBoxSphere', 'contact', ['sphere', 'box'], (s, o) => contactBoxSphere(s.box!, s.sphere!, o as ContactResult)),
  q('castBoxSphere', 'cast', ['sphere', 'box', 'motion'], (s, o) => castBoxSphere(s.box!, s.motion!, s.sphere!, o as CastResult)),
  q('overlapSphereSphere', 'none', ['a', 'b'], (s) => overlapSphereSphere(s.a!, s.b!)),
  q('contactSphereSphere', 'contact', ['a', 'b'], (s, o) => contactSphereSphere(s.a!, s.b!, o as ContactResult)),
  q('castSphereSphere', 'cast', ['a', 'b', 'motion'], (s, o) => castSphereSphere(s.a!, s.motion!, s.b!, o as CastResult)),
];

/** A deep copy of plain data. */
export const cloneScene = <T>(sc: T): T => structuredClone(sc);

/** The paths of every number in `o` (e.g. ['box', 'rotation', 'w']), restricted to the given top-level fields. */
export function numberPaths(o: object, fields?: string[]): string[][] {
  const out: string[][] = [];
  const walk = (v: unknown, path: string[]) => {
    if (typeof v === 'number') out.push(path);
    else if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
  };
  for (const [k, v] of Object.entries(o)) if (!fields || fields.includes(k)) walk(v, [k]);
  return out;
}

/** The paths of the vector-like objects (with x, y, z) in `o`, restricted to the given top-level fields. */
export function vectorPaths(o: object, fields?: string[]): string[][] {
  const out: string[][] = [];
  const walk = (v: unknown, path: string[]) => {
    if (!v || typeof v !== 'object') return;
    if ('x' in v && 'y' in v && 'z' in v) out.push(path);
    for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
  };
  for (const [k, v] of Object.entries(o)) if (!fields || fields.includes(k)) walk(v, [k]);
  return out;
}

export function getPath(o: object, path: string[]): any {
  return path.reduce((v: any, k) => v[k], o);
}

export function setPath(o: object, path: string[], value: unknown): void {
  const parent = getPath(o, path.slice(0, -1));
  parent[path[path.length - 1]] = value;
}

/** A fresh output of the kind, every number set to `fill` (so that an unwritten or written field shows). */
export function filledOut(kind: OutKind, fill: number): AnyOut | undefined {
  if (kind === 'none') return undefined;
  const v = () => ({ x: fill, y: fill, z: fill });
  return kind === 'contact' ? { normal: v(), depth: fill, point: v() } : { toi: fill, normal: v(), point: v() };
}
