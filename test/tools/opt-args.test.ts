/**
 * Tests for tools/opt-args-simple.ts: the command lines it accepts give exactly the options that
 * yargs (tools/opt-flags.ts) gives, and every other command line is left to yargs.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerAllPasses } from '../../passes/all.js';
import { simpleOptArgs } from '../../tools/opt-args-simple.js';
import { parseOptArgs } from '../../tools/opt-flags.js';

registerAllPasses();

test('simple command lines: same options as yargs', () => {
  for (const args of [
    [],
    ['in.mlir'],
    ['/tmp/x/in.tir', '-o', '/tmp/out.mlir'],
    ['-o', 'out.mlir', 'in.mlir'],
    ['-o', 'out.mlir'],
    ['in.1e5'],
  ]) {
    const simple = simpleOptArgs(args);
    assert.ok(simple, args.join(' '));
    assert.equal(simple, parseOptArgs(args), args.join(' '));
  }
});

test('anything else goes to yargs', () => {
  for (const args of [
    ['-'],
    ['a.mlir', 'b.mlir'],
    ['010'],
    ['1e5'],
    ['in.mlir', '-o'],
    ['in.mlir', '-o', '-'],
    ['in.mlir', '-o', 'a', '-o', 'b'],
    ['in.mlir', '-o=out.mlir'],
    ['in.mlir', '--cse'],
    ['in.mlir', '--split-input-file'],
    ['--version'],
    ['--help'],
  ]) assert.is(simpleOptArgs(args), null, args.join(' '));
});

test.run();
