/**
 * Dialect reference docs generated from the op declarations (as `mlir-tblgen -gen-dialect-doc`
 * generates them from ODS): one Markdown page per dialect, each op with its summary, assembly
 * format, operand / result / attribute tables, regions, successors and traits. Pure functions
 * of the declarations; `tools/gen-docs.ts` (`npm run docs`) writes them to docs/dialects/.
 */
import * as arith from '../dialects/arith.js';
import * as builtin from '../dialects/builtin.js';
import * as cf from '../dialects/cf.js';
import * as func from '../dialects/func.js';
import * as gpu from '../dialects/gpu.js';
import { allDialects } from '../dialects/index.js';
import * as math from '../dialects/math.js';
import * as nvptx from '../dialects/nvptx.js';
import * as scf from '../dialects/scf.js';
import * as tt from '../dialects/tt/index.js';
import * as ttg from '../dialects/ttg/index.js';
import * as ttng from '../dialects/ttng.js';
import { IntegerAttr } from '../ir/attributes.js';
import type { OpDef } from '../ir/op-def.js';
import type { AttrDecl, DialectDecl, OpDecl, RegionDecl, ValueDecl } from '../ir/op-spec.js';

/** Where a dialect's op definitions are exported, and the exported name of each. */
export interface DialectExports {
  /** The module to import them from (`dialects/tt/index.ts`). */
  module: string;
  /** The exported name of each op definition (`DotOp`); ops without one are left out. */
  names: ReadonlyMap<OpDef, string>;
}

const NOTICE = 'Generated from the op declarations by `npm run docs` (tools/dialect-doc.ts); do not edit.';

/** The Markdown reference page of dialect `d`. */
export function dialectDoc(d: DialectDecl, exports?: DialectExports): string {
  const out: string[] = [`# \`${d.name}\` dialect`, ''];
  if (d.summary) out.push(d.summary, '');
  out.push(`_${NOTICE}_`, '');
  if (exports) out.push(`Op definitions (\`defineOp\`, \`ir/op-def.ts\`) are exported from \`${exports.module}\`.`, '');
  out.push('## Operations', '');
  for (const def of d.ops) out.push(`- [\`${def.name}\`](#${anchor(heading(def, exports))}): ${def.decl.summary ?? ''}`);
  out.push('');
  for (const def of d.ops) out.push(...opDoc(def, exports));
  return out.join('\n').trimEnd() + '\n';
}

/** The index page: every dialect with its summary and op count, linking to its page. */
export function dialectIndex(dialects: readonly DialectDecl[]): string {
  const out = ['# Dialects', '', `_${NOTICE}_`, '', '| Dialect | Ops | Summary |', '| :-- | --: | :-- |'];
  for (const d of dialects) out.push(`| [\`${d.name}\`](${d.name}.md) | ${d.ops.length} | ${cell(d.summary ?? '')} |`);
  return out.join('\n') + '\n';
}

/** The module that exports each dialect's op definitions, by dialect name. */
const MODULES: Record<string, [string, Record<string, unknown>]> = {
  builtin: ['dialects/builtin.ts', builtin],
  func: ['dialects/func.ts', func],
  arith: ['dialects/arith.ts', arith],
  math: ['dialects/math.ts', math],
  scf: ['dialects/scf.ts', scf],
  cf: ['dialects/cf.ts', cf],
  gpu: ['dialects/gpu.ts', gpu],
  tt: ['dialects/tt/index.ts', tt],
  ttg: ['dialects/ttg/index.ts', ttg],
  ttng: ['dialects/ttng.ts', ttng],
  nvptx: ['dialects/nvptx.ts', nvptx],
};

/** The exports of dialect `d`'s op definitions (its module's exported names), when its module is known. */
export function dialectExports(d: DialectDecl): DialectExports | undefined {
  const entry = MODULES[d.name];
  if (!entry) return undefined;
  const ops = new Set<unknown>(d.ops);
  const names = new Map<OpDef, string>();
  // Module namespaces list their exports sorted, so the first name of a definition is stable.
  for (const [name, value] of Object.entries(entry[1])) {
    if (ops.has(value) && !names.has(value as OpDef)) names.set(value as OpDef, name);
  }
  return { module: entry[0], names };
}

/** Every generated file, by path relative to the repository root (`docs/dialects/tt.md`), in a fixed order. */
export function dialectDocFiles(dialects: readonly DialectDecl[] = allDialects): Map<string, string> {
  const files = new Map<string, string>();
  files.set('docs/dialects/README.md', dialectIndex(dialects));
  for (const d of dialects) files.set(`docs/dialects/${d.name}.md`, dialectDoc(d, dialectExports(d)));
  return files;
}

// ---- one op -------------------------------------------------------------------------------

