/**
 * A data-driven helper for "struct-like" dialect attributes printed as `#d.name<{k = v, ...}>`
 * (Triton's layouts). A `StructSpec` lists the fields (name, kind, optional/default, when to
 * print); one class, `StructAttr`, parses, prints, uniques and exposes them.
 */
import type { AsmParser, AsmPrinter } from '../../ir/asm.js';
import { ArrayAttr, Attribute, DialectAttr, IntegerAttr, isBoolAttr } from '../../ir/attributes.js';
import { unique } from '../../ir/uniquer.js';

/** What a field holds: an integer, an integer list, a list of integer lists, a bool, or an attribute. */
export type FieldKind = 'int' | 'ints' | 'ints2' | 'bool' | 'attr';

/** The value of one field. */
export type FieldValue = number | readonly number[] | readonly (readonly number[])[] | boolean | Attribute;

/** The fields of one attribute, by name. */
export type FieldValues = Readonly<Record<string, FieldValue>>;

/** One field of a struct-like attribute. */
export interface FieldDecl {
  name: string;
  kind: FieldKind;
  /** May be absent (no value at all). */
  optional?: boolean;
  /** Filled in when absent; not printed when equal. */
  default?: FieldValue | ((v: Record<string, FieldValue>) => FieldValue);
  /** When to print (replaces the default-elision rule when given). */
  printIf?: (v: FieldValue, all: FieldValues) => boolean;
}

/**
 * A group of fields that are all present or all absent, printed together only when they differ
 * from their defaults (Triton's CTAsPerCGA / CTASplitNum / CTAOrder).
 */
export interface FieldGroup {
  group: string;
  fields: FieldDecl[];
  /** Defaults of the whole group, from the other fields. */
  defaults: (v: Record<string, FieldValue>) => Record<string, FieldValue>;
}

/** The declaration of one struct-like attribute. */
export interface StructSpec {
  dialect: string;
  mnemonic: string;
  /** Alias the printer gives it (`blocked`), or none. */
  alias: string | null;
  /** Fields (and groups) in print order. */
  fields: (FieldDecl | FieldGroup)[];
  /** Self-consistency check run on construction from text (Triton's `getChecked`). */
  verify?: (v: FieldValues) => string | void;
}

function isGroup(f: FieldDecl | FieldGroup): f is FieldGroup {
  return 'group' in f;
}

/** All plain fields of a spec, groups flattened. */
export function allFields(spec: StructSpec): FieldDecl[] {
  return spec.fields.flatMap((f) => (isGroup(f) ? f.fields : [f]));
}

function sameValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => sameValue(x, b[k]));
  return false;
}

function valueKey(v: FieldValue): string {
  if (v instanceof Attribute) return `@${v.id}`;
  if (Array.isArray(v)) return `[${v.map((x) => valueKey(x as FieldValue)).join(',')}]`;
  return String(v);
}

/** A struct-like dialect attribute: its spec plus field values (uniqued). */
export class StructAttr extends DialectAttr {
  readonly dialect: string;
  readonly mnemonic: string;
  /** The attribute-valued fields, exposed so the printer finds nested aliases. */
  readonly nested: readonly Attribute[];
  private constructor(readonly spec: StructSpec, readonly values: FieldValues) {
    super();
    this.dialect = spec.dialect;
    this.mnemonic = spec.mnemonic;
    this.nested = Object.values(values).filter((v): v is Attribute => v instanceof Attribute);
  }

  /** The uniqued attribute of `spec` with `values` (defaults filled in). */
  static get(spec: StructSpec, values: Record<string, FieldValue>): StructAttr {
    const full = fillDefaults(spec, values);
    const key = `${spec.dialect}.${spec.mnemonic}:` + allFields(spec).map((f) => (full[f.name] === undefined ? '-' : valueKey(full[f.name]))).join(';');
    return unique(key, () => new StructAttr(spec, Object.freeze(full)));
  }

  /** An integer field. */
  int(name: string): number {
    return this.values[name] as number;
  }
  /** An integer-list field. */
  ints(name: string): readonly number[] {
    return this.values[name] as readonly number[];
  }
  /** A list-of-lists field. */
  ints2(name: string): readonly (readonly number[])[] {
    return this.values[name] as readonly (readonly number[])[];
  }
  /** A bool field. */
  bool(name: string): boolean {
    return this.values[name] as boolean;
  }
  /** An attribute field. */
  attr(name: string): Attribute | undefined {
    return this.values[name] as Attribute | undefined;
  }
  /** Whether this is an attribute of `spec`. */
  is(spec: StructSpec): boolean {
    return this.spec === spec;
  }

  override aliasName(): string | null {
    return this.spec.alias;
  }

  printBody(p: AsmPrinter): void {
    const parts: (() => void)[] = [];
    const v = this.values;
    for (const f of this.spec.fields) {
      if (isGroup(f)) {
        const d = f.defaults(v as Record<string, FieldValue>);
        if (f.fields.every((g) => sameValue(v[g.name], d[g.name]))) continue;
        for (const g of f.fields) parts.push(() => printField(p, g, v[g.name]));
        continue;
      }
      const val = v[f.name];
      if (val === undefined) continue;
      if (f.printIf ? !f.printIf(val, v) : f.default !== undefined && sameValue(val, resolveDefault(f, v as Record<string, FieldValue>))) continue;
      parts.push(() => printField(p, f, val));
    }
    p.write('<{');
    parts.forEach((print, k) => {
      if (k) p.write(', ');
      print();
    });
    p.write('}>');
  }

