#!/usr/bin/env node
// `npm run setup:llvm`: installs the optional package llvm-bindings (used by `triton-translate
// --to-llvm`, docs/llvm.md) into node_modules without touching package.json or package-lock.json.
// It builds from source with cmake-js against LLVM 14, which takes minutes, so it is not part of
// `npm ci`. Needs llvm-config-14 (apt-get install llvm-14-dev), cmake and g++.
//
// The built addon is cached outside the checkout (TRITON_IR_CACHE, else $XDG_CACHE_HOME or
// ~/.cache, under triton-ir/), keyed by the package version, Node's ABI, the platform and LLVM's
// version, so a fresh clone on the same machine (CI) installs it in seconds: the package's files
// come from npm with --ignore-scripts and the cached addon is copied in. Whatever is installed is
// loaded once in a child process before this script says it worked; a failure removes it again.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '0.4.2';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packageDir = join(root, 'node_modules', 'llvm-bindings');
const addon = join(packageDir, 'build', 'Release', 'llvm-bindings.node');

/** Runs a command (output shown), returns whether it succeeded. */
function run(command, args, options = {}) {
  const r = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  return !r.error && r.status === 0;
}

/** The first line of a command's output, or null where it does not run. */
function output(command, args) {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  return r.error || r.status !== 0 ? null : r.stdout.trim();
}

function fail(message) {
  process.stderr.write(`setup:llvm: error: ${message}\n`);
  process.exit(1);
}

/** Whether the installed package loads (in a child: a broken addon may crash the process). */
function loads() {
  const r = spawnSync(process.execPath, ['-e', "const l = require('llvm-bindings'); new l.LLVMContext();"], { cwd: root, encoding: 'utf8' });
  return r.status === 0;
}

/** The installed version, or null. */
function installedVersion() {
  const r = spawnSync(process.execPath, ['-p', "require('llvm-bindings/package.json').version"], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

const llvmVersion = output('llvm-config-14', ['--version']);
const missing = [
  ...(llvmVersion ? [] : ['llvm-config-14 (llvm-14-dev)']),
  ...(output('cmake', ['--version']) ? [] : ['cmake']),
  ...(output('g++', ['--version']) ? [] : ['g++']),
].join(', ');
if (missing) fail(`llvm-bindings builds against LLVM 14 and needs ${missing}: apt-get install llvm-14-dev cmake g++`);

if (installedVersion() === VERSION && loads()) {
  process.stdout.write(`setup:llvm: llvm-bindings ${VERSION} is installed and loads\n`);
  process.exit(0);
}

const cacheRoot = process.env.TRITON_IR_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'triton-ir');
const key = `llvm-bindings-${VERSION}-node-abi${process.versions.modules}-${process.platform}-${process.arch}-llvm${llvmVersion}`;
const cached = join(cacheRoot, key, 'llvm-bindings.node');
// llvm-bindings' cmake-js looks for LLVM through llvm-config on PATH; LLVM 14's lives here on Debian and Ubuntu.
const env = { ...process.env, PATH: `/usr/lib/llvm-14/bin:${process.env.PATH}` };
const npmInstall = (extra) => run('npm', ['install', '--no-save', '--foreground-scripts', '--no-audit', '--no-fund', ...extra, `llvm-bindings@${VERSION}`], { env });

/** Removes a failed install, so that nothing half-built stays in node_modules. */
function removeInstall() {
  rmSync(packageDir, { recursive: true, force: true });
}

if (existsSync(cached)) {
  process.stdout.write(`setup:llvm: using the addon built before (${cached})\n`);
  if (npmInstall(['--ignore-scripts'])) {
    mkdirSync(dirname(addon), { recursive: true });
    copyFileSync(cached, addon);
    if (loads()) {
      process.stdout.write(`setup:llvm: llvm-bindings ${VERSION} is installed and loads\n`);
      process.exit(0);
    }
  }
  process.stdout.write('setup:llvm: the cached addon does not load; building it again\n');
  rmSync(dirname(cached), { recursive: true, force: true });
  removeInstall();
}

process.stdout.write(`setup:llvm: building llvm-bindings ${VERSION} against LLVM ${llvmVersion} (this takes minutes)\n`);
if (!npmInstall([]) || !loads()) {
  removeInstall();
  fail('llvm-bindings did not build or does not load (see the output above); nothing was left installed');
}
try {
  mkdirSync(dirname(cached), { recursive: true });
  copyFileSync(addon, `${cached}.partial`);
  renameSync(`${cached}.partial`, cached);
  process.stdout.write(`setup:llvm: cached the addon in ${cached}\n`);
} catch (e) {
  process.stdout.write(`setup:llvm: could not cache the addon (${e.message}); the install itself is fine\n`);
}
process.stdout.write(`setup:llvm: llvm-bindings ${VERSION} is installed and loads\n`);
