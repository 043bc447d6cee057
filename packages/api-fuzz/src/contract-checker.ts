// Checking responses against the document with Ajv (JSON Schema 2020-12): documented statuses and
// bodies, the error envelope, no forbidden keys or texts.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Operation, Schema } from './openapi-operations.js';
import type { GeneratedRequest } from './requests.js';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export interface ContractChecker {
  /**
   * Fails unless: not a 5xx; a 2xx is documented and its body valid against the documented
   * schema; a 4xx is in the error envelope (the operation's documented schema for that status,
   * else the service's envelope); no body carries a forbidden key or text.
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
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
  const cache = new Map<object, ValidateFunction>();
  const compile = (schema: object) => {
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      cache.set(schema, validate);
    }
    return validate;
  };
  const envelope = compile(opts.envelope);
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
    const contentType = String(answer.headers['content-type'] ?? '');
    const documented = op.responses[String(answer.statusCode)];
    for (const text of opts.forbiddenText) {
      if (typeof text === 'string' ? answer.body.includes(text) : text.test(answer.body)) {
        fail(op, request, answer, `response contains forbidden text ${String(text)}`);
      }
    }
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      if (!documented)
        fail(op, request, answer, `undocumented success status ${answer.statusCode}`);
      const mediaType = Object.keys(documented!).find((type) => contentType.startsWith(type));
      if (!mediaType) fail(op, request, answer, `undocumented content type ${contentType}`);
      if (mediaType !== 'application/json') return; // a CSV download: a string by its schema
      const body = parse(answer.body) ?? fail(op, request, answer, 'success body is not JSON');
      const validate = compile(documented![mediaType]!.schema as object);
      if (!validate(body)) {
        fail(
          op,
          request,
          answer,
          `success body breaks the contract: ${ajv.errorsText(validate.errors)}`,
        );
      }
      forbiddenKeys(op, request, answer, body);
      return;
    }
    if (answer.statusCode >= 400) {
      if (!contentType.startsWith('application/json'))
        fail(op, request, answer, `error is not JSON (${contentType})`);
      const body = parse(answer.body) ?? fail(op, request, answer, 'error body is not JSON');
      const schema = documented?.['application/json']?.schema;
      const validate = schema ? compile(schema) : envelope;
      if (!validate(body)) {
        fail(
          op,
          request,
          answer,
          `error body is not the envelope: ${ajv.errorsText(validate.errors)}`,
        );
      }
      if (
        opts.statusField &&
        (body as Record<string, unknown>)[opts.statusField] !== answer.statusCode
      ) {
        fail(op, request, answer, `${opts.statusField} differs from the HTTP status`);
      }
      forbiddenKeys(op, request, answer, body);
      return;
    }
    fail(op, request, answer, `unexpected status ${answer.statusCode}`);
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
