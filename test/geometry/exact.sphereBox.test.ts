/**
 * sphere–box queries (overlap, contact, cast and their mirrors) against the exact oracle at unit,
 * 2^±200, 2^±1000 and subnormal scales.
 */
import { describe } from 'vitest';
import { exactPropertyTests } from './exactProperty.js';

describe('sphere–box against the exact oracle', () => {
  exactPropertyTests(['sphereBox', 'sphereBoxCast'], { grid: 1500, general: 1500 }, 0x9e01);
});
