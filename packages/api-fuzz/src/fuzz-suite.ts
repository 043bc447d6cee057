// The fuzz tests of both services, declared once: one test per operation of the document (its
// requests generated, sent, checked and learnt from), then one that the run sent enough requests
// and that every operation answered both a success and a refusal. Each service gives its
// operations, its hints, how it sends, what it learns and its checker (made in its beforeAll).
import { describe, expect, it } from '@jest/globals';
import type { Answer, ContractChecker } from './contract-checker.js';
import { FUZZ_SCALE, FUZZ_SEED, fuzzOperation, scaledRuns } from './fuzz-operation.js';
import type { Operation } from './openapi-operations.js';
import type { GeneratedRequest } from './requests.js';
import type { Hint } from './valid-values.js';

export function describeFuzzing(opts: {
  /** How the tests and the log name the service and its document. */
  name: string;
  document: string;
  operations: Operation[];
  /** Full runs per operation (FUZZ_SCALE of them are sent). */
  runsOf: (op: Operation) => number;
  /** Requests of all operations together at full scale, at least. */
  minimumRequests: number;
  hint: Hint;
  send: (op: Operation, request: GeneratedRequest) => Promise<Answer>;
  learn?: (op: Operation, request: GeneratedRequest, answer: Answer) => void;
  checker: () => ContractChecker;
  /** Operations the fuzzer cannot make succeed (their body is a file): a refusal is enough. */
  refusalOnly?: string[];
}): void {
  const { operations } = opts;
  let total = 0;
  describe(`fuzzing the ${opts.name} from ${opts.document} (seed ${FUZZ_SEED}, scale ${FUZZ_SCALE})`, () => {
    it.each(operations.map((op, index) => [`${op.method} ${op.route}`, op, index] as const))(
      '%s: never a 5xx; 4xx in the envelope; 2xx valid against the contract',
      async (_name, op, index) => {
        total += await fuzzOperation({
          op,
          index,
          runs: scaledRuns(opts.runsOf(op)),
          hint: opts.hint,
          send: opts.send,
          checker: opts.checker(),
          ...(opts.learn ? { learn: opts.learn } : {}),
        });
      },
    );

    it(`sent at least ${opts.minimumRequests.toLocaleString('en')} requests (times FUZZ_SCALE), and every operation answered both a success and a refusal`, () => {
      const checker = opts.checker();
      expect(total).toBeGreaterThanOrEqual(Math.floor(opts.minimumRequests * FUZZ_SCALE));
      const summary = operations.map((op) => {
        const statuses = [
          ...(checker.seen.get(op.operationId) ?? new Map<number, number>()).keys(),
        ];
        return {
          operation: op.operationId,
          success:
            (opts.refusalOnly ?? []).includes(op.operationId) || statuses.some((s) => s < 300),
          refusal: op.parameters.length > 0 || op.body ? statuses.some((s) => s >= 400) : true,
        };
      });
      expect(summary.filter((s) => !s.success || !s.refusal)).toEqual([]);
      console.log(
        `${opts.name} fuzzing: ${total} requests (seed ${FUZZ_SEED}, scale ${FUZZ_SCALE}); statuses per operation:\n` +
          operations
            .map((op) => {
              const seen = [...(checker.seen.get(op.operationId) ?? new Map<number, number>())];
              const statuses = seen.sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
              return `  ${op.operationId.padEnd(24)} ${statuses.join(' ')}`;
            })
            .join('\n'),
      );
    });
  });
}
