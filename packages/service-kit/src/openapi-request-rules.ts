// The input rules both services enforce for every operation, written into the OpenAPI document
// where a schema can say them (the validators that enforce them: validation.ts, reject-nul.ts).
import { isObject, operationsIn } from './openapi-components.js';

type Json = Record<string, unknown>;

/** No U+0000 anywhere in a text (reject-nul.ts). */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

const PLAIN_DECIMAL_NOTE =
  'Plain decimal notation: no `+`, exponent, hexadecimal, leading zeros or `-0`.';

/** The rules no parameter list can show, for the document's description. */
export const REQUEST_RULES = [
  'Rules of every operation: a query parameter it does not list is refused (400), as is an unknown',
  'body field; numbers in paths and query strings are written in plain decimal notation; no text',
  '(path, query or body) may contain U+0000 (400).',
].join('\n');

/**
 * A pattern only the document shows (the contracts' `notBlank`): the service enforces the rule
 * itself, with its own message, or after trimming the value.
 */
const DOCUMENT_PATTERN = 'x-document-pattern';

/**
 * Writes the rules into a generated document, in place: every `x-document-pattern` becomes the
 * schema's `pattern`; every string of a request (parameters and bodies, the components they
 * refer to included) that has no `pattern` of its own gets `NO_NUL_PATTERN`; numeric path and
 * query parameters say that they are plain decimals; a parameter with a default is not required.
 */
export function writeRequestRules(document: Json): Json {
  documentPatterns(document);
  const components = (isObject(document.components) && document.components.schemas) || {};
  const visited = new Set<unknown>();
  const noNul = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(noNul);
    if (!isObject(node) || visited.has(node)) return;
    visited.add(node);
    if (typeof node.$ref === 'string') {
      return noNul((components as Json)[node.$ref.replace('#/components/schemas/', '')]);
    }
    const types = [node.type].flat();
    if (types.includes('string') && node.pattern === undefined && node.enum === undefined) {
      if (node.const === undefined && node.format !== 'binary') node.pattern = NO_NUL_PATTERN;
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'examples') noNul(value);
  };
  for (const operation of operationsIn(document)) {
    for (const parameter of (operation.parameters ?? []) as Json[]) {
      const schema = isObject(parameter.schema) ? parameter.schema : {};
      if (schema.default !== undefined && parameter.in !== 'path') delete parameter.required;
      const numeric = [schema.type].flat().some((t) => t === 'integer' || t === 'number');
      if (numeric && (parameter.in === 'path' || parameter.in === 'query')) {
        const said = typeof parameter.description === 'string' ? `${parameter.description}. ` : '';
        parameter.description = `${said}${PLAIN_DECIMAL_NOTE}`;
      }
      noNul(schema);
    }
    const body = isObject(operation.requestBody) ? operation.requestBody.content : undefined;
    if (isObject(body))
      for (const media of Object.values(body)) if (isObject(media)) noNul(media.schema);
  }
  return document;
}

function documentPatterns(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(documentPatterns);
  if (!isObject(node)) return;
  if (typeof node[DOCUMENT_PATTERN] === 'string') {
    node.pattern = node[DOCUMENT_PATTERN];
    delete node[DOCUMENT_PATTERN];
  }
  Object.values(node).forEach(documentPatterns);
}
