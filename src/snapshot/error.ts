/**
 * `SnapshotMismatchError`, thrown by `restoreSnapshot` before it changes anything: the buffer holds
 * no snapshot, a corrupted one (checksum, or a field out of its range), or one of another body set.
 * Like `PhysicsInputError` it carries the problem as data: the offending `field`, the record
 * `index` within it (−1 for a header field) and what is wrong.
 * @module
 */

/** What a {@link SnapshotMismatchError} reports. */
export interface SnapshotProblem {
  /**
   * The offending field: `buffer`, `header.magic`, `header.version`, `header.options`,
   * `header.total`, `header.counts`, `checksum`, `bodies` (the world's body set differs),
   * `tick`, `cellSize`, `contacts.pair`, `contacts.flags`, `contacts.data`, `ended.pair`,
   * `ended.flags`, `touching.entity`, `touching.primary`, `touching.data`, `removed.entity`,
   * `bodies.jam` (a jam mark other than 0 or 1; index: the body record, in ascending entity id).
   */
  field: string;
  /** Index of the offending record within its section; −1 (or omitted) for a header field. */
  index?: number;
  /** What is wrong. */
  problem: string;
}

/** Thrown by `restoreSnapshot` when the buffer is not an intact snapshot of the world's body set. */
export class SnapshotMismatchError extends Error {
  /** The offending field (see {@link SnapshotProblem.field}). */
  readonly field: string;
  /** Index of the offending record in its section, or −1. */
  readonly index: number;
  /** What is wrong with it. */
  readonly problem: string;
  constructor(p: SnapshotProblem) {
    const at = p.index === undefined || p.index < 0 ? '' : `[${p.index}]`;
    super(`bitecs-collide: restoreSnapshot: ${p.field}${at}: ${p.problem}`);
    this.name = 'SnapshotMismatchError';
    this.field = p.field;
    this.index = p.index ?? -1;
    this.problem = p.problem;
  }
}
