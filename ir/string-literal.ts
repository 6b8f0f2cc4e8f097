/** MLIR string literals: which escapes are valid, and the bytes a literal stands for. */
import { utf8Bytes } from './attributes.js';

/** Offset (within `image`) of the first invalid escape, or -1. MLIR accepts `\"`, `\\`, `\n`, `\t` and `\XX` hex bytes. */
export function badEscape(image: string): number {
  for (let k = image.indexOf('\\'); k >= 0 && k < image.length; k = image.indexOf('\\', k + 2)) {
    const n = image[k + 1];
    if (n === '"' || n === '\\' || n === 'n' || n === 't') continue;
    if (/^[0-9a-fA-F]{2}$/.test(image.slice(k + 1, k + 3))) {
      k++;
      continue;
    }
    return k;
  }
  return -1;
}

/**
 * Decodes a string literal into its bytes (one character each, as `StringAttr` holds them): MLIR's
 * escapes `\"`, `\\`, `\n`, `\t` and `\XX` give one byte, any other character its UTF-8 bytes.
 */
export function unescapeString(image: string): string {
  const body = image.slice(1, -1);
  // eslint-disable-next-line no-control-regex
  if (!body.includes('\\')) return /^[\x00-\x7f]*$/.test(body) ? body : utf8Bytes(body);
  let out = '';
  for (let k = 0; k < body.length; k++) {
    const c = body[k];
    if (c !== '\\') {
      const code = c.charCodeAt(0);
      if (code < 0x80) out += c;
      else if (code >= 0xd800 && code < 0xdc00) out += utf8Bytes(body.slice(k, ++k + 1));
      else out += utf8Bytes(c);
      continue;
    }
    const n = body[++k];
    if (n === 'n') out += '\n';
    else if (n === 't') out += '\t';
    else if (n === '"' || n === '\\') out += n;
    else {
      out += String.fromCharCode(parseInt(body.slice(k, k + 2), 16));
      k++;
    }
  }
  return out;
}
