/**
 * sphere–sphere queries (overlap, contact, cast) against the exact oracle at unit, 2^±200, 2^±1000
 * and subnormal scales.
 */
import { describe } from 'vitest';
import { exactPropertyTests } from './exactProperty.js';

describe('sphere–sphere against the exact oracle', () => {
  exactPropertyTests(['sphereSphere', 'sphereSphereCast'], { grid: 2500, general: 2500 }, 0x9e02);
});
