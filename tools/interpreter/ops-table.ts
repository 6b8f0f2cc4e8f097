/** The interpreter's op table: op name -> implementation, merged from the per-dialect tables. */
import type { OpImpl } from './interpreter.js';
import { arithOps } from './ops-arith.js';
import { computeOps } from './ops-compute.js';
import { controlOps } from './ops-control.js';
import { mathOps } from './ops-math.js';
import { memoryOps } from './ops-memory.js';
import { shapeOps } from './ops-shape.js';
import { ttgOps } from './ops-ttg.js';

/** Every op the interpreter implements. */
export const OP_TABLE: ReadonlyMap<string, OpImpl> = new Map(
  Object.entries({ ...arithOps, ...mathOps, ...shapeOps, ...memoryOps, ...computeOps, ...controlOps, ...ttgOps }),
);
