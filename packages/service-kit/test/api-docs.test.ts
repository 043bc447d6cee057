import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { Type } from 'typebox';
import {
  apiDocs,
  errorEnvelope,
  serverOptions,
  useStrictValidation,
  type DocsOptions,
} from '../src/index.js';
import { NO_NUL_PATTERN } from '../src/openapi-request-rules.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const Envelope = Type.Object(
  { ok: Type.Literal(false), message: Type.String() },
  { $id: 'Failure', additionalProperties: false },
);
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: `Failure ${status}`,
        content: {
          'application/json': { schema: Envelope, example: { ok: false, message: 'no' } },
        },
      },
    ]),
  );
const Dog = Type.Object({ id: Type.Integer(), name: Type.String() }, { $id: 'Dog' });
const NewDog = Type.Object(
  { name: Type.String(), owner: Type.Optional(Type.Object({ name: Type.String() })) },
  { $id: 'NewDog', additionalProperties: false, examples: [{ name: 'Bello' }] },
);

async function build(
  register?: (app: ReturnType<typeof Fastify>) => void,
  docs: Partial<DocsOptions> = {},
) {
  const app = Fastify(serverOptions({ logLevel: 'silent' }));
  useStrictValidation(app);
  await app.register(errorEnvelope, { body: (_status, message) => ({ ok: false, message }) });
  await app.register(apiDocs, {
    title: 'Dogs',
    version: '1',
    description: 'Dogs.',
    securitySchemes: {},
    tags: [{ name: 'Dogs', description: 'All of them' }],
    errors,
    ...docs,
  });
  app.get(
    '/dogs',
    {
      schema: {
        tags: ['Dogs'],
        querystring: Type.Object({
          page: Type.Integer({ default: 1, description: 'Page' }),
          name: Type.Optional(Type.String()),
        }),
        response: { 200: Type.Array(Dog) },
      },
      config: { auth: 'none', cache: 'private' },
    },
    async () => [],
  );
  app.post(
    '/dogs/:id',
    {
      schema: {
        tags: ['Dogs'],
        params: Type.Object({ id: Type.String() }),
        body: NewDog,
        response: { 201: Dog },
      },
      config: { auth: 'key', rateLimit: false },
    },
    async (request, reply) => reply.code(201).send({ id: 1, name: (request.params as Json).id }),
  );
  register?.(app);
  await app.ready();
  return { app, doc: app.swagger() as unknown as Json };
}

