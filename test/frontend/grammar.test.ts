/**
 * The Triton-C lexer and parser are built without chevrotain's definition checks in the compiler
 * (they cost ~100 ms of every compile); here they are built with them, so a token or grammar
 * change that breaks them (ambiguous alternatives, left recursion, a token pattern that defeats
 * the lexer's first-character optimization) fails this test.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeTritonCLexer } from '../../frontend/triton-c/lexer.js';
import { TcParser } from '../../frontend/triton-c/parse-stmt.js';

test('the lexer passes chevrotain validations and keeps its first-character optimization', () => {
  const lexer = makeTritonCLexer({ validate: true });
  assert.equal(lexer.lexerDefinitionErrors, []);
  const r = lexer.tokenize('__global__ void k(float* x) { x[0] = 1.0f; }');
  assert.equal(r.errors, []);
  assert.ok(r.tokens.length > 10);
});

test('the parser passes chevrotain grammar validations (building it throws on a definition error)', () => {
  assert.not.throws(() => new TcParser({ validate: true }));
});

test.run();
