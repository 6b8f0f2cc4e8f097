/** The end of every CLI's yargs setup (triton-opt's and triton-translate's full command-line readers). */
import type { Argv } from 'yargs';
import { UserError } from './input-chunks.js';

/**
 * Reads the command line with `y`'s options: unknown options are errors, `--version`, `--help`/`-h`
 * at the terminal's width, and a mistake becomes a `UserError` (`tool: error: ...`, exit 1).
 */
export function parseStrictly<T>(y: Argv<T>): ReturnType<Argv<T>['parseSync']> {
  return (
    y
      .strictOptions()
      .version('0.1.0')
      .help()
      .alias('h', 'help')
      // yargs wraps at 80 columns by default, inside words when a description is long; use the terminal's width.
      .wrap(Math.min(120, process.stdout.columns ?? 100))
      .fail((msg, err) => {
        throw new UserError(err?.message ?? msg);
      })
      .parseSync()
  );
}
