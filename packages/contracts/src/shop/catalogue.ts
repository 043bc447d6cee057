import { Type, type Static } from 'typebox';
import { DataEnvelope, PaginationSchema } from '../common.js';
import { DateTime, Id, Money, pageQuery } from './shared.js';
import { ReviewSchema } from './reviews.js';

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
  { title: 'Product', additionalProperties: false },
);
export type Product = Static<typeof ProductSchema>;

export const ProductDetailSchema = Type.Object(
  {
    ...ProductSchema.properties,
    reviews: Type.Array(ReviewSchema, { description: 'The 10 newest reviews' }),
  },
  { title: 'ProductDetail', additionalProperties: false },
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
  { additionalProperties: false },
);
export type ProductListResponse = Static<typeof ProductListResponseSchema>;

export const ProductDetailResponseSchema = DataEnvelope(ProductDetailSchema);

export const CategorySchema = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    description: Type.String(),
    parent_id: Type.Union([Id(), Type.Null()]),
    sort_order: Type.Integer(),
    active: Type.Boolean(),
  },
  { title: 'Category', additionalProperties: false },
);
export type Category = Static<typeof CategorySchema>;

export const CategoryListResponseSchema = DataEnvelope(Type.Array(CategorySchema));

export const StatsResponseSchema = DataEnvelope(
  Type.Object(
    {
      products: Type.Integer({ minimum: 0, description: 'Active products' }),
      categories: Type.Integer({ minimum: 0, description: 'Active categories' }),
      orders: Type.Integer({ minimum: 0 }),
      customers: Type.Integer({ minimum: 0 }),
    },
    { additionalProperties: false },
  ),
);
export type StatsResponse = Static<typeof StatsResponseSchema>;
