/**
 * Fixtures for the tt dialect tests: modules using every tt op in custom form, and helpers that
 * cut single tt ops out of the example Triton dumps so they can be tested in isolation.
 */

/** Function, SPMD, shape, pointer, load/store and dot ops. */
export const coreText = `module {
  tt.func public @k(%arg0: !tt.ptr<f16>, %arg1: i32, %arg2: tensor<128x64xi1>, %arg3: tensor<128x64xf16>, %arg4: tensor<128x128xf32>) attributes {noinline = false} {
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id z : i32
    %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
    %4 = tt.expand_dims %2 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %5 = tt.broadcast %4 : tensor<128x1xi32> -> tensor<128x64xi32>
    %6 = tt.addptr %3, %5 : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %7 = tt.load %6, %arg2, %arg3 : tensor<128x64x!tt.ptr<f16>>
    %8 = tt.load %6 cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x64x!tt.ptr<f16>>
    %9 = tt.load %6, %arg2 evictionPolicy = evict_first : tensor<128x64x!tt.ptr<f16>>
    %10 = tt.reshape %7 allow_reorder : tensor<128x64xf16> -> tensor<8192xf16>
    %11 = tt.reshape %7 allow_reorder efficient_layout : tensor<128x64xf16> -> tensor<64x128xf16>
    %12 = tt.reshape %7 : tensor<128x64xf16> -> tensor<64x2x64xf16>
    %13 = tt.trans %7 {order = array<i32: 1, 0>} : tensor<128x64xf16> -> tensor<64x128xf16>
    %14 = tt.dot %7, %13, %arg4, inputPrecision = tf32 : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    tt.store %6, %7, %arg2 : tensor<128x64x!tt.ptr<f16>>
    tt.store %6, %7 cacheModifier = wb evictionPolicy = evict_first : tensor<128x64x!tt.ptr<f16>>
    tt.return
  }
}
`;

