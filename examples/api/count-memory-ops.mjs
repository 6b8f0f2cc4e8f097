// @ts-check
/**
 * An analysis written against triton-ir's public API: for each kernel (`tt.func`) of a
 * Triton dump, how many global loads and stores it does (inside loops and branches too).
 *
 *   node count-memory-ops.mjs ../ttir/matmul_kernel.ttir
 */
import { readFileSync } from 'node:fs';
import { DiagnosticError, StringAttr, parse, tt, verify } from 'triton-ir';

/**
 * One row per kernel: its name and its `tt.load` / `tt.store` counts.
 * @param {import('triton-ir').Operation} module
 */
function countMemoryOps(module) {
  const rows = [];
  for (const op of module.regions[0].blocks[0]) {
    const fn = tt.FuncOp.match(op);
    if (!fn) continue;
    let loads = 0;
    let stores = 0;
    fn.body.walk((inner) => {
      if (tt.LoadOp.is(inner)) loads++;
      else if (tt.StoreOp.is(inner)) stores++;
    });
    const name = fn.sym_name; // the attribute as declared: a StringAttr
    rows.push({ kernel: name instanceof StringAttr ? name.value : '?', loads, stores });
  }
  return rows;
}

/**
 * The rows as a text table.
 * @param {{ kernel: string, loads: number, stores: number }[]} rows
 */
function table(rows) {
  const width = Math.max(6, ...rows.map((r) => r.kernel.length));
  const line = (/** @type {string[]} */ cells) => cells[0].padEnd(width) + cells.slice(1).map((c) => c.padStart(8)).join('') + '\n';
  return line(['kernel', 'loads', 'stores']) + rows.map((r) => line([r.kernel, String(r.loads), String(r.stores)])).join('');
}

const file = process.argv[2];
try {
  const module = parse(readFileSync(file, 'utf8'), file);
  verify(module);
  process.stdout.write(table(countMemoryOps(module)));
} catch (e) {
  if (!(e instanceof DiagnosticError)) throw e;
  process.stderr.write(e.diagnostic.format() + '\n');
  process.exitCode = 1;
}
