/**
 * TTGIR text of a row-major pointer tensor, for target tests that write kernels as text.
 */

/** Ops defining `%<name>`: the pointers `%<base> + i * cols + j` of a rows x cols f16 tensor in `layout`. */
export function rowMajorPointers(name: string, base: string, rows: number, cols: number, layout: string): string {
  return `
    %${name}r = tt.make_range {end = ${rows} : i32, start = 0 : i32} : tensor<${rows}xi32, #ttg.slice<{dim = 1, parent = ${layout}}>>
    %${name}c = tt.make_range {end = ${cols} : i32, start = 0 : i32} : tensor<${cols}xi32, #ttg.slice<{dim = 0, parent = ${layout}}>>
    %${name}r1 = tt.expand_dims %${name}r {axis = 1 : i32} : tensor<${rows}xi32, #ttg.slice<{dim = 1, parent = ${layout}}>> -> tensor<${rows}x1xi32, ${layout}>
    %${name}w = arith.constant dense<${cols}> : tensor<${rows}x1xi32, ${layout}>
    %${name}ro = arith.muli %${name}r1, %${name}w : tensor<${rows}x1xi32, ${layout}>
    %${name}c1 = tt.expand_dims %${name}c {axis = 0 : i32} : tensor<${cols}xi32, #ttg.slice<{dim = 0, parent = ${layout}}>> -> tensor<1x${cols}xi32, ${layout}>
    %${name}o0 = tt.broadcast %${name}ro : tensor<${rows}x1xi32, ${layout}> -> tensor<${rows}x${cols}xi32, ${layout}>
    %${name}o1 = tt.broadcast %${name}c1 : tensor<1x${cols}xi32, ${layout}> -> tensor<${rows}x${cols}xi32, ${layout}>
    %${name}o = arith.addi %${name}o0, %${name}o1 : tensor<${rows}x${cols}xi32, ${layout}>
    %${name}s = tt.splat %${base} : !tt.ptr<f16> -> tensor<${rows}x${cols}x!tt.ptr<f16>, ${layout}>
    %${name} = tt.addptr %${name}s, %${name}o : tensor<${rows}x${cols}x!tt.ptr<f16>, ${layout}>, tensor<${rows}x${cols}xi32, ${layout}>`;
}
