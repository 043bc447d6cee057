import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { normalizeInput, useStrictValidation } from '../src/index.js';

describe('input normalised as each route declares', () => {
  it('trims, lower-cases e-mails and drops owned fields before validation', async () => {
    const app = Fastify();
    useStrictValidation(app);
    await app.register(normalizeInput);
    const body = {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'email'],
      properties: { name: { type: 'string', minLength: 1 }, email: { type: 'string' } },
    };
    app.post(
      '/people',
      {
        schema: { body },
        config: { normalize: { trim: ['name'], email: ['email'], drop: ['_id'] } },
      },
      async (request) => request.body,
    );
    app.post('/raw', { schema: { body } }, async (request) => request.body);
    await app.ready();

    const stored = await app.inject({
      method: 'POST',
      url: '/people',
      payload: { _id: 'x', name: '  Ann  ', email: ' Ann@Example.COM ' },
    });
    expect(stored.json()).toEqual({ name: 'Ann', email: 'ann@example.com' });
    const blank = await app.inject({
      method: 'POST',
      url: '/people',
      payload: { name: '   ', email: 'a' },
    });
    expect(blank.statusCode).toBe(400);
    const untouched = await app.inject({
      method: 'POST',
      url: '/raw',
      payload: { name: ' B ', email: ' X@Y ' },
    });
    expect(untouched.json()).toEqual({ name: ' B ', email: ' X@Y ' });
    await app.close();
  });

  it('trims every field the body schema marks not-blank, in a union body too, so blank is refused', async () => {
    const app = Fastify();
    useStrictValidation(app);
    await app.register(normalizeInput);
    const text = { type: 'string', minLength: 1, 'x-document-pattern': '^.*\\S.*$' };
    const body = {
      anyOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: { name: text, code: { type: 'string' } },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['reason'],
          properties: { reason: text },
        },
      ],
    };
    app.post('/things', { schema: { body } }, async (request) => request.body);
    await app.ready();

    const named = await app.inject({
      method: 'POST',
      url: '/things',
      payload: { name: ' Lead ', code: ' x ' },
    });
    expect(named.json()).toEqual({ name: 'Lead', code: ' x ' });
    for (const payload of [{ name: ' \t ' }, { reason: '   ' }]) {
      const blank = await app.inject({ method: 'POST', url: '/things', payload });
      expect(blank.statusCode).toBe(400);
    }
    await app.close();
  });
});
