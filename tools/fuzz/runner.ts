/**
 * Runs fuzz inputs in a child process with a time budget per input. A JavaScript infinite
 * loop cannot be interrupted from its own thread, so the inputs run in a child process that the
 * campaign kills when an input overruns: that input is a hang, and a fresh child takes the next
 * one. A child that dies makes its input an internal error. It is a process, not a worker thread:
 * V8 aborts the whole process on some allocation failures ("invalid table size" when an object
 * gets billions of elements), which in a worker thread took the campaign down with it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Outcome } from './outcome.js';
import { TARGETS, type TargetName } from './targets.js';

/** A request to the worker. */
interface Request {
  id: number;
  target: TargetName;
  text: string;
}

/** A worker's answer. */
interface Reply {
  id: number;
  outcome: Outcome;
}

/** The environment variable that makes the fuzz CLI, started as a child, serve inputs. */
const CHILD_MARK = 'TRITON_IR_FUZZ_CHILD';

/** The most memory (MiB) a child's heap may take before its input counts as an internal error. */
const CHILD_HEAP_MB = 2048;

/**
 * When this process is a fuzz child, starts answering requests and returns true; otherwise
 * returns false. The fuzz CLI calls it first thing.
 */
export function serveIfWorker(): boolean {
  if (process.env[CHILD_MARK] !== '1' || !process.send) return false;
  process.on('message', (r: Request) => {
    const reply: Reply = { id: r.id, outcome: TARGETS[r.target].run(r.text) };
    process.send!(reply);
  });
  // The campaign's end (its IPC channel closing) ends the child.
  process.on('disconnect', () => process.exit(0));
  return true;
}

/** Runs inputs one at a time in a child process running `script` (a module that calls `serveIfWorker`). */
export class FuzzRunner {
  private worker: ChildProcess | null = null;
  private nextId = 0;
  /** How many children were started (one more after each hang or crash). */
  workersStarted = 0;

  constructor(private readonly script: string, private readonly timeoutMs: number) {}

  private start(): ChildProcess {
    // A child's own prints (a pass's debug output, V8's fatal error report) are not the campaign's: dropped.
    const w = fork(this.script, [], {
      env: { ...process.env, [CHILD_MARK]: '1' },
      execArgv: [`--max-old-space-size=${CHILD_HEAP_MB}`],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
    });
    w.unref();
    w.channel?.unref();
    this.workersStarted++;
    return w;
  }

  /** Runs `text` through `target`: its outcome, a hang after the time budget, or an internal error if the worker dies. */
  run(target: TargetName, text: string, timeoutMs = this.timeoutMs): Promise<Outcome> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<Outcome>((resolve) => {
      const finish = (o: Outcome, kill: boolean): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (kill) {
          worker.kill('SIGKILL');
          if (this.worker === worker) this.worker = null;
        }
        resolve(o);
      };
      const onMessage = (r: Reply): void => {
        if (r.id === id) finish(r.outcome, false);
      };
      const onError = (e: Error): void => finish({ class: 'internal', message: `fuzz child failed: ${e.message}` }, true);
      const onExit = (code: number | null, signal: string | null): void =>
        finish({ class: 'internal', message: `fuzz child died (${signal ? `signal ${signal}` : `exit code ${code}`})` }, true);
      const timer = setTimeout(() => finish({ class: 'hang', message: `no result within ${timeoutMs} ms` }, true), timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.send({ id, target, text } satisfies Request);
    });
  }

  /** Stops the child. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w && w.exitCode === null) {
      const gone = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      w.ref(); // until its exit is seen
      w.kill('SIGKILL');
      await gone;
    }
  }
}
