/**
 * Runs fuzz inputs in a worker thread with a time budget per input. A JavaScript infinite
 * loop cannot be interrupted from its own thread, so the inputs run in a worker
 * (node:worker_threads) that the main thread terminates when an input overruns: that input
 * is a hang, and a fresh worker takes the next one. A worker that dies (out of memory) makes
 * its input an internal error.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
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

/** The marker in `workerData` that makes a module loaded in a worker serve inputs. */
const WORKER_MARK = 'triton-ir-fuzz-worker';

/** The most memory (MiB) a worker's heap may take before its input counts as an internal error. */
const WORKER_HEAP_MB = 2048;

/**
 * When this module runs inside a fuzz worker, starts answering requests and returns true;
 * in the main thread returns false. The fuzz CLI calls it first thing.
 */
export function serveIfWorker(): boolean {
  if (isMainThread || workerData !== WORKER_MARK || !parentPort) return false;
  const port = parentPort;
  port.on('message', (r: Request) => {
    const reply: Reply = { id: r.id, outcome: TARGETS[r.target].run(r.text) };
    port.postMessage(reply);
  });
  return true;
}

/** Runs inputs one at a time in a worker that loads `script` (a module that calls `serveIfWorker`). */
export class FuzzRunner {
  private worker: Worker | null = null;
  private nextId = 0;
  /** How many workers were started (one more after each hang or crash). */
  workersStarted = 0;

  constructor(private readonly script: string | URL, private readonly timeoutMs: number) {}

  private start(): Worker {
    const w = new Worker(this.script, { workerData: WORKER_MARK, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB }, stdout: true, stderr: true });
    // A worker's own prints (a pass's debug output) are not the campaign's: drop them.
    w.stdout.resume();
    w.stderr.resume();
    w.unref();
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
          void worker.terminate();
          if (this.worker === worker) this.worker = null;
        }
        resolve(o);
      };
      const onMessage = (r: Reply): void => {
        if (r.id === id) finish(r.outcome, false);
      };
      const onError = (e: Error): void => finish({ class: 'internal', message: `worker died: ${e.message}` }, true);
      const onExit = (code: number): void => finish({ class: 'internal', message: `worker exited with code ${code}` }, true);
      const timer = setTimeout(() => finish({ class: 'hang', message: `no result within ${timeoutMs} ms` }, true), timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, target, text } satisfies Request);
    });
  }

  /** Stops the worker. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