describe('the OpenAPI document tells what each route answers', () => {
  it('adds the statuses implied by the declaration, with the headers every answer carries', async () => {
    const { app, doc } = await build();
    const list = doc.paths['/dogs'].get.responses;
    const create = doc.paths['/dogs/{id}'].post.responses;
    expect(Object.keys(list).sort()).toEqual(['200', '304', '400', '429', '503']);
    expect(Object.keys(create).sort()).toEqual(['201', '400', '401', '413', '415', '503']);
    expect(create['415'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Failure',
    });
    expect(list['304'].content).toBeUndefined();
    expect(Object.keys(list['304'].headers).sort()).toEqual([
      'cache-control',
      'etag',
      'x-request-id',
    ]);
    expect(list['200'].headers.etag).toMatchObject({ required: true });
    for (const response of Object.values<Json>({ ...list, ...create }))
      expect(response.headers['x-request-id']).toMatchObject({ required: true });
    await app.close();
  });

  it('names every $id schema the routes use and keeps the example of a named body', async () => {
    const { app, doc } = await build();
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['Dog', 'Failure', 'NewDog']);
    const body = doc.paths['/dogs/{id}'].post.requestBody.content['application/json'];
    expect(body).toEqual({
      schema: { $ref: '#/components/schemas/NewDog' },
      example: { name: 'Bello' },
    });
    await app.close();
  });

  it('writes the request rules: defaults not required, plain decimals, no U+0000', async () => {
    const { app, doc } = await build();
    const [page, name] = doc.paths['/dogs'].get.parameters;
    expect(page).toMatchObject({ name: 'page', in: 'query' });
    expect(page.required).toBeUndefined();
    expect(page.description).toMatch(/^Page\. Plain decimal notation/);
    expect(name.schema.pattern).toBe(NO_NUL_PATTERN);
    const newDog = doc.components.schemas.NewDog;
    expect(newDog.properties.name.pattern).toBe(NO_NUL_PATTERN);
    expect(newDog.properties.owner.properties.name.pattern).toBe(NO_NUL_PATTERN);
    // Responses are left alone.
    expect(doc.components.schemas.Dog.properties.name.pattern).toBeUndefined();
    expect(doc.info.description).toMatch(/^Dogs\.\n\nRules of every operation/);
    await app.close();
  });

  it("writes the API's webhooks: named schemas as components and $refs, as for the routes", async () => {
    const Adopted = Type.Object(
      { dog: Dog, owner: Type.Object({ name: Type.String() }, { $id: 'Owner' }) },
      { additionalProperties: false },
    );
    const adopted = {
      post: {
        operationId: 'dogAdopted',
        summary: 'A dog was adopted',
        description: 'Sent to every subscriber.',
        tags: ['Dogs'],
        security: [],
        parameters: [
          {
            name: 'webhook-id',
            in: 'header',
            required: true,
            description: 'Id',
            schema: Type.String(),
          },
        ],
        requestBody: { content: { 'application/json': { schema: Adopted } } },
        responses: { '2XX': { description: 'Acknowledged' } },
      },
    };
    const { app, doc } = await build(undefined, { webhooks: { 'dog.adopted': adopted } });
    const body = doc.webhooks['dog.adopted'].post.requestBody.content['application/json'].schema;
    expect(body).toEqual({
      type: 'object',
      required: ['dog', 'owner'],
      properties: {
        dog: { $ref: '#/components/schemas/Dog' },
        owner: { $ref: '#/components/schemas/Owner' },
      },
      additionalProperties: false,
    });
    // Only named by a webhook, still a component.
    expect(doc.components.schemas.Owner).toEqual({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' } },
    });
    expect(doc.webhooks['dog.adopted'].post).toMatchObject({
      operationId: 'dogAdopted',
      security: [],
      parameters: [{ name: 'webhook-id', in: 'header', schema: { type: 'string' } }],
      responses: { '2XX': { description: 'Acknowledged' } },
    });
    // The request rules are for requests to the API, not from it.
    expect(doc.components.schemas.Owner.properties.name.pattern).toBeUndefined();
    await app.close();

    // An API without webhooks has no `webhooks`.
    const plain = await build();
    expect(plain.doc.webhooks).toBeUndefined();
    await plain.app.close();

    // A webhook's tag must be the API's, like a route's.
    const untagged = { post: { ...adopted.post, tags: ['Cats'] } };
    await expect(build(undefined, { webhooks: { 'cat.adopted': untagged } })).rejects.toThrow(
      "webhook cat.adopted post: tag 'Cats' is not one of the API's tags",
    );
  });

  it('refuses a tag the API does not declare, at start-up', async () => {
    await expect(
      build((app) => {
        app.get('/cats', { schema: { tags: ['Cats'] } }, async () => ({}));
      }),
    ).rejects.toThrow("GET /cats: tag 'Cats' is not one of the API's tags");
  });
});

describe('requests outside the declared ones', () => {
  it('refuses unknown query parameters on every documented route', async () => {
    const { app } = await build((a) => {
      a.get('/plain', { schema: { response: { 200: Type.Object({}) } } }, async () => ({}));
      a.get('/hidden', { schema: { hide: true } }, async () => ({ open: true }));
    });
    expect((await app.inject({ method: 'GET', url: '/plain' })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'GET', url: '/plain?x=1' });
    expect({ status: refused.statusCode, body: refused.json() }).toEqual({
      status: 400,
      body: { ok: false, message: "querystring: unknown field 'x'" },
    });
    expect((await app.inject({ method: 'GET', url: '/dogs?x=1' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/hidden?x=1' })).statusCode).toBe(200);
    await app.close();
  });

  it('takes a path parameter longer than 100 characters to its route', async () => {
    const { app } = await build();
    const id = 'x'.repeat(500);
    const res = await app.inject({ method: 'POST', url: `/dogs/${id}`, payload: { name: 'a' } });
    expect({ status: res.statusCode, name: res.json().name }).toEqual({ status: 201, name: id });
    await app.close();
  });

  it('answers an undecodable URL in the envelope, with the request id and security headers', async () => {
    const { app } = await build();
    const res = await app.inject({
      method: 'POST',
      url: '/dogs/%E0%A4%A',
      headers: { 'x-request-id': 'req-1' },
    });
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 400,
      body: { ok: false, message: 'Malformed URL: a path segment is not valid percent-encoding' },
    });
    expect(res.headers).toMatchObject({
      'x-request-id': 'req-1',
      'x-content-type-options': 'nosniff',
    });
    await app.close();
  });
});
