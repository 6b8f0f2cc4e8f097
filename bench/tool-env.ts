/**
 * The environment the benchmarks run our CLIs in. With NODE_EXTRA_CA_CERTS set, Node reads and
 * parses that certificate bundle when it starts, before any of our code runs (~80 ms of every
 * process on the 2-core development machine, whose environment sets it); our tools open no TLS
 * connection. The benchmarks leave it out so that they time the tool, and say so.
 */
const { NODE_EXTRA_CA_CERTS: extraCerts, ...rest } = process.env;

/** process.env without NODE_EXTRA_CA_CERTS. */
export const TOOL_ENV: NodeJS.ProcessEnv = rest;

/** A line for the benchmark's header when NODE_EXTRA_CA_CERTS was set and left out; null otherwise. */
export function toolEnvNote(): string | null {
  if (extraCerts === undefined) return null;
  return `NODE_EXTRA_CA_CERTS is set here (${extraCerts}); left out of the timed processes (Node loads it at start-up, our tools never use it)`;
}
