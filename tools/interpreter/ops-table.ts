/** The interpreter's op table: op name -> implementation, merged from the per-dialect tables. */
import type { OpEntry, OpImpl } from './op-impl.js';
import { arithOps } from './ops-arith.js';
import { computeOps } from './ops-compute.js';
import { controlOps } from './ops-control.js';
import { mathOps } from './ops-math.js';
import { libdeviceOps } from './ops-libdevice.js';
import { memoryOps } from './ops-memory.js';
import { shapeOps } from './ops-shape.js';
import { ttgOps } from './ops-ttg.js';

function merge(...tables: (readonly OpEntry[])[]): ReadonlyMap<string, OpImpl> {
  const out = new Map<string, OpImpl>();
  for (const table of tables)
    for (const [name, impl] of table) {
      if (out.has(name)) throw new Error(`internal error: the interpreter implements '${name}' twice`);
      out.set(name, impl);
    }
  return out;
}

/** Every op the interpreter implements. */
export const OP_TABLE: ReadonlyMap<string, OpImpl> = merge(arithOps, mathOps, libdeviceOps, shapeOps, memoryOps, computeOps, controlOps, ttgOps);
