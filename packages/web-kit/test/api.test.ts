// A call's outcome (src/api.ts) as both services' pages show it: the data, the API's own message
// in either service's envelope, else the service's texts.
import { describe, expect, it } from '@jest/globals';
import { apiMessage, callHelpers } from '../src/api';

const { outcome, failureText } = callHelpers({
  failed: (status) => `no answer (status ${status})`,
  offline: 'offline',
});

const answer = (status: number) => new Response(null, { status });

describe('apiMessage', () => {
  it('reads the directory’s and the shop’s envelope', () => {
    expect(apiMessage({ success: false, message: 'Benutzer nicht gefunden' })).toBe(
      'Benutzer nicht gefunden',
    );
    expect(apiMessage({ success: false, error: 'Product not found', status_code: 404 })).toBe(
      'Product not found',
    );
  });

  it('has none for a body in another format', () => {
    expect(apiMessage('<html>Bad Gateway</html>')).toBeUndefined();
    expect(apiMessage(undefined)).toBeUndefined();
    expect(apiMessage(null)).toBeUndefined();
    expect(apiMessage({ message: '' })).toBeUndefined();
    expect(apiMessage({ message: { nested: true } })).toBeUndefined();
  });
});

describe('outcome', () => {
  it('gives the data and the answer', async () => {
    const response = answer(200);
    await expect(outcome(Promise.resolve({ data: { id: 1 }, response }))).resolves.toEqual({
      data: { id: 1 },
      response,
    });
  });

  it('gives the API’s message, the body and the status of a refusal', async () => {
    const error = { success: false, message: 'Keine Berechtigung' };
    await expect(outcome(Promise.resolve({ error, response: answer(403) }))).resolves.toEqual({
      message: 'Keine Berechtigung',
      offline: false,
      error,
      status: 403,
    });
  });

  it('gives the service’s text for an answer without a message, and for no answer at all', async () => {
    await expect(
      outcome(Promise.resolve({ error: 'Bad Gateway', response: answer(502) })),
    ).resolves.toMatchObject({ message: 'no answer (status 502)', offline: false, status: 502 });
    await expect(outcome(Promise.reject(new TypeError('Failed to fetch')))).resolves.toEqual({
      message: 'offline',
      offline: true,
    });
    expect(failureText(undefined, 500)).toBe('no answer (status 500)');
  });
});
