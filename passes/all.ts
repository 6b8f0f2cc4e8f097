/**
 * Registers every pass: one line per pass. Tools import this module once.
 */
import { registerPass } from './registry.js';
import { testCrash } from './test-crash.js';
import { testInvalidIr } from './test-invalid-ir.js';

for (const pass of [
  testCrash,
  testInvalidIr,
]) registerPass(pass);

export { registerPass };
