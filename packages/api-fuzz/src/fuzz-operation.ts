// The runner: one operation's generated requests sent, checked and learnt from, reproducibly.
import { expect } from '@jest/globals';
import fc from 'fast-check';
import type { Answer, ContractChecker } from './contract-checker.js';
import type { Operation } from './openapi-operations.js';
import { requestsFor, type GeneratedRequest } from './requests.js';
import type { Hint } from './valid-values.js';

/** Seed of the run: FUZZ_SEED when set (to reproduce a failure), else a fixed one. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_521);

/**
 * How many of an operation's full runs a test sends: FUZZ_SCALE (0 < scale ≤ 1) of them, a
 * quarter by default. `pnpm test` sends the quarter (every operation still answers a success and
 * a refusal); the full runs, thousands of requests per service, are `pnpm bench --only L-FUZZ`.
 */
export const FUZZ_SCALE = Math.min(1, Math.max(0.01, Number(process.env.FUZZ_SCALE ?? 0.25)));

/** `runs` scaled by FUZZ_SCALE, at least 1. */
export const scaledRuns = (runs: number) => Math.max(1, Math.round(runs * FUZZ_SCALE));

/**
 * Runs `runs` generated requests of one operation through `send` and `checker`. Reproducible: the
 * seed is FUZZ_SEED plus the operation's index; a failure names the seed and the request.
 */
export async function fuzzOperation(opts: {
  op: Operation;
  index: number;
  runs: number;
  hint: Hint;
  send: (op: Operation, request: GeneratedRequest) => Promise<Answer>;
  checker: ContractChecker;
  /** Learns ids and tokens from answers, so later requests reach existing records. */
  learn?: (op: Operation, request: GeneratedRequest, answer: Answer) => void;
}): Promise<number> {
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(requestsFor(opts.op, opts.hint), async (request) => {
      const answer = await opts.send(opts.op, request);
      sent += 1;
      opts.checker.check(opts.op, request, answer);
      opts.learn?.(opts.op, request, answer);
    }),
    // No shrinking: the database moves on between runs, so the first failure is the clearest.
    { seed: FUZZ_SEED + opts.index, numRuns: opts.runs, endOnFailure: true },
  );
  expect(sent).toBe(opts.runs);
  return sent;
}
