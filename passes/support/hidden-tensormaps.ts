/**
 * Adding hidden tensor-map parameters to a kernel (`tir.tensormap`, dialects/tt/tensormap-arg.ts):
 * `!tt.tensordesc` arguments after every other, whose maps the launcher builds from other arguments.
 * `pointer-to-tma` adds one per tensor its TMA copies read; `tma-lowering` one per descriptor the
 * kernel makes from its parameters alone.
 */
import { ArrayAttr, DictionaryAttr, NameLoc, TypeAttr, type Attribute } from '../../ir/attributes.js';
import type { BlockArgument, Operation } from '../../ir/ir.js';
import { FunctionType } from '../../ir/types.js';
import { functionTypeOf } from '../../ir/function-syntax.js';
import * as tt from '../../dialects/tt/index.js';

/** The hidden tensor-map parameters added to one kernel, one per distinct descriptor type and source. */
export class HiddenTensorMaps {
  private readonly made = new Map<string, BlockArgument>();
  private readonly attrs: Attribute[] = [];
  constructor(private readonly fn: Operation) {}

  /** The parameter of `type` whose map the launcher builds as `spec` says (one per distinct pair), named `__<prefix>_<name>_<n>`. */
  get(type: tt.TensorDescType, spec: tt.HostTensormap, prefix: string, name: string): BlockArgument {
    const key = `${type}|${JSON.stringify(spec)}`;
    const hit = this.made.get(key);
    if (hit) return hit;
    const entry = this.fn.regions[0].blocks[0];
    const arg = entry.addArgument(type, NameLoc.get(`__${prefix}_${name}_${this.made.size}`));
    this.made.set(key, arg);
    this.attrs[arg.index] = DictionaryAttr.get([[tt.TENSORMAP_ATTR, tt.tensormapAttr(spec)]]);
    return arg;
  }

  /** Writes the new parameters into the function's type and argument attributes; returns how many there are. */
  commit(): number {
    if (!this.made.size) return 0;
    const args = this.fn.regions[0].blocks[0].args;
    const old = this.fn.getAttr('arg_attrs');
    const attrs = args.map((_, k) => this.attrs[k] ?? (old instanceof ArrayAttr ? old.value[k] : undefined) ?? DictionaryAttr.get([]));
    this.fn.setAttr('arg_attrs', ArrayAttr.get(attrs));
    this.fn.setAttr('function_type', TypeAttr.get(FunctionType.get(args.map((a) => a.type), functionTypeOf(this.fn).results)));
    return this.made.size;
  }
}
