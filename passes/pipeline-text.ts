/**
 * Text pipelines: `canonicalize,cse,convert-to-gpu{num-warps=8 threads-per-warp=32}`, MLIR's
 * `builtin.module(cse,tt.func(licm))` nesting, and named pipelines (`default`). Errors point at
 * the bad token in the pipeline text and list near matches.
 */
import { Diagnostic, DiagnosticError, SourceFile } from '../ir/diagnostics.js';
import type { OptionValue, PassDecl, PassOptionDecl, PassOptions } from './pass.js';
import { defaultPassRegistry, lookupPass, NAMED_PIPELINES, nearMatches } from './registry.js';
import { upstreamWithoutEquivalent } from './upstream-names.js';

/** One pass to run, with its options, optionally restricted to ops named `nest` (e.g. `tt.func`). */
export interface PipelineEntry {
  pass: PassDecl;
  options: PassOptions;
  nest: string | null;
}

/** Ops that may anchor a nested pipeline (`tt.func(cse)`). */
const NEST_OPS = new Set(['builtin.module', 'module', 'tt.func', 'func.func']);

class PipelineParser {
  private pos = 0;
  constructor(private readonly src: SourceFile) {}

  private get text(): string {
    return this.src.text;
  }

  fail(message: string, at = this.pos): never {
    throw new DiagnosticError(new Diagnostic('error', message, { source: this.src, offset: at }));
  }

  private skipWs(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  private name(): string {
    this.skipWs();
    const m = /^[A-Za-z_][\w.\-]*/.exec(this.text.slice(this.pos));
    if (!m) this.fail(this.pos >= this.text.length ? 'expected a pass name' : `expected a pass name, found '${this.text[this.pos]}'`);
    this.pos += m![0].length;
    return m![0];
  }

  /** `element (',' element)*` until `close` (or the end). */
  list(nest: string | null, close: string | null, depth: number): PipelineEntry[] {
    const out: PipelineEntry[] = [];
    this.skipWs();
    if (close && this.text[this.pos] === close) return out;
    for (;;) {
      out.push(...this.element(nest, depth));
      this.skipWs();
      if (this.text[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (close ? this.text[this.pos] === close : this.pos >= this.text.length) return out;
      this.fail(`expected ',' or ${close ? `'${close}'` : 'the end of the pipeline'}`);
    }
  }

  private element(nest: string | null, depth: number): PipelineEntry[] {
    const start = this.pos;
    const name = this.name();
    this.skipWs();
    if (this.text[this.pos] === '(') {
      if (!NEST_OPS.has(name)) this.fail(`'${name}' cannot anchor a nested pipeline (use builtin.module, tt.func or func.func)`, start);
      this.pos++;
      const inner = this.list(name === 'builtin.module' || name === 'module' ? nest : name, ')', depth);
      this.pos++;
      return inner;
    }
    const named = NAMED_PIPELINES[name];
    if (named !== undefined) {
      if (depth > 8) this.fail(`named pipeline '${name}' expands recursively`, start);
      const options = defaultOptions(named);
      const at = this.pos;
      if (this.text[this.pos] === '{') this.options({ name, options: named.options, what: 'pipeline' }, options);
      let text: string;
      try {
        text = named.expand(options);
      } catch (e) {
        return this.fail(`pipeline '${name}': ${(e as Error).message}`, at);
      }
      return parsePipelineIn(text, `<pipeline ${name}>`, depth + 1).map((e) => ({ ...e, nest: e.nest ?? nest }));
    }
    const pass = lookupPass(name);
    if (!pass) {
      const upstream = upstreamWithoutEquivalent(name);
      if (upstream) this.fail(upstream, start);
      const near = nearMatches(name, [...defaultPassRegistry.names(), ...Object.keys(NAMED_PIPELINES)]);
      this.fail(`'${name}' does not refer to a registered pass or pass pipeline${near.length ? `; did you mean ${near.map((n) => `'${n}'`).join(', ')}?` : ''}`, start);
    }
    const options = defaultOptions(pass);
    if (this.text[this.pos] === '{') this.options({ name: pass.name, options: pass.options, what: 'pass' }, options);
    return [{ pass, options, nest }];
  }

  /** `{key=value ...}` of a pass or named pipeline, checked against its declared options. */
  private options(pass: { name: string; options?: Record<string, PassOptionDecl>; what: string }, into: PassOptions): void {
    this.pos++;
    for (;;) {
      this.skipWs();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return;
      }
      if (this.pos >= this.text.length) this.fail(`expected '}' to end the options of '${pass.name}'`);
      const at = this.pos;
      const key = /^[\w\-]+/.exec(this.text.slice(this.pos))?.[0];
      if (!key) this.fail(`expected an option name for ${pass.what} '${pass.name}'`);
      this.pos += key.length;
      const decl = pass.options?.[key];
      if (!decl) {
        const near = nearMatches(key, Object.keys(pass.options ?? {}));
        this.fail(`${pass.what} '${pass.name}' has no option '${key}'${near.length ? `; did you mean ${near.map((n) => `'${n}'`).join(', ')}?` : ''}`, at);
      }
      let raw: string | null = null;
      if (this.text[this.pos] === '=') {
        this.pos++;
        raw = this.value();
      }
      into[key] = convertOption(this, pass.name, key, decl.type, raw, at);
    }
  }

  /** An option value: up to whitespace or `}`, with balanced braces and quotes. */
  private value(): string {
    const start = this.pos;
    let depth = 0;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '"') {
        const end = this.text.indexOf('"', this.pos + 1);
        if (end < 0) this.fail('unterminated string in pass option');
        this.pos = end + 1;
        continue;
      }
      if (c === '{') depth++;
      else if (c === '}') {
        if (depth === 0) break;
        depth--;
      } else if (/\s/.test(c) && depth === 0) break;
      this.pos++;
    }
    return this.text.slice(start, this.pos).replace(/^"(.*)"$/, '$1');
  }
}

