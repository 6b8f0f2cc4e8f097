/**
 * Delta debugging (Zeller's ddmin, complement-first): shrinks a failing input while a test
 * says the failure is still the same one. Lines first, then characters; bounded by a number
 * of test runs so that a slow failure (a hang) cannot stall a campaign.
 */

/** Tells whether a candidate input still fails the same way. */
export type StillFails = (text: string) => Promise<boolean>;

/** Limits of a minimization. */
export interface MinimizeOptions {
  /** The most test runs (default 2000). */
  maxTests?: number;
}

/** Shrinks `units` (joined by `sep`) with ddmin; returns the smallest failing list found within the budget. */
async function ddmin(units: string[], sep: string, stillFails: StillFails, budget: { left: number }): Promise<string[]> {
  let n = 2;
  while (units.length >= 2 && budget.left > 0) {
    const chunk = Math.ceil(units.length / n);
    let reduced = false;
    // Try removing each chunk (the complement); a smaller failing list restarts at the same granularity.
    for (let start = 0; start < units.length && budget.left > 0; start += chunk) {
      const candidate = [...units.slice(0, start), ...units.slice(start + chunk)];
      if (!candidate.length) continue;
      budget.left--;
      if (await stillFails(candidate.join(sep))) {
        units = candidate;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (reduced) continue;
    if (n >= units.length) break;
    n = Math.min(units.length, n * 2);
  }
  return units;
}

/**
 * The smallest input found that still fails (by `stillFails`): ddmin on lines, then on the
 * characters of what is left. `text` itself must fail; the result always does.
 */
export async function minimize(text: string, stillFails: StillFails, options: MinimizeOptions = {}): Promise<string> {
  const budget = { left: options.maxTests ?? 2000 };
  const lines = await ddmin(text.split('\n'), '\n', stillFails, budget);
  const chars = await ddmin([...lines.join('\n')], '', stillFails, budget);
  return chars.join('');
}
