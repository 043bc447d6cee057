// Property-based fuzzing of every operation in openapi/handler-directory.json (see
// packages/api-fuzz): 2,000 generated requests or more at full scale (a quarter in
// `pnpm test`: FUZZ_SCALE; `pnpm bench --only L-FUZZ` sends them all), seeded (FUZZ_SEED
// reproduces a run), valid and mutated. Never a 5xx; every 4xx in the German error envelope;
// every 2xx valid against the document; no response carries a password hash or internal field.
import { afterAll, beforeAll } from '@jest/globals';
import fc from 'fast-check';
import { createTestApp, ADMIN, type TestApp } from './support/app.js';
import { createHandler } from './support/handlers.js';
import {
  contractChecker,
  describeFuzzing,
  operationsOf,
  readDocument,
  type Answer,
  type ContractChecker,
  type GeneratedRequest,
  type Hint,
  type Operation,
} from '@dogshop/api-fuzz';

import { bearer } from './support/tokens.js';

const operations = operationsOf(
  readDocument(new URL('../../../openapi/handler-directory.json', import.meta.url)),
);

/** Runs per operation; login hashes passwords, so it gets fewer. */
const runsOf = (op: Operation) =>
  op.operationId === 'login'
    ? 100
    : ['getHealth', 'getReadiness'].includes(op.operationId)
      ? 10
      : 220;

let t: TestApp;
const handlerIds: string[] = [];
/** Accounts the account operations may change (never the admin the requests sign in as). */
const accountIds: string[] = [];
/** Set-password tokens of those accounts: each works once. */
const setPasswordTokens: string[] = [];
let checker: ContractChecker;
/** The admin's token: replaced by the one a password change answers (the earlier one ends). */
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  adminToken = t.admin.token;
  for (const [i, gps] of [
    { lat: 52.5, lng: 13.4 },
    { lat: -33.9, lng: 151.2 },
    undefined,
  ].entries()) {
    handlerIds.push((await createHandler(t, { name: `Fuzz ${i}`, ...(gps ? { gps } : {}) }))._id);
  }
  for (const [i, role] of (['viewer', 'handler', 'admin'] as const).entries()) {
    const created = await t.request({
      method: 'POST',
      url: '/api/accounts',
      payload: {
        username: `fuzz.${i}`,
        role,
        ...(role === 'handler' ? { handlerId: handlerIds[0] } : {}),
      },
      as: t.admin,
    });
    accountIds.push(created.json().data.id);
    setPasswordTokens.push(created.json().setPasswordToken);
  }
  checker = contractChecker({
    envelope: {
      type: 'object',
      required: ['success', 'message'],
      properties: { success: { enum: [false] }, message: { type: 'string' } },
      additionalProperties: false,
    },
    forbiddenKeys: ['password', 'passwordHash', 'nameSort', '__v', 'stack'],
    forbiddenText: ['$argon2', 'MongoServer', 'MongoNetwork', 'node_modules', /\bat .+\.[jt]s:\d+/],
  });
});
afterAll(() => t?.close());

const oneOf = <T>(list: () => T[]) =>
  fc.nat().map((i) => {
    const items = list();
    return items[i % Math.max(items.length, 1)];
  });

/** Known ids and the admin's credentials, so that valid requests reach the work. */
const hint: Hint = (op, where) => {
  if (where === 'path.id') {
    return oneOf(() => (op.route.startsWith('/api/accounts/') ? accountIds : handlerIds));
  }
  if (op.operationId === 'login' && where === 'body') return fc.constant({ ...ADMIN });
  if (op.operationId === 'setPassword' && where === 'body') {
    return oneOf(() => setPasswordTokens).map((token) => ({
      token,
      password: 'a long fuzzed passphrase',
    }));
  }
  // The signed-in admin's own password, set to itself: the later logins keep working (and its
  // answer's token, the later requests: see learn).
  if (op.operationId === 'changePassword' && where === 'body') {
    return fc.constant({ currentPassword: ADMIN.password, newPassword: ADMIN.password });
  }
  return undefined;
};

function learn(op: Operation, _request: GeneratedRequest, answer: Answer): void {
  if (op.operationId === 'createHandler' && answer.statusCode === 201) {
    handlerIds.push((JSON.parse(answer.body) as { data: { _id: string } }).data._id);
  }
  if (op.operationId === 'changePassword' && answer.statusCode === 200) {
    adminToken = (JSON.parse(answer.body) as { token: string }).token;
  }
  // A reset replaces the account's token: keep the newest ones for set-password.
  if (op.operationId === 'resetAccountPassword' && answer.statusCode === 200) {
    setPasswordTokens.unshift(
      (JSON.parse(answer.body) as { setPasswordToken: string }).setPasswordToken,
    );
  }
}

async function send(op: Operation, request: GeneratedRequest): Promise<Answer> {
  const res = await t.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...(op.bearer ? bearer(adminToken) : {}), ...request.headers },
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
  return { statusCode: res.statusCode, headers: res.headers, body: res.body };
}

describeFuzzing({
  name: 'handler directory',
  document: 'openapi/handler-directory.json',
  operations,
  runsOf,
  minimumRequests: 2_000,
  hint,
  send,
  learn,
  checker: () => checker,
  // The import's body is a file, which the fuzzer does not make (import.test.ts sends files).
  refusalOnly: ['importHandlers'],
});
