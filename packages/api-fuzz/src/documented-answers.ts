// Whether an answer is one its operation's document lists: its status, its media type, its body
// against the documented schema and its headers (those every such answer carries present, each
// documented one valid). The fuzzer's contract checker and any test's answers use it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Operation } from './openapi-operations.js';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** What is wrong with an answer by its operation's document (nothing: it is documented). */
export type AnswerProblems = (op: Operation, answer: Answer) => string[];

/** A checker of answers against their operations' documented responses. */
export function documentedAnswers(): AnswerProblems {
  const bodies = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
  // Header values arrive as text: `Retry-After: 60` is the integer 60.
  const headers = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
  const validators = new Map<object, ValidateFunction>();
  const bodyValidator = (schema: object) => {
    let validate = validators.get(schema);
    if (!validate) validators.set(schema, (validate = bodies.compile(schema)));
    return validate;
  };
  // A header's value is checked as a property, so that it can be coerced.
  const headerValidator = (schema: object) => {
    let validate = validators.get(schema);
    if (!validate) {
      validate = headers.compile({ type: 'object', properties: { value: schema } });
      validators.set(schema, validate);
    }
    return validate;
  };

  return (op, answer) => {
    const status = String(answer.statusCode);
    const content = op.responses[status];
    if (content === undefined) {
      return [`status ${status} is not documented (${Object.keys(op.responses).join(', ')})`];
    }
    const problems: string[] = [];
    const mediaTypes = Object.keys(content);
    const contentType = String(answer.headers['content-type'] ?? '');
    if (answer.body.length === 0) {
      if (mediaTypes.length > 0) problems.push(`no body, documented: ${mediaTypes.join(', ')}`);
    } else {
      const mediaType = mediaTypes.find((type) => contentType.startsWith(type));
      if (!mediaType) {
        problems.push(`content type ${contentType || 'none'} is not documented`);
      } else if (mediaType === 'application/json' && content[mediaType]?.schema) {
        const validate = bodyValidator(content[mediaType].schema);
        const body = parse(answer.body);
        if (body === undefined) problems.push('body is not JSON');
        else if (!validate(body)) {
          problems.push(`body breaks the schema: ${bodies.errorsText(validate.errors)}`);
        }
      }
    }
    for (const [name, header] of Object.entries(op.responseHeaders[status] ?? {})) {
      const value = answer.headers[name];
      if (value === undefined) {
        if (header.required) problems.push(`header ${name} missing`);
        continue;
      }
      if (!header.schema) continue;
      const validate = headerValidator(header.schema);
      if (!validate({ value: Array.isArray(value) ? value.join(', ') : value })) {
        problems.push(`header ${name}: ${headers.errorsText(validate.errors)}`);
      }
    }
    return problems;
  };
}

/**
 * What is wrong with a request body by its operation's document (nothing: a validator driven by
 * the document accepts it), e.g. a record sent back as the service showed it.
 */
export function documentedBodies(): (op: Operation, body: unknown) => string[] {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
  const validators = new Map<object, ValidateFunction>();
  return (op, body) => {
    if (!op.body) return ['the operation takes no body'];
    let validate = validators.get(op.body);
    if (!validate) validators.set(op.body, (validate = ajv.compile(op.body)));
    return validate(body) ? [] : [ajv.errorsText(validate.errors)];
  };
}

/**
 * The operation of a request, by method and path (`/products/12?page=2` is `GET
 * /products/{id}`); a literal segment wins over a parameter (`/api/users/export`). Undefined for
 * a path the document does not have (an unknown route, the documentation itself).
 */
export function operationMatcher(operations: Operation[]) {
  const routes = operations
    .map((op) => ({
      op,
      pattern: new RegExp(`^${op.route.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literal: op.route.split('/').filter((segment) => !segment.startsWith('{')).length,
    }))
    .sort((a, b) => b.literal - a.literal);
  return (method: string, url: string): Operation | undefined => {
    const path = url.split('?')[0] ?? '';
    return routes.find((r) => r.op.method === method.toUpperCase() && r.pattern.test(path))?.op;
  };
}

type InjectOptions = string | { method?: string; url?: string; path?: string };
type Injected = { statusCode: number; headers: Answer['headers']; body: string };

/**
 * A log of the answers apps give, each checked against its operation in the document: `watch`
 * an app (a test's real app) and every answer it gives through `app.inject` from then on is
 * checked as it comes back; the app answers as always. Requests to paths the document does not
 * have are not operations and pass. `problems` lists each answer the document does not list,
 * with its request, for a test to assert empty.
 */
export function answerLog(operations: Operation[]) {
  const problemsOf = documentedAnswers();
  const operationOf = operationMatcher(operations);
  const problems: string[] = [];
  let checked = 0;
  const record = (opts: InjectOptions, answer: Injected) => {
    const method = typeof opts === 'string' ? 'GET' : (opts.method ?? 'GET');
    const url = typeof opts === 'string' ? opts : (opts.url ?? opts.path ?? '/');
    const op = operationOf(method, url);
    if (!op) return;
    checked += 1;
    for (const problem of problemsOf(op, answer)) {
      problems.push(`${method} ${url.slice(0, 120)} → ${answer.statusCode}: ${problem}`);
    }
  };
  return {
    problems,
    /** How many answers were operations' (and so checked). */
    get checked() {
      return checked;
    },
    watch<App extends { inject: unknown }>(app: App): App {
      const inject = (app.inject as (opts?: InjectOptions) => unknown).bind(app);
      app.inject = (opts?: InjectOptions) => {
        if (opts === undefined) return inject(); // the chained form, which no test uses
        return (inject(opts) as Promise<Injected>).then((answer) => {
          record(opts, answer);
          return answer;
        });
      };
      return app;
    },
  };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