function heading(def: OpDef, exports?: DialectExports): string {
  const name = exports?.names.get(def);
  return name ? `\`${def.name}\` (${name})` : `\`${def.name}\``;
}

function opDoc(def: OpDef, exports?: DialectExports): string[] {
  const decl: OpDecl = def.decl;
  const out = [`### ${heading(def, exports)}`, ''];
  if (decl.summary) out.push(decl.summary, '');
  out.push(...syntax(decl), '');
  const operands = valueTable('Operand', decl.operands ?? []);
  if (operands.length) {
    out.push('Operands:', '', ...operands, '');
    if (def.spec.needsOperandSegments) out.push('The size of each operand group is stored in `operandSegmentSizes`.', '');
  }
  const results = valueTable('Result', decl.results ?? []);
  if (results.length) {
    out.push('Results:', '', ...results, '');
    if (def.spec.needsResultSegments) out.push('The size of each result group is stored in `resultSegmentSizes`.', '');
  }
  const attrs = attrTable(decl.attrs ?? []);
  if (attrs.length) out.push('Attributes:', '', ...attrs, '');
  const regions = groupTable('Region', decl.regions ?? []);
  if (regions.length) out.push('Regions:', '', ...regions, '');
  const successors = groupTable('Successor', decl.successors ?? []);
  if (successors.length) out.push('Successors:', '', ...successors, '');
  if (decl.traits?.length) out.push('Traits:', '', ...decl.traits.map((t) => `- \`${t.name}\`: ${t.summary}`), '');
  const hooks = implemented(decl);
  if (hooks) out.push(hooks, '');
  return out;
}

/** The assembly format as `operation ::= ...`, or how the op is written without one. */
function syntax(decl: OpDecl): string[] {
  if (decl.format !== undefined) {
    const format = decl.format.replace(/\s+/g, ' ').trim();
    return ['```', `operation ::= \`${decl.name}\` ${format}`.trimEnd(), '```'];
  }
  if (decl.syntax) return ['Syntax: custom (a parser and printer in code, not a declarative format).'];
  return ['Syntax: the generic form only.'];
}

function valueTable(what: string, decls: readonly ValueDecl[]): string[] {
  if (!decls.length) return [];
  const described = decls.some((d) => d.summary);
  const rows = [
    `| ${what} | Kind | Constraint |${described ? ' Description |' : ''}`,
    `| :-- | :-- | :-- |${described ? ' :-- |' : ''}`,
  ];
  for (const d of decls) {
    const row = `| \`${d.name}\` | ${d.kind ?? 'single'} | ${cell(d.type?.description ?? 'any type')} |`;
    rows.push(described ? `${row} ${cell(d.summary ?? '')} |` : row);
  }
  return rows;
}

function attrTable(decls: readonly AttrDecl[]): string[] {
  if (!decls.length) return [];
  const rows = ['| Attribute | Constraint | Presence |', '| :-- | :-- | :-- |'];
  for (const d of decls) {
    const presence = d.default !== undefined ? `default ${defaultText(d)}` : d.optional ? 'optional' : 'required';
    rows.push(`| \`${d.name}\` | ${cell(d.kind.description)} | ${cell(presence)} |`);
  }
  return rows;
}

/** An attribute's default as written, with the case name for an enum (`` `ieee` (`2 : i32`) ``). */
function defaultText(d: AttrDecl): string {
  const text = `\`${String(d.default)}\``;
  const native = d.default && d.kind.value ? d.kind.value(d.default) : undefined;
  return d.default instanceof IntegerAttr && typeof native === 'string' ? `\`${native}\` (${text})` : text;
}

function groupTable(what: string, decls: readonly RegionDecl[]): string[] {
  if (!decls.length) return [];
  return [`| ${what} | Kind |`, '| :-- | :-- |', ...decls.map((d) => `| \`${d.name}\` | ${d.variadic ? 'variadic' : 'single'} |`)];
}

/** The code hooks the op has beyond its declaration: verifier, folder, canonicalization patterns. */
function implemented(decl: OpDecl): string {
  const parts: string[] = [];
  if (decl.verify || decl.verifyRegions) parts.push('a verifier');
  if (decl.fold) parts.push('a folder');
  if (decl.canonicalize?.length) parts.push(`canonicalization patterns (${decl.canonicalize.map((p) => `\`${p.name}\``).join(', ')})`);
  if (!parts.length) return '';
  return `Has ${parts.length > 1 ? parts.slice(0, -1).join(', ') + ' and ' + parts[parts.length - 1] : parts[0]}.`;
}

// ---- Markdown helpers ---------------------------------------------------------------------

/** Text safe inside a table cell. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(headingText: string): string {
  return headingText.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
}
