/**
 * `npm run docs`: writes the generated dialect reference (docs/dialects/<dialect>.md and its
 * index README.md, from `tools/dialect-doc.ts`) and removes pages of dialects that no longer exist.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dialectDocFiles } from './dialect-doc.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = dialectDocFiles();
const dir = join(root, 'docs/dialects');
mkdirSync(dir, { recursive: true });
for (const name of readdirSync(dir)) {
  if (name.endsWith('.md') && !files.has(`docs/dialects/${name}`)) rmSync(join(dir, name));
}
for (const [path, text] of files) writeFileSync(join(root, path), text);
process.stdout.write(`wrote ${files.size} files to docs/dialects/\n`);
