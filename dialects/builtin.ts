/**
 * The builtin dialect: `module` and `unrealized_conversion_cast`.
 */
import { AnyType } from '../ir/constraints.js';
import { StringAttr, SymbolRefAttr } from '../ir/attributes.js';
import type { CustomSyntax } from '../ir/op-spec.js';
import { Block, type Operation } from '../ir/ir.js';
import { Diagnostic, DiagnosticError } from '../ir/diagnostics.js';
import type { DialectDecl, VerifyResult } from '../ir/op-spec.js';
import { StrAttr, SymbolNameAttr } from '../ir/constraints.js';
import { defineOp } from '../ir/op-def.js';
import { GraphRegion, IsolatedFromAbove, NoTerminator, Pure, SingleBlock, SymbolTable } from '../ir/traits.js';

const MODULE_ELIDED = new Set(['sym_name']);

/** `module @name? attributes {...}? { body }`. */
const moduleSyntax: CustomSyntax = {
  parse(p) {
    const name = p.peekToken()?.kind === 'AtId' ? p.parseAttribute() : undefined;
    if (name instanceof SymbolRefAttr) p.setProperty('sym_name', StringAttr.get(name.root));
    p.parseOptionalAttrDictWithKeyword();
    const region = p.parseRegion([], p.state.spec);
    if (region.empty) region.addBlock(new Block());
    p.state.regions.push(region);
  },
  print(p, op) {
    const name = op.getAttr('sym_name');
    if (name instanceof StringAttr) {
      p.write(' ');
      p.printAttribute(SymbolRefAttr.get(name.value));
    }
    p.printOptionalAttrDict(p.attrsToPrint(op, MODULE_ELIDED), undefined, true);
    p.write(' ');
    p.printRegion(op.regions[0], { printEntryBlockArgs: false });
  },
};

/** A symbol table may define each symbol name once. */
function verifyUniqueSymbols(op: Operation): VerifyResult {
  const seen = new Set<string>();
  for (const b of op.regions[0].blocks) {
    for (const inner of b) {
      const n = inner.getAttr('sym_name');
      if (!(n instanceof StringAttr)) continue;
      if (seen.has(n.value))
        throw new DiagnosticError(new Diagnostic('error', `redefinition of symbol named '${n.value}'`, inner.srcPos).attachNote('see existing symbol definition here', null));
      seen.add(n.value);
    }
  }
}

/** `builtin.module`: a top-level container of operations. */
export const ModuleOp = defineOp({
  name: 'builtin.module',
  summary: 'a top-level container of operations',
  attrs: [
    { name: 'sym_name', kind: SymbolNameAttr, optional: true },
    { name: 'sym_visibility', kind: StrAttr, optional: true },
  ],
  regions: [{ name: 'bodyRegion' }],
  traits: [IsolatedFromAbove, NoTerminator, SingleBlock, SymbolTable, GraphRegion],
  syntax: moduleSyntax,
  verify(op) {
    const blocks = op.regions[0].blocks;
    if (blocks.length > 1) return 'expects region #0 to have 0 or 1 blocks';
    if (blocks[0]?.args.length) return 'region should have no arguments';
    for (const [k] of op.allAttrs()) {
      if (k === 'sym_name' || k === 'sym_visibility' || k.includes('.')) continue;
      return `can only contain attributes with dialect-prefixed names, found: '${k}'`;
    }
  },
  verifyRegions: verifyUniqueSymbols,
});
/** `builtin.unrealized_conversion_cast`: a temporary cast between type systems during conversions. */
export const UnrealizedConversionCastOp = defineOp({
  name: 'builtin.unrealized_conversion_cast',
  summary: 'a temporary cast between type systems during conversions',
  operands: [{ name: 'inputs', kind: 'variadic', type: AnyType }],
  results: [{ name: 'outputs', kind: 'variadic', type: AnyType }],
  traits: [Pure],
  format: '($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict',
});

/** The builtin dialect table. */
export const builtinDialect: DialectDecl = {
  name: 'builtin',
  summary: 'builtin ops: the top-level module and unrealized conversion casts (upstream MLIR)',
  ops: [
    ModuleOp,
    UnrealizedConversionCastOp,
  ],
};
