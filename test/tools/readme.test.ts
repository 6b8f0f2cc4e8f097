/**
 * Every command README.md shows runs as written: each line of each ```sh block, and the command in
 * the last column of the Status table, exits 0. They run in order (a block may use what an earlier
 * line wrote) in a scratch folder that links to the checkout's top-level entries, so files they
 * write land there and are removed; the checkout's `git status` must be the same afterwards.
 *
 * `npx NAME` runs the package's own bin NAME as `npx` does in this checkout (the file package.json's
 * `bin` gives, with node), without npm's start-up. A block the test cannot run (it installs
 * packages, or runs the whole test suite) is marked in README.md by the line before its fence,
 * `<!-- readme-test: skip: REASON -->`, and is reported as skipped with its reason.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const README = readFileSync(join(root, 'README.md'), 'utf8');

/** One command of the README, with the line it starts on. */
interface ReadmeCommand {
  line: number;
  text: string;
}

/** A ```sh block: its commands, or why it is skipped. */
interface ShBlock {
  line: number;
  commands: ReadmeCommand[];
  skip: string | null;
}

/** The ```sh blocks of `markdown` (fences may be indented, as in a numbered list). */
export function shBlocks(markdown: string): ShBlock[] {
  const lines = markdown.split('\n');
  const out: ShBlock[] = [];
  for (let k = 0; k < lines.length; k++) {
    if (lines[k].trim() !== '```sh') continue;
    const before = lines.slice(0, k).reverse().find((l) => l.trim() !== '') ?? '';
    const skip = /<!-- readme-test: skip: (.+?) -->/.exec(before)?.[1] ?? null;
    const block: ShBlock = { line: k + 1, commands: [], skip };
    let pending: ReadmeCommand | null = null;
    for (k++; k < lines.length && lines[k].trim() !== '```'; k++) {
      const text = lines[k].trim();
      if (!pending && text === '') continue;
      const cont: ReadmeCommand = pending ? { line: pending.line, text: pending.text + ' ' + text } : { line: k + 1, text };
      pending = null;
      if (cont.text.endsWith('\\')) pending = { line: cont.line, text: cont.text.slice(0, -1).trimEnd() };
      else block.commands.push(cont);
    }
    out.push(block);
  }
  return out;
}

/** The commands in the last column of the Status table (inline code starting with `npx`). */
export function statusCommands(markdown: string): ReadmeCommand[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === '## Status');
  const out: ReadmeCommand[] = [];
  for (let k = start + 1; k < lines.length && !lines[k].startsWith('## '); k++) {
    if (!lines[k].startsWith('|')) continue;
    const cells = lines[k].split(' | ');
    const m = /^`(npx .*)` \|$/.exec(cells[cells.length - 1].trim());
    if (m) out.push({ line: k + 1, text: m[1] });
  }
  return out;
}

/** `command` with a leading `npx NAME` replaced by `node` and the package's bin NAME. */
function resolveNpx(command: string, bins: Record<string, string>): string {
  return command.replace(/(^|&& |\| )npx ([\w-]+)/g, (_m, lead: string, name: string) => {
    if (!bins[name]) throw new Error(`README runs 'npx ${name}', which is not a bin of this package`);
    return `${lead}node ${JSON.stringify(join(root, bins[name]))}`;
  });
}

/** The checkout's `git status`, to show that nothing was left behind. */
function gitStatus(): string {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
}

test('the README parser finds blocks, joins continued lines and reads skip markers', () => {
  const md = ['intro', '<!-- readme-test: skip: needs a GPU -->', '```sh', 'a \\', '  b', '```', '  ```sh', '  c # note', '', '  d', '  ```', '```js', 'e', '```'].join('\n');
  assert.equal(shBlocks(md), [
    { line: 3, commands: [{ line: 4, text: 'a b' }], skip: 'needs a GPU' },
    { line: 7, commands: [{ line: 8, text: 'c # note' }, { line: 10, text: 'd' }], skip: null },
  ]);
  const table = ['## Status', '| a | b | try |', '| --- | --- | --- |', '| x | y | `npx t --f` |', '| z | w | see docs |', '## Next', '| q | `npx no` |'].join('\n');
  assert.equal(statusCommands(table), [{ line: 4, text: 'npx t --f' }]);
});

test('every command in README.md runs as written and leaves nothing behind', () => {
  const bins = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
  const blocks = shBlocks(README);
  const commands = [...statusCommands(README), ...blocks.filter((b) => !b.skip).flatMap((b) => b.commands)];
  for (const b of blocks.filter((b) => b.skip)) console.log(`  README.md:${b.line}: skipped block (${b.skip})`);
  // Not vacuous: the Status table and the usage sections have their commands.
  assert.ok(statusCommands(README).length >= 7, 'the Status table has a command per row');
  assert.ok(commands.length >= 25, `${commands.length} commands found`);
  const before = gitStatus();
  const scratch = mkdtempSync(join(tmpdir(), 'readme-'));
  try {
    for (const entry of readdirSync(root)) if (entry !== '.git') symlinkSync(join(root, entry), join(scratch, entry));
    for (const c of commands) {
      const r = spawnSync('bash', ['-o', 'pipefail', '-c', resolveNpx(c.text, bins)], { cwd: scratch, encoding: 'utf8', timeout: 120_000, maxBuffer: 256 << 20 });
      assert.is(r.status, 0, `README.md:${c.line}: \`${c.text}\` exited ${r.status ?? r.signal}\n${(r.stderr ?? '').slice(-2000)}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  assert.is(gitStatus(), before, 'the commands changed nothing in the checkout');
});

test.run();
