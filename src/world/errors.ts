/**
 * The error thrown for bad physics input: a non-finite position or velocity, a negative or
 * non-finite radius or half extent, a zero or non-unit rotation, a bad option. It names the entity
 * (when there is one) and the field, e.g. `entity 7: Box.qw: rotation quaternion has length 0`.
 */
export class PhysicsInputError extends Error {
  /** The offending entity id, or -1 for options. */
  readonly eid: number;
  /** The offending field, e.g. `Position.x` or `Box.rotation`. */
  readonly field: string;
  constructor(eid: number, field: string, problem: string) {
    super(eid >= 0 ? `bitecs-collide: entity ${eid}: ${field}: ${problem}` : `bitecs-collide: ${field}: ${problem}`);
    this.name = 'PhysicsInputError';
    this.eid = eid;
    this.field = field;
  }
}
