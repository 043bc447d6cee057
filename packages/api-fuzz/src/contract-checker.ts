// Checking responses against the document: every answer one its operation documents (status,
// media type, body, headers: documented-answers.ts), never a 5xx, errors in the envelope, no
// forbidden keys or texts.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { documentedAnswers, type Answer } from './documented-answers.js';
import type { Operation, Schema } from './openapi-operations.js';
import type { GeneratedRequest } from './requests.js';

export type { Answer } from './documented-answers.js';

export interface ContractChecker {
  /**
   * Fails unless: not a 5xx; the answer is one the operation documents (its status listed, the
   * body valid against that status's schema, the documented headers present and valid); an error
   * is JSON in the service's envelope; no body carries a forbidden key or text.
   */
  check(op: Operation, request: GeneratedRequest, answer: Answer): void;
  /** Statuses seen per operation, for the summary and the coverage assertions. */
  seen: Map<string, Map<number, number>>;
}

export function contractChecker(opts: {
  /** The service's error envelope (e.g. `{success:false, error, status_code}`). */
  envelope: Schema;
  /** JSON keys no response may contain (password hashes, internal fields). */
  forbiddenKeys: string[];
  /** Texts no response may contain (hash prefixes, stack traces, driver names). */
  forbiddenText: Array<string | RegExp>;
  /** An envelope field that must repeat the HTTP status (the shop's `status_code`). */
  statusField?: string;
}): ContractChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const envelope: ValidateFunction = ajv.compile(opts.envelope);
  const problemsOf = documentedAnswers();
  const seen = new Map<string, Map<number, number>>();

  const fail = (op: Operation, request: GeneratedRequest, answer: Answer, why: string): never => {
    throw new Error(
      `${op.operationId}: ${why}\n  request: ${request.method} ${request.url} (${request.mutated} mutated)` +
        `\n  headers: ${JSON.stringify(request.headers)}` +
        (request.payload !== undefined ? `\n  body: ${request.payload.slice(0, 500)}` : '') +
        `\n  answer: ${answer.statusCode} ${answer.body.slice(0, 500)}`,
    );
  };

  const check = (op: Operation, request: GeneratedRequest, answer: Answer) => {
    const counts = seen.get(op.operationId) ?? new Map<number, number>();
    counts.set(answer.statusCode, (counts.get(answer.statusCode) ?? 0) + 1);
    seen.set(op.operationId, counts);

    if (answer.statusCode >= 500) fail(op, request, answer, `server error ${answer.statusCode}`);
    for (const text of opts.forbiddenText) {
      if (typeof text === 'string' ? answer.body.includes(text) : text.test(answer.body)) {
        fail(op, request, answer, `response contains forbidden text ${String(text)}`);
      }
    }
    const problems = problemsOf(op, answer);
    if (problems.length > 0) fail(op, request, answer, problems.join('; '));
    const contentType = String(answer.headers['content-type'] ?? '');
    if (!contentType.startsWith('application/json')) return; // a CSV or XLSX download, a 304
    const body = parse(answer.body);
    if (answer.statusCode >= 400) {
      if (!envelope(body)) {
        fail(
          op,
          request,
          answer,
          `error body is not the envelope: ${ajv.errorsText(envelope.errors)}`,
        );
      }
      if (
        opts.statusField &&
        (body as Record<string, unknown>)[opts.statusField] !== answer.statusCode
      ) {
        fail(op, request, answer, `${opts.statusField} differs from the HTTP status`);
      }
    }
    forbiddenKeys(op, request, answer, body);
  };

  const forbiddenKeys = (
    op: Operation,
    request: GeneratedRequest,
    answer: Answer,
    body: unknown,
  ) => {
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        if (opts.forbiddenKeys.includes(key))
          fail(op, request, answer, `response carries the key ${key}`);
        walk(child);
      }
    };
    walk(body);
  };

  return { check, seen };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
