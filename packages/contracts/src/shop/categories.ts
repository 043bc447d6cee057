import { Type, type Static } from 'typebox';
import { DataEnvelope, documented } from '../common.js';
import { shopErrors } from './errors.js';
import { Id } from './shared.js';
import { shopTag } from './tags.js';

export const CategorySchema = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    description: Type.String(),
    parent_id: Type.Union([Id(), Type.Null()]),
    sort_order: Type.Integer(),
    active: Type.Boolean(),
  },
  { $id: 'Category', title: 'Category', additionalProperties: false },
);
export type Category = Static<typeof CategorySchema>;

export const CategoryListResponseSchema = DataEnvelope(Type.Array(CategorySchema), false, {
  $id: 'CategoryListResponse',
});

export const categoryExamples: Category[] = [
  {
    id: 2,
    name: 'Dog equipment',
    description: 'For working dogs',
    parent_id: null,
    sort_order: 2,
    active: true,
  },
  {
    id: 3,
    name: 'Leads & collars',
    description: 'Tracking leads, collars, harnesses',
    parent_id: 2,
    sort_order: 1,
    active: true,
  },
];

export const listCategoriesOperation = {
  tags: shopTag('Categories'),
  operationId: 'listCategories',
  summary: 'List active categories',
  description:
    'Ordered by sort_order, then name. ' +
    'Private cache: a strong `ETag` and `Cache-Control: private, no-cache`; with `If-None-Match` an unchanged answer is `304` without a body.',
  response: {
    200: documented(CategoryListResponseSchema, {
      description: 'The active categories',
      examples: [{ success: true, data: categoryExamples }],
    }),
    ...shopErrors(401, 429),
  },
};
