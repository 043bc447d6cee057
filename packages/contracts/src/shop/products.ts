import { Type, type Static } from 'typebox';
import { DataEnvelope, PaginationSchema, documented, type Pagination } from '../common.js';
import { shopErrors } from './errors.js';
import { ReviewSchema, reviewExample } from './reviews.js';
import { DateTime, Id, IdParamsSchema, Money, pageQuery } from './shared.js';
import { shopTag } from './tags.js';

export const ProductSchema = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    description: Type.String(),
    price: Money(),
    category_id: Id(),
    category_name: Type.String(),
    stock: Type.Integer({ minimum: 0 }),
    active: Type.Boolean(),
    created_at: DateTime(),
  },
  { $id: 'Product', title: 'Product', additionalProperties: false },
);
export type Product = Static<typeof ProductSchema>;

export const ProductDetailSchema = Type.Object(
  {
    ...ProductSchema.properties,
    reviews: Type.Array(ReviewSchema, { description: 'The 10 newest reviews' }),
  },
  { $id: 'ProductDetail', title: 'ProductDetail', additionalProperties: false },
);
export type ProductDetail = Static<typeof ProductDetailSchema>;

export const ProductSortSchema = Type.Union(
  [
    Type.Literal('newest'),
    Type.Literal('price_asc'),
    Type.Literal('price_desc'),
    Type.Literal('name'),
  ],
  {
    description: 'Order of the list (extension); default newest first, ties by id',
    examples: ['price_asc'],
  },
);
export type ProductSort = Static<typeof ProductSortSchema>;

export const ProductListQuerySchema = Type.Object(
  {
    ...pageQuery('Products per page', 20),
    category: Type.Optional(Id('Category id; includes its descendants', [3])),
    search: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Every whitespace-separated term must occur in the name or description',
        examples: ['tracking lead'],
      }),
    ),
    min_price: Type.Optional(Money('Lowest price, inclusive', [10])),
    max_price: Type.Optional(Money('Highest price, inclusive', [100])),
    sort: Type.Optional(ProductSortSchema),
  },
  { additionalProperties: false },
);
export type ProductListQuery = Static<typeof ProductListQuerySchema>;

export const ProductListResponseSchema = Type.Object(
  { success: Type.Literal(true), data: Type.Array(ProductSchema), pagination: PaginationSchema },
  { $id: 'ProductListResponse', additionalProperties: false },
);
export type ProductListResponse = Static<typeof ProductListResponseSchema>;

export const ProductDetailResponseSchema = DataEnvelope(ProductDetailSchema, false, {
  $id: 'ProductDetailResponse',
});

// Examples for the documentation, typed against the schemas.
export const productExample: Product = {
  id: 12,
  name: 'Tracking lead 10 m',
  description: 'Biothane blood-tracking lead, orange',
  price: 39.9,
  category_id: 3,
  category_name: 'Leads & collars',
  stock: 40,
  active: true,
  created_at: '2026-02-01T08:00:00.000Z',
};

export const productDetailExample: ProductDetail = { ...productExample, reviews: [reviewExample] };

const paginationExample: Pagination = { page: 1, limit: 20, total: 1, pages: 1 };

export const listProductsOperation = {
  tags: shopTag('Products'),
  operationId: 'listProducts',
  summary: 'List active products',
  description:
    'Paginated, newest first (ties by id). `category` includes descendants; every `search` term must occur in the name or description (case-insensitive); price bounds are inclusive. ' +
    'Private cache: a strong `ETag` and `Cache-Control: private, no-cache`; with `If-None-Match` an unchanged answer is `304` without a body.',
  querystring: ProductListQuerySchema,
  response: {
    200: documented(ProductListResponseSchema, {
      description: 'One page of active products',
      examples: [{ success: true, data: [productExample], pagination: paginationExample }],
    }),
    ...shopErrors([400, 'querystring.min_price must be less than or equal to max_price'], 401, 429),
  },
};

export const getProductOperation = {
  tags: shopTag('Products'),
  operationId: 'getProduct',
  summary: 'Product detail with its 10 newest reviews',
  description:
    'An active product with its 10 newest reviews; the reviews endpoint pages through all of them. An inactive or unknown product is 404. ' +
    'Private cache: a strong `ETag` and `Cache-Control: private, no-cache`; with `If-None-Match` an unchanged answer is `304` without a body.',
  params: IdParamsSchema,
  response: {
    200: documented(ProductDetailResponseSchema, {
      description: 'The product',
      examples: [{ success: true, data: productDetailExample }],
    }),
    ...shopErrors(
      [400, 'params.id must be >= 1'],
      401,
      [404, 'Product 999 not found', 'No active product with this id'],
      429,
    ),
  },
};