  /** Reads `<{k = v, ...}>` (the part after `#dialect.mnemonic`). */
  static parseBody(spec: StructSpec, p: AsmParser): StructAttr {
    const pos = p.pos();
    p.parsePunct('<');
    const entries = p.parseDictionaryBody();
    p.parsePunct('>');
    const decls = new Map(allFields(spec).map((f) => [f.name, f]));
    const values: Record<string, FieldValue> = {};
    for (const [k, a] of entries) {
      const d = decls.get(k);
      if (!d) return p.error(`unexpected key: ${k}`, pos);
      const val = fieldValue(d.kind, a);
      if (val === undefined) return p.error(`expected ${kindText(d.kind)} for '${k}' in #${spec.dialect}.${spec.mnemonic}`, pos);
      values[k] = val;
    }
    for (const f of spec.fields) {
      if (!isGroup(f)) continue;
      const n = f.fields.filter((g) => values[g.name] !== undefined).length;
      if (n !== 0 && n !== f.fields.length)
        return p.error(`${f.fields.map((g) => g.name).join(', ')} must all be present or all be absent`, pos);
    }
    for (const f of allFields(spec)) {
      if (values[f.name] === undefined && !f.optional && f.default === undefined && !groupMember(spec, f))
        return p.error(`missing key '${f.name}' in #${spec.dialect}.${spec.mnemonic}`, pos);
    }
    const full = fillDefaults(spec, values);
    const msg = spec.verify?.(full);
    if (msg) return p.error(msg, pos);
    // After the layout's own checks (which name their own limits), any field the printer could not
    // print back exactly: integers are kept as doubles.
    for (const [k, a] of entries) {
      const big = outOfInt32(a);
      if (big !== undefined) return p.error(`${big} is out of range for '${k}' in #${spec.dialect}.${spec.mnemonic}: layout fields are 32-bit integers`, pos);
    }
    return StructAttr.get(spec, full);
  }
}

function groupMember(spec: StructSpec, f: FieldDecl): boolean {
  return spec.fields.some((g) => isGroup(g) && g.fields.includes(f));
}

function resolveDefault(f: FieldDecl, v: Record<string, FieldValue>): FieldValue | undefined {
  return typeof f.default === 'function' ? f.default(v) : f.default;
}

function fillDefaults(spec: StructSpec, values: Record<string, FieldValue>): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = { ...values };
  for (const f of spec.fields) {
    if (isGroup(f)) {
      if (f.fields.some((g) => out[g.name] === undefined)) Object.assign(out, f.defaults(out));
      continue;
    }
    if (out[f.name] === undefined && f.default !== undefined) out[f.name] = resolveDefault(f, out)!;
  }
  return out;
}

function printField(p: AsmPrinter, f: FieldDecl, v: FieldValue): void {
  p.write(`${f.name} = `);
  if (v instanceof Attribute) p.printAttribute(v);
  else if (Array.isArray(v)) p.write(listText(v));
  else p.write(String(v));
}

/** `[1, 2]`, `[[0, 1], [1, 0]]`: integer lists as Triton prints them. */
export function listText(v: readonly unknown[]): string {
  return '[' + v.map((x) => (Array.isArray(x) ? listText(x) : String(x))).join(', ') + ']';
}

/** The first integer in `a` (an integer or nested arrays of them) outside the 32-bit range, if any. */
function outOfInt32(a: Attribute): bigint | undefined {
  if (a instanceof IntegerAttr) return a.value < -(2n ** 31n) || a.value >= 2n ** 31n ? a.value : undefined;
  if (a instanceof ArrayAttr) for (const x of a.value) {
    const v = outOfInt32(x);
    if (v !== undefined) return v;
  }
  return undefined;
}

function kindText(k: FieldKind): string {
  return { int: 'an integer', ints: 'an array of integers', ints2: 'an array of integer arrays', bool: 'a bool', attr: 'an attribute' }[k];
}

function intOf(a: Attribute): number | undefined {
  if (!(a instanceof IntegerAttr) || isBoolAttr(a as Attribute)) return undefined;
  return a.num;
}

function intsOf(a: Attribute): number[] | undefined {
  if (!(a instanceof ArrayAttr)) return undefined;
  const out = a.value.map(intOf);
  return out.every((x) => x !== undefined) ? (out as number[]) : undefined;
}

/** The value of a field of kind `kind` read from attribute `a`, or undefined when `a` is not one. */
export function fieldValue(kind: FieldKind, a: Attribute): FieldValue | undefined {
  switch (kind) {
    case 'int':
      return intOf(a);
    case 'ints':
      return intsOf(a);
    case 'ints2': {
      if (!(a instanceof ArrayAttr)) return undefined;
      const out = a.value.map(intsOf);
      return out.every((x) => x !== undefined) ? (out as number[][]) : undefined;
    }
    case 'bool':
      return isBoolAttr(a) ? (a as IntegerAttr).value !== 0n : undefined;
    case 'attr':
      return a;
  }
}
