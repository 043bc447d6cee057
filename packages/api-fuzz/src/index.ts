// Property-based fuzzing from a committed OpenAPI 3.1 document (openapi/<service>.json): for every
// operation, fast-check generates requests from the operation's parameter and body schemas, valid
// ones and mutated ones (wrong types, missing and extra fields, boundary and huge numbers, long and
// unicode strings, `$`/`.` keys, prototype-pollution keys, operator objects, nested depth bombs),
// and every response is checked against the same document with Ajv (JSON Schema 2020-12).
// Both services' fuzz and attack tests use it (test/fuzz.test.ts, test/attacks.test.ts); any test
// can check every answer of an app against the document (answerLog).
//
// openapi-operations.ts  the document's operations       valid-values.ts  schema → arbitrary
// mutations.ts           hostile variants of a value     requests.ts      whole requests
// contract-checker.ts    the fuzzer's rules for answers  fuzz-operation.ts  the runner
// fuzz-suite.ts          both services' fuzz tests        service-suite.ts  service-kit's behaviour (own entry)
// documented-answers.ts  an answer against its operation's documented responses
export { RawJson, toJsonText } from './json-text.js';
export { contractChecker, type ContractChecker } from './contract-checker.js';
export {
  answerLog,
  documentedAnswers,
  documentedBodies,
  operationMatcher,
  type Answer,
  type AnswerProblems,
} from './documented-answers.js';
export { FUZZ_SCALE, FUZZ_SEED, fuzzOperation, scaledRuns } from './fuzz-operation.js';
export { describeFuzzing } from './fuzz-suite.js';
export { HOSTILE_STRINGS, mutatedValue, type MutationKind } from './mutations.js';
export { operationsOf, readDocument, type Operation, type Schema } from './openapi-operations.js';
export { requestsFor, type GeneratedRequest } from './requests.js';
export { validValue, type Hint } from './valid-values.js';