/** Calls, casts, math, atomics, dot variants, regions, elementwise extensions and debug ops. */
export const computeText = `module {
  tt.func private @callee(i32) -> i32
  tt.func @k(%p: !tt.ptr<f32>, %x: i32, %t: tensor<16xf32>, %m: tensor<16xi1>, %pt: tensor<16x!tt.ptr<f32>>, %i64: i64, %ti: tensor<16xi32>, %a: tensor<16x16xf16>, %c: tensor<16x16xf32>, %b8: tensor<16x8xi8>, %sc: tensor<16x1xi8>, %one: tensor<1xf32>) -> i32 {
    %0 = tt.call @callee(%x) : (i32) -> i32
    %1 = tt.get_num_programs y : i32
    %2 = tt.unsplat %one : tensor<1xf32>
    %3 = tt.cat %t, %t : tensor<16xf32> -> tensor<32xf32>
    %4 = tt.join %t, %t : tensor<16xf32> -> tensor<16x2xf32>
    %outLHS, %outRHS = tt.split %4 : tensor<16x2xf32> -> tensor<16xf32>
    %5 = tt.int_to_ptr %i64 : i64 -> !tt.ptr<f32>
    %6 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    %7 = tt.bitcast %t : tensor<16xf32> -> tensor<16xi32>
    %8 = tt.fp_to_fp %t, rounding = rtne : tensor<16xf32> -> tensor<16xf16>
    %9 = tt.fp_to_fp %8 : tensor<16xf16> -> tensor<16xf32>
    %10 = tt.clampf %t, %t, %t, propagateNan = all : tensor<16xf32>
    %11 = tt.precise_sqrt %t : tensor<16xf32>
    %12 = tt.precise_divf %t, %t : tensor<16xf32>
    %13 = tt.mulhiui %ti, %ti : tensor<16xi32>
    %14 = tt.atomic_rmw fadd, acq_rel, gpu, %pt, %t, %m : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
    %15 = tt.atomic_rmw exch, relaxed, sys, %p, %2 : (!tt.ptr<f32>, f32) -> f32
    %16 = tt.atomic_cas acquire, cta, %pt, %t, %t : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %17 = tt.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %18 = tt.dot %a, %a, %c, inputPrecision = tf32x3 {maxNumImpreciseAcc = 32 : i32} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %19 = tt.dot_scaled %b8 scale %sc, %bb8 scale %sc, %c lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<16x8xi8>, tensor<16x1xi8> * tensor<8x16xi8>, tensor<16x1xi8> -> tensor<16x16xf32>
    %20 = tt.dot_scaled %a, %a, %c lhs = bf16 rhs = bf16 {fastMath = true, rhs_k_pack = false} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %21:2 = "tt.reduce"(%t, %ti) <{axis = 0 : i32}> ({
    ^bb0(%arg14: f32, %arg15: i32, %arg16: f32, %arg17: i32):
      tt.reduce.return %arg14, %arg15 : f32, i32
    }) : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32)
    %22 = "tt.reduce"(%c) <{axis = 1 : i32}> ({
    ^bb0(%arg14: f32, %arg15: f32):
      tt.reduce.return %arg15 : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %23 = "tt.scan"(%t) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%arg14: f32, %arg15: f32):
      tt.scan.return %arg14 : f32
    }) : (tensor<16xf32>) -> tensor<16xf32>
    %24 = "tt.map_elementwise"(%t) <{pack = 1 : i32}> ({
    ^bb0(%arg14: f32):
      tt.map_elementwise.return %arg14 : f32
    }) : (tensor<16xf32>) -> tensor<16xf32>
    %25 = tt.extern_elementwise %t, %t {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %26:2 = tt.elementwise_inline_asm "mov.b32 $0, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = true} %t : tensor<16xf32> -> tensor<16xf32>, tensor<16xf32>
    %27 = tt.histogram %ti : tensor<16xi32> -> tensor<8xi32>
    %28 = tt.histogram %ti, %m : tensor<16xi32> -> tensor<8xi32>
    %29 = tt.gather %t[%ti] {axis = 0 : i32} : (tensor<16xf32>, tensor<16xi32>) -> tensor<16xf32>
    %30 = tt.gather %c[%c_idx] {axis = 1 : i32, efficient_layout} : (tensor<16x16xf32>, tensor<16x4xi32>) -> tensor<16x4xf32>
    tt.print " x: " {hex = false, isSigned = array<i32: 0, 1>} : %t, %ti : tensor<16xf32>, tensor<16xi32>
    tt.print "hello" {hex = false, isSigned = array<i32>}
    tt.assert %m, "boom" : tensor<16xi1>
    tt.return %0 : i32
  }
}
`.replace('%one: tensor<1xf32>)', '%one: tensor<1xf32>, %c_idx: tensor<16x4xi32>, %bb8: tensor<8x16xi8>)');

/** Block pointers and tensor descriptors (an int8 host descriptor is typed si8, its blocks i8, as Triton 3.6 prints them). */
export const memoryText = `module {
  tt.func @k(%p: !tt.ptr<f16>, %s: i64, %o: i32, %x: tensor<32xi32>, %v: tensor<64x64xf16>, %r: tensor<32x64xf16>, %d8: !tt.tensordesc<tensor<64x256xsi8>>) {
    %0 = tt.make_tensor_ptr %p, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 1, 0>} : <tensor<64x64xf16>>
    %1 = tt.advance %0, [%o, %o] : <tensor<64x64xf16>>
    %2 = tt.load %1 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x64xf16>>
    tt.store %1, %2 {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<64x64xf16>>
    %3 = tt.make_tensor_descriptor %p, [%o, %o], [%s, %s] : <f16>, <tensor<64x64xf16>>
    %4 = tt.make_tensor_descriptor %p, [%o, %o], [%s, %s] {padding = 2 : i32} : <f16>, <tensor<1x64xf16>>
    %5 = tt.descriptor_load %3[%o, %o] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    %6 = tt.descriptor_load %3[%o, %o] cacheModifier = cg : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
    tt.descriptor_store %3[%o, %o], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    tt.descriptor_reduce add, %3[%o, %o], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
    %7 = tt.descriptor_gather %4[%x, %o] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<32xi32>, i32) -> tensor<32x64xf16>
    tt.descriptor_scatter %4[%x, %o], %r : !tt.tensordesc<tensor<1x64xf16>>, tensor<32xi32>, i32, tensor<32x64xf16>
    %8 = tt.descriptor_load %d8[%o, %o] : !tt.tensordesc<tensor<64x256xsi8>> -> tensor<64x256xi8>
    tt.return
  }
}
`;

