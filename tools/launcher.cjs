#!/usr/bin/env -S node --max-semi-space-size=16
// Launcher of a bundled CLI (template: tools/bundle.mjs copies it to dist/bin/NAME.cjs, naming the bundle).
//
// The CLI itself is the CommonJS bundle dist/bin/NAME.bundle.cjs. It is compiled here with V8's code cache
// dist/bin/NAME.cache, which `npm run build` writes after a training run: the bundle's top level and
// the functions that run used need no parsing or compiling at start-up. A cache written by another
// Node/V8 version (or under other V8 flags) is rejected by V8 and the bundle compiles as usual; a
// missing cache is the same. With TRITON_IR_CODE_CACHE_OUT=FILE in the environment the launcher writes
// the cache to FILE after the run (that is how the build makes it).
//
// The launcher is CommonJS, not ESM: an ESM entry point starts Node's ESM loader, which loads ~25 of
// its internal modules (10-20 ms of every run), and importing `node:fs` from ESM builds its ESM
// facade, which loads all of Node's streams.
'use strict';
const { createRequire } = require('node:module');
const { readFileSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');
const { join } = require('node:path');
const { isAscii } = require('node:buffer');

const BUNDLE = '__BUNDLE__';
const file = join(__dirname, `${BUNDLE}.bundle.cjs`);
const dir = __dirname;
// Under --debug the bundle is loaded plainly, with its source map (stacks name the TypeScript
// sources); the code cache is for the fast path only.
if (process.argv.includes('--debug')) {
  process.setSourceMapsEnabled(true);
  require(file);
} else {
  let cachedData;
  try {
    cachedData = readFileSync(join(__dirname, `${BUNDLE}.cache`));
  } catch {
    cachedData = undefined; // no cache: compile as usual
  }
  // Same wrapper as Node's CommonJS loader, on the bundle's first line (line numbers stay those of the file).
  // An ASCII bundle (esbuild escapes non-ASCII text) is read as Latin-1: no UTF-8 decoding of ~1.5 MB
  // at every start (~6 ms); any other is decoded as UTF-8.
  const bytes = readFileSync(file);
  const source = (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8')).replace(/^#!/, '//');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const run = () => {
    const module = { exports: {} };
    script.runInThisContext()(module.exports, createRequire(file), module, file, dir);
  };
  run();
  if (process.env.TRITON_IR_CODE_CACHE_OUT) {
    // The build's training: TRITON_IR_CODE_CACHE_MORE lists more command lines (a JSON array of
    // argument arrays) to run first, each in a fresh instance of the bundle, so that the cache
    // holds the functions every one of them compiled (the TTIR parser and the Triton-C frontend).
    for (const args of JSON.parse(process.env.TRITON_IR_CODE_CACHE_MORE || '[]')) {
      process.argv = [process.argv[0], process.argv[1], ...args];
      run();
    }
    writeFileSync(process.env.TRITON_IR_CODE_CACHE_OUT, script.createCachedData());
  }
}
