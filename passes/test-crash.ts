/**
 * `test-crash`: a testing pass that throws a JavaScript error on the first function whose name
 * matches `function` (all when empty), so tests can check how the pass manager reports bugs.
 */
import { StringAttr } from '../ir/attributes.js';
import type { PassDecl } from './pass.js';

/** Throws an internal error on a chosen function. */
export const testCrash: PassDecl = {
  name: 'test-crash',
  summary: 'testing: throws an internal error on a function (checks crash reporting and reproducers)',
  anchor: 'function',
  options: { function: { type: 'string', default: '', description: 'name of the function to crash on (empty: any)' } },
  run(fn, ctx) {
    const want = ctx.options.function as string;
    const name = fn.getAttr('sym_name');
    if (want && !(name instanceof StringAttr && name.value === want)) return;
    throw new Error('deliberate crash requested by test-crash');
  },
};