// ---- cutting single ops out of real dumps -----------------------------------------------------

/** Removes every `loc(...)` (balanced) together with the space before it. */
export function stripLocs(s: string): string {
  let out = '';
  for (let k = 0; k < s.length; ) {
    if (s.startsWith(' loc(', k)) {
      let depth = 0;
      let j = k + 4;
      for (; j < s.length; j++) {
        if (s[j] === '(') depth++;
        else if (s[j] === ')' && --depth === 0) break;
      }
      k = j + 1;
      continue;
    }
    out += s[k++];
  }
  return out;
}

/** Removes layout encodings from tensor types: `tensor<4xf32, #blocked>` becomes `tensor<4xf32>`. */
export function stripEncodings(s: string): string {
  let out = '';
  for (let k = 0; k < s.length; ) {
    if (s.startsWith(', #', k) && insideTensor(out)) {
      let depth = 0;
      let j = k + 2;
      for (; j < s.length; j++) {
        const ch = s[j];
        if (ch === '<' || ch === '{' || ch === '(' || ch === '[') depth++;
        else if (ch === '>' || ch === '}' || ch === ')' || ch === ']') {
          if (depth === 0) break;
          depth--;
        }
      }
      k = j;
      continue;
    }
    out += s[k++];
  }
  return out;
}

function insideTensor(prefix: string): boolean {
  const open = prefix.lastIndexOf('tensor<');
  if (open < 0) return false;
  let depth = 0;
  for (let k = open + 6; k < prefix.length; k++) {
    if (prefix[k] === '<') depth++;
    else if (prefix[k] === '>') depth--;
  }
  return depth > 0;
}

/** The type text after the last top-level ` : ` of a custom-form op line. */
function typeTail(line: string): string {
  let depth = 0;
  let at = -1;
  for (let k = 0; k < line.length; k++) {
    const ch = line[k];
    if ('<({['.includes(ch)) depth++;
    else if ('>)}]'.includes(ch) && line[k - 1] !== '-') depth--;
    else if (depth === 0 && line.startsWith(' : ', k)) at = k + 3;
  }
  return at < 0 ? '' : line.slice(at);
}

/** Splits a comma-separated type list at top level. */
function splitTypes(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '<' || ch === '(') depth++;
    if (ch === '>' || ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const pointee = (p: string) => p.replace(/!tt\.ptr<([^<>]+)>/, '$1');
const boolOf = (p: string) => p.replace(/!tt\.ptr<([^<>]+)>/, 'i1');

/** Operand types of one tt op line, read from its own type signature (the ops the examples use). */
export function operandTypes(op: string, line: string): string[] {
  const tail = typeTail(line);
  switch (op) {
    case 'tt.splat':
    case 'tt.expand_dims':
    case 'tt.broadcast':
      return [tail.split(' -> ')[0]];
    case 'tt.addptr':
      return splitTypes(tail);
    case 'tt.load':
      return [tail, boolOf(tail), pointee(tail)];
    case 'tt.store':
      return [tail, pointee(tail), boolOf(tail)];
    case 'tt.dot': {
      const [ab, c] = tail.split(' -> ');
      return [...ab.split(' * '), c];
    }
    case 'tt.return':
      return splitTypes(tail);
    default:
      return [];
  }
}

/** SSA uses in an op line (after its `=`), in order, without duplicates. */
export function usesOf(line: string): string[] {
  const body = line.includes(' = ') ? line.slice(line.indexOf(' = ') + 3) : line;
  const out: string[] = [];
  for (const m of body.matchAll(/%[\w$.]+/g)) if (!out.includes(m[0])) out.push(m[0]);
  return out;
}
