import { describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { apiDocs, useStrictValidation } from '../src/index.js';

const Item = Type.Object({ id: Type.Integer(), name: Type.String() }, { $id: 'Item' });
const ItemList = Type.Object({ data: Type.Array(Item) }, { $id: 'ItemList' });
const NewItem = Type.Object(
  { name: Type.String() },
  { $id: 'NewItem', additionalProperties: false },
);

async function appWithDocs() {
  const app = Fastify();
  useStrictValidation(app);
  await app.register(apiDocs, {
    title: 'Items',
    version: '1',
    description: 'test',
    securitySchemes: {},
  });
  app.get(
    '/items',
    { schema: { response: { 200: { ...ItemList, description: 'All items' } } } },
    () => ({
      data: [{ id: 1, name: 'a', secret: 'x' }],
    }),
  );
  app.post(
    '/items',
    {
      schema: {
        body: NewItem,
        response: { 201: Type.Object({ success: Type.Boolean(), data: Item }) },
      },
    },
    (request, reply) =>
      reply.code(201).send({ success: true, data: { id: 2, ...(request.body as object) } }),
  );
  await app.ready();
  return app;
}

describe('named OpenAPI components', () => {
  it('lists every $id schema once and refers to it from bodies and responses', async () => {
    const app = await appWithDocs();
    const doc = app.swagger() as unknown as {
      components: { schemas: Record<string, unknown> };
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['Item', 'ItemList', 'NewItem']);
    // Components refer to each other instead of repeating a nested schema.
    expect(JSON.stringify(doc.components.schemas.ItemList)).toContain('#/components/schemas/Item');
    type Media = Record<string, { schema: Record<string, unknown> }>;
    type Responses = Record<string, { description: string; content: Media }>;
    const list = doc.paths['/items']!.get!.responses as Responses;
    expect(list['200']!.description).toBe('All items');
    expect(list['200']!.content['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/ItemList',
    });
    const create = doc.paths['/items']!.post as {
      requestBody: { content: Media };
      responses: Responses;
    };
    expect(create.requestBody.content['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/NewItem',
    });
    const created = create.responses['201']!.content['application/json']!.schema;
    expect((created.properties as Record<string, unknown>).data).toEqual({
      $ref: '#/components/schemas/Item',
    });
    await app.close();
  });

  it('leaves validation and serialisation to the embedded schemas', async () => {
    const app = await appWithDocs();
    const list = await app.inject({ method: 'GET', url: '/items' });
    expect(list.json()).toEqual({ data: [{ id: 1, name: 'a' }] });
    const refused = await app.inject({
      method: 'POST',
      url: '/items',
      payload: { name: 'b', x: 1 },
    });
    expect(refused.statusCode).toBe(400);
    const created = await app.inject({ method: 'POST', url: '/items', payload: { name: 'b' } });
    expect(created.json()).toEqual({ success: true, data: { id: 2, name: 'b' } });
    await app.close();
  });
});
