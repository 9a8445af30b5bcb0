/**
 * Expectations on `PhysicsInputError`: the structured parts (entity, field, source, problem) and the
 * message formatted from them.
 */
import { expect } from 'vitest';
import { PhysicsInputError } from '../../src/index.js';

/** Runs `fn`, expects a PhysicsInputError and returns it. */
export function inputError(fn: () => unknown): PhysicsInputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PhysicsInputError);
    expect((e as Error).name).toBe('PhysicsInputError');
    return e as PhysicsInputError;
  }
  throw new Error('expected a PhysicsInputError, nothing was thrown');
}

/**
 * Expects a PhysicsInputError for entity `eid` and `where` = `field` or `source: field`; its message
 * is formatted from the structured parts, and `text` matches its problem.
 */
export function expectError(fn: () => unknown, eid: number, where: string, text?: RegExp): PhysicsInputError {
  const e = inputError(fn);
  const sep = where.indexOf(': ');
  const source = sep < 0 ? undefined : where.slice(0, sep);
  const field = sep < 0 ? where : where.slice(sep + 2);
  expect({ eid: e.eid, field: e.field }).toEqual({ eid, field });
  if (source !== undefined) expect(e.source).toBe(source);
  const entity = eid >= 0 ? `entity ${eid}: ` : '';
  expect(e.message).toBe(`bitecs-collide: ${e.source === undefined ? '' : `${e.source}: `}${entity}${field}: ${e.problem}`);
  if (text) expect(e.problem).toMatch(text);
  return e;
}