function convertOption(p: PipelineParser, pass: string, key: string, type: string, raw: string | null, at: number): OptionValue {
  switch (type) {
    case 'bool':
      if (raw === null || raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      return p.fail(`option '${key}' of pass '${pass}' expects true or false, got '${raw}'`, at);
    case 'int':
      if (raw !== null && /^-?\d+$/.test(raw)) return Number(raw);
      return p.fail(`option '${key}' of pass '${pass}' expects an integer, got '${raw ?? ''}'`, at);
    case 'string-list':
      return raw ? raw.split(',').map((s) => s.trim()).filter(Boolean) : [];
    default:
      return raw ?? '';
  }
}

/** Every option of `pass` (or a named pipeline) at its default value. */
export function defaultOptions(pass: { options?: Record<string, PassOptionDecl> }): PassOptions {
  const out: PassOptions = {};
  for (const [k, d] of Object.entries(pass.options ?? {})) out[k] = Array.isArray(d.default) ? [...d.default] : d.default;
  return out;
}

function parsePipelineIn(text: string, name: string, depth: number): PipelineEntry[] {
  const p = new PipelineParser(new SourceFile(name, text));
  return p.list(null, null, depth);
}

/** Parses a pipeline; errors are diagnostics located in the pipeline text (`<pipeline>:1:5`). */
export function parsePipeline(text: string): PipelineEntry[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  return parsePipelineIn(trimmed, '<pipeline>', 0);
}

/** The canonical text of a pipeline, as `--dump-pass-pipeline` prints it. */
export function pipelineText(entries: readonly PipelineEntry[]): string {
  const one = (e: PipelineEntry) => {
    const opts = Object.entries(e.options).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`);
    const body = e.pass.name + (opts.length ? `{${opts.join(' ')}}` : '');
    return e.nest ? `${e.nest}(${body})` : body;
  };
  return `builtin.module(${entries.map(one).join(',')})`;
}
