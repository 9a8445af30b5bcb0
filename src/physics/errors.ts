/**
 * The error thrown for bad physics input: a non-finite position or velocity, a negative or
 * non-finite radius or half extent, a zero or non-finite rotation, a bad option. It carries the
 * problem as data — the entity (when there is one), the field, what is wrong and the function that
 * was called — and formats its message from them, e.g.
 * `bitecs-collide: setRotation: entity 7: Box.rotation: quaternion has length 0 (identity is [0, 0, 0, 1])`.
 * @module
 */

/** What a {@link PhysicsInputError} reports. */
export interface PhysicsInputProblem {
  /** The offending entity id; omitted (−1) when the input belongs to no entity (options, a new body). */
  eid?: number;
  /** The offending field, e.g. `Position.x`, `Box.rotation`, `options.dt`, `halfExtents.y`. */
  field: string;
  /** What is wrong, e.g. `must be finite, got NaN`. */
  problem: string;
  /** The function that was called, e.g. `addBox`; omitted for `step` and the systems. */
  source?: string;
}

/** Formats a problem as one line: `source: entity eid: field: problem` (absent parts left out). */
export function formatProblem(p: PhysicsInputProblem): string {
  const source = p.source === undefined ? '' : `${p.source}: `;
  const entity = p.eid === undefined || p.eid < 0 ? '' : `entity ${p.eid}: `;
  return `${source}${entity}${p.field}: ${p.problem}`;
}

/** Thrown for bad physics input; `eid`, `field`, `problem` and `source` say what and where. */
export class PhysicsInputError extends Error {
  /** The offending entity id, or −1 when there is none (options, a body not yet created). */
  readonly eid: number;
  /** The offending field, e.g. `Position.x` or `Box.rotation`. */
  readonly field: string;
  /** What is wrong with it. */
  readonly problem: string;
  /** The function that was called (e.g. `addBox`), or undefined for `step` and the systems. */
  readonly source: string | undefined;
  constructor(p: PhysicsInputProblem) {
    super(`bitecs-collide: ${formatProblem(p)}`);
    this.name = 'PhysicsInputError';
    this.eid = p.eid ?? -1;
    this.field = p.field;
    this.problem = p.problem;
    this.source = p.source;
  }
}
