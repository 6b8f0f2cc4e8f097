/**
 * The builtin dialect: `module` and `unrealized_conversion_cast`.
 */
import { AnyType } from '../ir/constraints.js';
import { StringAttr, SymbolRefAttr } from '../ir/attributes.js';
import type { CustomSyntax } from '../ir/op-spec.js';
import { Block } from '../ir/ir.js';
import type { DialectDecl } from '../ir/op-spec.js';
import { StrAttr, SymbolNameAttr } from '../ir/constraints.js';

const MODULE_ELIDED = new Set(['sym_name', 'sym_visibility']);

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

/** The builtin dialect table. */
export const builtinDialect: DialectDecl = {
  name: 'builtin',
  ops: [
    {
      name: 'builtin.module',
      summary: 'a top-level container of operations',
      attrs: [
        { name: 'sym_name', kind: SymbolNameAttr, optional: true },
        { name: 'sym_visibility', kind: StrAttr, optional: true },
      ],
      regions: [{ name: 'bodyRegion' }],
      traits: ['IsolatedFromAbove', 'NoTerminator', 'SingleBlock', 'SymbolTable', 'GraphRegion'],
      syntax: moduleSyntax,
      verify(op) {
        if (op.regions[0].blocks.length !== 1) return 'expects region to have exactly 1 block';
        if (op.regions[0].blocks[0].args.length) return 'expects the body block to have no arguments';
      },
    },
    {
      name: 'builtin.unrealized_conversion_cast',
      summary: 'a temporary cast between type systems during conversions',
      operands: [{ name: 'inputs', kind: 'variadic', type: AnyType }],
      results: [{ name: 'outputs', kind: 'variadic', type: AnyType }],
      traits: ['Pure'],
      format: '($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict',
    },
  ],
};
