/**
 * Device printf and assertion reports in LLVM IR: `nvptx.printf` is a call of the CUDA runtime's
 * `vprintf(format, buffer)` with its arguments stored in a stack buffer (each aligned to its
 * size), `nvptx.assertfail` a call of `__assertfail(message, file, line, function, 1)`; each text
 * is a private constant in the global address space, named after its contents.
 */
import * as nvptx from '../../dialects/nvptx.js';
import { bitsOf, type FunctionBuilder } from './function-builder.js';
import type { Translate } from './instructions.js';

/** Bytes as the body of an LLVM `c"..."` string: printable ASCII as is, others as `\XX`. */
function llvmBytes(codes: readonly number[]): string {
  return codes.map((c) => (c >= 32 && c < 127 && c !== 34 && c !== 92 ? String.fromCharCode(c) : `\\${c.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** A stable name for a text: FNV-1a of its bytes and its length. */
function textName(codes: readonly number[]): string {
  let h = 0x811c9dc5;
  for (const c of codes) h = Math.imul(h ^ c, 0x01000193) >>> 0;
  return `text.${h.toString(16).padStart(8, '0')}.${codes.length}`;
}

/** A generic `i8*` to the NUL-terminated global holding `bytes` (a byte string), declared once per module. */
function textPointer(f: FunctionBuilder, bytes: string): string {
  const codes = [...Array.from(bytes, (c) => c.charCodeAt(0) & 0xff), 0];
  const name = textName(codes);
  const array = `[${codes.length} x i8]`;
  f.declare(name, `@${name} = private unnamed_addr addrspace(1) constant ${array} c"${llvmBytes(codes)}", align 1`);
  const first = f.compute(`getelementptr inbounds ${array}, ${array} addrspace(1)* @${name}, i64 0, i64 0`);
  return f.compute(`addrspacecast i8 addrspace(1)* ${first} to i8*`);
}

/** `nvptx.printf`: vprintf(format, buffer of the arguments), around which a guard branches. */
const printf: Translate = (f, op) => {
  const { format, args, guard } = nvptx.PrintfOp.view(op);
  f.guarded(guard, () => {
    let buffer = 'null';
    if (args.length) {
      const types = args.map((v) => f.typeOf(v, op));
      const { offsets, bytes } = nvptx.printfBufferLayout(args);
      const array = `[${bytes} x i8]`;
      const slot = f.compute(`alloca ${array}, align 8`);
      args.forEach((v, k) => {
        const at = f.compute(`getelementptr inbounds ${array}, ${array}* ${slot}, i64 0, i64 ${offsets[k]}`);
        const typed = f.compute(`bitcast i8* ${at} to ${types[k]}*`);
        f.emit(`store ${types[k]} ${f.value(v)}, ${types[k]}* ${typed}, align ${bitsOf(types[k]) / 8}`);
      });
      buffer = f.compute(`getelementptr inbounds ${array}, ${array}* ${slot}, i64 0, i64 0`);
    }
    const text = textPointer(f, format);
    f.call('i32', 'vprintf', [{ type: 'i8*', text }, { type: 'i8*', text: buffer }]);
  });
};

/** `nvptx.assertfail`: __assertfail(message, file, line, function, 1). */
const assertfail: Translate = (f, op) => {
  const a = nvptx.AssertfailOp.view(op);
  const [message, file, fn] = [a.message, a.file, a.function].map((t) => textPointer(f, t));
  f.call('void', '__assertfail', [
    { type: 'i8*', text: message },
    { type: 'i8*', text: file },
    { type: 'i32', text: String(a.line) },
    { type: 'i8*', text: fn },
    { type: 'i64', text: '1' },
  ]);
};

/** The device debugging instructions of the nvptx dialect. */
export const DEBUG_INSTRUCTIONS: [string, Translate][] = [
  ['nvptx.printf', printf],
  ['nvptx.assertfail', assertfail],
];
