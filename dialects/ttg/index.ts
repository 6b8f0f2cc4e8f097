/**
 * The TritonGPU (`ttg`) dialect: layout attributes, `!ttg.memdesc` / `!ttg.async.token`, ops,
 * and the contextual layout checks.
 */
import type { DialectDecl } from '../../ir/op-spec.js';
import { StructAttr } from './struct-attr.js';
import { LAYOUT_SPECS, SharedMemorySpaceAttr } from './layout-attrs.js';
import { PaddedSharedAttr } from './padded-shared.js';
import { AsyncTokenType, MemDescType } from './types.js';
import { ttgOps } from './ops.js';
import { verifyTtgType } from './verify.js';
import { verifyTargetAttribute } from './target.js';

export * from './struct-attr.js';
export * from './layout-attrs.js';
export * from './padded-shared.js';
export * from './types.js';
export * from './ops.js';
export * from './target.js';
export { verifyEncoding, verifyMemDesc, verifyAgainstModule, verifyTtgType } from './verify.js';

/** The TritonGPU dialect table. */
export const ttgDialect: DialectDecl = {
  name: 'ttg',
  summary: 'TritonGPU: tensors with layouts, shared memory and async copies',
  ops: ttgOps,
  types: {
    memdesc: (p) => MemDescType.parseBody(p),
    'async.token': (p) => AsyncTokenType.parseBody(p),
  },
  attrs: {
    ...Object.fromEntries(LAYOUT_SPECS.map((s) => [s.mnemonic, (p: Parameters<typeof StructAttr.parseBody>[1]) => StructAttr.parseBody(s, p)])),
    shared_memory: (p) => SharedMemorySpaceAttr.parseBody(p),
    padded_shared: (p) => PaddedSharedAttr.parseBody(p),
  },
  verifyType: verifyTtgType,
  verifyAttribute: verifyTargetAttribute,
};
export * from './layout-lib.js';
export * from './layout-scratch.js';
