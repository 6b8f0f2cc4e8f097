/**
 * Process-wide uniquing of immutable IR objects (types and attributes), so they compare by
 * identity and carry a small integer `id` that cheap hash keys can be built from.
 */

let nextId = 1;
const table = new Map<string, unknown>();

/** Returns the object stored under `key`, creating it with `make` the first time. */
export function unique<T>(key: string, make: () => T): T {
  const found = table.get(key);
  if (found !== undefined) return found as T;
  const made = make();
  table.set(key, made);
  return made;
}

/** A fresh identifier for a newly uniqued object. */
export function freshId(): number {
  return nextId++;
}

/** Number of uniqued objects; for benchmarks and leak checks. */
export function uniquedCount(): number {
  return table.size;
}
