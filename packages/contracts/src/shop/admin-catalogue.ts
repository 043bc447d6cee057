// The back office's catalogue: every product (inactive ones too) with filters and an exact total,
// product create and change, stock adjustments with their movements, the CSV export and import,
// and the category tree.
import { Type, type Static } from 'typebox';
import { DataEnvelope, documented } from '../common.js';
import { ActorSchema } from './access.js';
import { CategorySchema, categoryExamples } from './categories.js';
import { shopErrors } from './errors.js';
import { CursorPageSchema, cursorQuery } from './orders.js';
import { ProductSchema, productExample } from './products.js';
import {
  DateTime,
  Id,
  IdParamsSchema,
  Money,
  Text,
  csvDownload,
  csvExportDescription,
  csvExportQuery,
} from './shared.js';
import { shopTag } from './tags.js';

const Name = () => Text(300);
const Description = () => Type.String({ maxLength: 10_000 });
const Stock = (description?: string) =>
  Type.Integer({ minimum: 0, maximum: 2_147_483_647, ...(description ? { description } : {}) });

export const AdminProductSchema = Type.Object(
  {
    ...ProductSchema.properties,
    active: Type.Boolean({ description: 'Inactive products are hidden from the storefront' }),
    updated_at: DateTime(),
  },
  { $id: 'AdminProduct', title: 'AdminProduct', additionalProperties: false },
);
export type AdminProduct = Static<typeof AdminProductSchema>;

export const ADMIN_PRODUCT_SORTS = ['-created_at', 'name', 'stock', 'price', '-price'] as const;
export type AdminProductSort = (typeof ADMIN_PRODUCT_SORTS)[number];

/** The filters of the list and of its export. */
const productFilters = {
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'A product number, or words that must all occur in the name or description (case ignored)',
      examples: ['tracking lead'],
    }),
  ),
  category_id: Type.Optional(Id('The category, with its descendants', [3])),
  active: Type.Optional(
    Type.Boolean({
      description: 'Only active (true) or only inactive (false) products; both when absent',
      examples: [true],
    }),
  ),
  stock_below: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: 'Only products with less stock than this (1: out of stock)',
      examples: [5],
    }),
  ),
};

export const AdminProductListQuerySchema = Type.Object(
  {
    ...productFilters,
    sort: Type.Enum(ADMIN_PRODUCT_SORTS, {
      default: '-created_at',
      description:
        'Newest first (default), by name, the lowest stock first, the lowest or the highest price first; ties by id',
      examples: ['stock'],
    }),
    ...cursorQuery(50),
  },
  { additionalProperties: false },
);
export type AdminProductListQuery = Static<typeof AdminProductListQuerySchema>;

export const AdminProductListResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(AdminProductSchema),
    pagination: Type.Object(
      {
        ...CursorPageSchema.properties,
        total: Type.Integer({
          minimum: 0,
          description: 'Every product matching the filters, exact',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'AdminProductListResponse', additionalProperties: false },
);

export const AdminProductResponseSchema = DataEnvelope(AdminProductSchema, false, {
  $id: 'AdminProductResponse',
});

export const CreateProductBodySchema = Type.Object(
  {
    name: Name(),
    description: Type.Optional(Description()),
    price: Money(),
    category_id: Id(),
    stock: Type.Optional(Stock('The opening stock; 0 when absent')),
    active: Type.Optional(Type.Boolean({ default: true })),
  },
  { $id: 'CreateProductBody', title: 'CreateProductBody', additionalProperties: false },
);
export type CreateProductBody = Static<typeof CreateProductBodySchema>;

export const UpdateProductBodySchema = Type.Object(
  {
    name: Type.Optional(Name()),
    description: Type.Optional(Description()),
    price: Type.Optional(Money()),
    category_id: Type.Optional(Id()),
    active: Type.Optional(Type.Boolean()),
  },
  {
    $id: 'UpdateProductBody',
    title: 'UpdateProductBody',
    additionalProperties: false,
    minProperties: 1,
  },
);
export type UpdateProductBody = Static<typeof UpdateProductBodySchema>;

const Reason = () => Text(500);

export const AdjustStockBodySchema = Type.Object(
  {
    delta: Type.Optional(
      Type.Integer({
        minimum: -2_147_483_647,
        maximum: 2_147_483_647,
        description: 'Added to the stock (negative: taken away); not 0, never below a stock of 0',
      }),
    ),
    set: Type.Optional(Stock('The counted stock')),
    reason: Reason(),
  },
  {
    $id: 'AdjustStockBody',
    title: 'AdjustStockBody',
    description: 'Either `delta` or `set`, with a reason',
    additionalProperties: false,
  },
);
export type AdjustStockBody = Static<typeof AdjustStockBodySchema>;

export const STOCK_MOVEMENT_KINDS = [
  'opening',
  'created',
  'order',
  'cancellation',
  'adjustment',
  'import',
] as const;
export type StockMovementKind = (typeof STOCK_MOVEMENT_KINDS)[number];

export const StockMovementSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    at: DateTime(),
    kind: Type.Enum(STOCK_MOVEMENT_KINDS, {
      description:
        '`opening` (the stock a product had when movements began), `created`, `order`, `cancellation`, `adjustment` or `import`',
    }),
    delta: Type.Integer({ description: 'The change' }),
    stock: Type.Integer({ minimum: 0, description: 'The stock after it' }),
    reason: Type.Union([Type.String(), Type.Null()], {
      description: 'An adjustment’s reason',
    }),
    order_id: Type.Union([Id(), Type.Null()], {
      description: 'The order of an `order` or `cancellation` movement',
    }),
    actor: Type.Union([ActorSchema, Type.Null()], {
      description:
        'Who made it: for an order, its customer (null for a guest’s order); null for the CLI’s import and the opening stock',
    }),
  },
  { $id: 'StockMovement', title: 'StockMovement', additionalProperties: false },
);
export type StockMovement = Static<typeof StockMovementSchema>;

export const StockMovementsQuerySchema = Type.Object(cursorQuery(50), {
  additionalProperties: false,
});

export const StockMovementListResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(StockMovementSchema),
    pagination: CursorPageSchema,
  },
  { $id: 'StockMovementListResponse', additionalProperties: false },
);

export const StockAdjustedResponseSchema = DataEnvelope(
  Type.Object(
    { product: AdminProductSchema, movement: StockMovementSchema },
    { additionalProperties: false },
  ),
  false,
  { $id: 'StockAdjustedResponse' },
);

// ---------------------------------------------------------------------------------------------
// Export and import

export const PRODUCT_CSV_COLUMNS = [
  'id',
  'name',
  'description',
  'price',
  'category_id',
  'category_name',
  'stock',
  'active',
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];

/** The largest import file, in bytes, and the most rows one may have. */
export const PRODUCT_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const PRODUCT_IMPORT_MAX_ROWS = 50_000;

export const AdminProductExportQuerySchema = Type.Object(
  {
    ...productFilters,
    ...csvExportQuery(),
  },
  { additionalProperties: false },
);
export type AdminProductExportQuery = Static<typeof AdminProductExportQuerySchema>;

export const ProductImportQuerySchema = Type.Object(
  {
    dry_run: Type.Boolean({
      default: true,
      description:
        'true (default): only report what would happen; false: apply every row, or none when any row has a problem',
      examples: [false],
    }),
  },
  { additionalProperties: false },
);

export const ProductImportRowSchema = Type.Object(
  {
    row: Type.Integer({ minimum: 2, description: 'Row number in the file (1 is the header row)' }),
    action: Type.Enum(['create', 'update', 'unchanged', 'invalid'], {
      description:
        '`create` (no id), `update` (an id whose product differs), `unchanged`, `invalid` (see `problems`)',
    }),
    id: Type.Union([Id(), Type.Null()], {
      description: 'The product updated or unchanged, or (once applied) created',
    }),
    changes: Type.Array(
      Type.Enum(['name', 'description', 'price', 'category_id', 'stock', 'active']),
      {
        description: 'The fields an update changes',
      },
    ),
  },
  { $id: 'ProductImportRow', title: 'ProductImportRow', additionalProperties: false },
);

export const ProductImportProblemSchema = Type.Object(
  {
    row: Type.Integer({ minimum: 1 }),
    column: Type.String({ description: 'The column’s header, as in the export' }),
    message: Type.String(),
  },
  { $id: 'ProductImportProblem', title: 'ProductImportProblem', additionalProperties: false },
);
export type ProductImportProblem = Static<typeof ProductImportProblemSchema>;

export const ProductImportReportSchema = Type.Object(
  {
    dry_run: Type.Boolean(),
    applied: Type.Boolean({ description: 'Whether the rows were written' }),
    summary: Type.Object(
      {
        rows: Type.Integer({ minimum: 0 }),
        create: Type.Integer({ minimum: 0 }),
        update: Type.Integer({ minimum: 0 }),
        unchanged: Type.Integer({ minimum: 0 }),
        invalid: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    rows: Type.Array(ProductImportRowSchema),
    problems: Type.Array(ProductImportProblemSchema),
  },
  { $id: 'ProductImportReport', title: 'ProductImportReport', additionalProperties: false },
);
export type ProductImportReport = Static<typeof ProductImportReportSchema>;

export const ProductImportResponseSchema = DataEnvelope(ProductImportReportSchema, false, {
  $id: 'ProductImportResponse',
});

export const ProductImportRefusedSchema = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String(),
    status_code: Type.Literal(422),
    data: ProductImportReportSchema,
  },
  { $id: 'ProductImportRefused', title: 'ProductImportRefused', additionalProperties: false },
);

// ---------------------------------------------------------------------------------------------
// Categories

export const AdminCategorySchema = Type.Object(
  {
    ...CategorySchema.properties,
    product_count: Type.Integer({ minimum: 0, description: 'Its own products, inactive ones too' }),
    active_product_count: Type.Integer({ minimum: 0, description: 'Its own active products' }),
  },
  { $id: 'AdminCategory', title: 'AdminCategory', additionalProperties: false },
);
export type AdminCategory = Static<typeof AdminCategorySchema>;

export const AdminCategoryListResponseSchema = DataEnvelope(
  Type.Array(AdminCategorySchema),
  false,
  {
    $id: 'AdminCategoryListResponse',
  },
);
export const AdminCategoryResponseSchema = DataEnvelope(AdminCategorySchema, false, {
  $id: 'AdminCategoryResponse',
});

const SortOrder = () => Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 });

export const CreateCategoryBodySchema = Type.Object(
  {
    name: Text(200),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    parent_id: Type.Optional(Type.Union([Id(), Type.Null()])),
    sort_order: Type.Optional(SortOrder()),
    active: Type.Optional(Type.Boolean({ default: true })),
  },
  { $id: 'CreateCategoryBody', title: 'CreateCategoryBody', additionalProperties: false },
);
export type CreateCategoryBody = Static<typeof CreateCategoryBodySchema>;

export const UpdateCategoryBodySchema = Type.Object(
  {
    name: Type.Optional(Text(200)),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    parent_id: Type.Optional(Type.Union([Id(), Type.Null()])),
    sort_order: Type.Optional(SortOrder()),
    active: Type.Optional(Type.Boolean()),
  },
  {
    $id: 'UpdateCategoryBody',
    title: 'UpdateCategoryBody',
    additionalProperties: false,
    minProperties: 1,
  },
);
export type UpdateCategoryBody = Static<typeof UpdateCategoryBodySchema>;

// ---------------------------------------------------------------------------------------------
// Operations

const adminProductExample: AdminProduct = {
  ...productExample,
  updated_at: '2026-03-02T09:30:00.000Z',
};
const movementExample: StockMovement = {
  id: 812,
  at: '2026-03-02T09:30:00.000Z',
  kind: 'adjustment',
  delta: -2,
  stock: 38,
  reason: 'Stocktake: two damaged',
  order_id: null,
  actor: { type: 'staff', id: 3, name: 'Mia Berger' },
};
const adminCategoryExample: AdminCategory = {
  ...categoryExamples[1]!,
  product_count: 14,
  active_product_count: 12,
};
const productNotFound = [404, 'Product 999 not found', 'No product with this id'] as const;
const categoryNotFound = [404, 'Category 999 not found', 'No category with this id'] as const;

export const listAdminProductsOperation = {
  tags: shopTag('Back office'),
  operationId: 'listAdminProducts',
  summary: 'Products, inactive ones too',
  description:
    'Newest first by default, page by page (`cursor`), with the exact `total` of the filter. `q` finds a product by its number, or by words in its name or description.',
  querystring: AdminProductListQuerySchema,
  response: {
    200: documented(AdminProductListResponseSchema, {
      description: 'A page of products',
      examples: [
        {
          success: true,
          data: [adminProductExample],
          pagination: { limit: 50, next_cursor: null, total: 1 },
        },
      ],
    }),
    ...shopErrors([400, 'querystring.cursor is not a cursor this list gave for sort=name']),
  },
};

export const getAdminProductOperation = {
  tags: shopTag('Back office'),
  operationId: 'getAdminProduct',
  summary: 'A product, active or not',
  params: IdParamsSchema,
  response: {
    200: documented(AdminProductResponseSchema, {
      description: 'The product',
      examples: [{ success: true, data: adminProductExample }],
    }),
    ...shopErrors([...productNotFound]),
  },
};

export const createProductOperation = {
  tags: shopTag('Back office'),
  operationId: 'createProduct',
  summary: 'Add a product',
  description:
    'The opening stock enters the product’s stock movements as `created`. A name already used in the same category is 409.',
  body: documented(CreateProductBodySchema, {
    examples: [
      {
        name: 'Tracking lead 10 m',
        description: 'Biothane blood-tracking lead, orange',
        price: 39.9,
        category_id: 3,
        stock: 40,
      },
    ],
  }),
  response: {
    201: documented(AdminProductResponseSchema, {
      description: 'Created',
      examples: [{ success: true, data: adminProductExample }],
    }),
    ...shopErrors(
      [400, 'body.category_id 99 is not a category'],
      [409, 'category 3 already has a product named "Tracking lead 10 m"'],
    ),
  },
};

export const updateProductOperation = {
  tags: shopTag('Back office'),
  operationId: 'updateProduct',
  summary: 'Change a product’s name, description, price, category or active state',
  description:
    'Only the fields sent change. A product is never deleted: `active: false` takes it out of the storefront and keeps its orders’ history. Stock changes go through the stock operation.',
  params: IdParamsSchema,
  body: documented(UpdateProductBodySchema, { examples: [{ price: 42.5, active: true }] }),
  response: {
    200: documented(AdminProductResponseSchema, {
      description: 'The product as changed',
      examples: [{ success: true, data: { ...adminProductExample, price: 42.5 } }],
    }),
    ...shopErrors(
      [400, 'body.category_id 99 is not a category'],
      [...productNotFound],
      [409, 'category 3 already has a product named "Tracking lead 10 m"'],
    ),
  },
};

export const adjustStockOperation = {
  tags: shopTag('Back office'),
  operationId: 'adjustStock',
  summary: 'Adjust a product’s stock',
  description: [
    '`{delta, reason}` adds to the stock (negative: takes away), `{set, reason}` sets a counted',
    'stock. Safe beside orders placed at the same moment: the change applies to the stock as it is',
    'when the product’s row is locked, so no sale is lost, and a stock that would fall below 0 is',
    '409. The movement, with its reason and who made it, is in the answer and the product’s',
    'movements.',
  ].join('\n'),
  params: IdParamsSchema,
  body: documented(AdjustStockBodySchema, {
    examples: [
      { delta: -2, reason: 'Stocktake: two damaged' },
      { set: 38, reason: 'Stocktake' },
    ],
  }),
  response: {
    200: documented(StockAdjustedResponseSchema, {
      description: 'The product as changed and its movement',
      examples: [
        {
          success: true,
          data: { product: { ...adminProductExample, stock: 38 }, movement: movementExample },
        },
      ],
    }),
    ...shopErrors([...productNotFound], [409, 'product 12 has 1 in stock: cannot take away 2']),
  },
};

export const listStockMovementsOperation = {
  tags: shopTag('Back office'),
  operationId: 'listStockMovements',
  summary: 'A product’s stock movements',
  description:
    'Newest first, page by page. Every change of the stock is one: the opening stock, creation, orders, cancellations, adjustments and imports; a product’s deltas add up to its stock.',
  params: IdParamsSchema,
  querystring: StockMovementsQuerySchema,
  response: {
    200: documented(StockMovementListResponseSchema, {
      description: 'A page of movements',
      examples: [
        { success: true, data: [movementExample], pagination: { limit: 50, next_cursor: null } },
      ],
    }),
    ...shopErrors([...productNotFound]),
  },
};

export const exportAdminProductsOperation = {
  tags: shopTag('Back office'),
  operationId: 'exportAdminProducts',
  summary: 'Export products as CSV',
  description: `${csvExportDescription('product', 'by id', PRODUCT_CSV_COLUMNS)}\nThe import takes this file back.`,
  querystring: AdminProductExportQuerySchema,
  response: {
    200: csvDownload(
      'products',
      'product',
      PRODUCT_CSV_COLUMNS,
      '12,Tracking lead 10 m,"Biothane blood-tracking lead, orange",39.90,3,Leads & collars,40,true',
    ),
    ...shopErrors(),
  },
};

const importReportExample: ProductImportReport = {
  dry_run: true,
  applied: false,
  summary: { rows: 3, create: 1, update: 1, unchanged: 0, invalid: 1 },
  rows: [
    { row: 2, action: 'update', id: 12, changes: ['price', 'stock'] },
    { row: 3, action: 'create', id: null, changes: [] },
    { row: 4, action: 'invalid', id: 14, changes: [] },
  ],
  problems: [{ row: 4, column: 'price', message: 'not an amount with at most two decimals' }],
};

export const importProductsOperation = {
  tags: shopTag('Back office'),
  operationId: 'importProducts',
  summary: 'Import products from the export’s CSV (a dry run unless dry_run=false)',
  description: [
    `The body is the CSV file (\`Content-Type: text/csv\`, UTF-8, comma or semicolon, the export's`,
    `columns by header name: ${PRODUCT_CSV_COLUMNS.join(', ')}; the export's formula-guard`,
    'apostrophes removed). A row with an `id` updates that product (only the fields that differ);',
    'a row without one creates a product. `category_name` is there to read: when given it must be',
    'the name of `category_id`’s category. An empty `stock` keeps the stock; a stock that differs',
    'enters the movements as `import`. `dry_run=true` (default) writes nothing and reports per row',
    'what would happen and every problem with its row, column and message; `dry_run=false` applies',
    'every row in one transaction or, when any row has a problem, none (422 with the same report).',
    'A file the export wrote, imported unchanged, changes nothing.',
    `At most ${PRODUCT_IMPORT_MAX_BYTES / 1024 / 1024} MB and ${PRODUCT_IMPORT_MAX_ROWS.toLocaleString('en')} rows (413 beyond).`,
  ].join('\n'),
  querystring: ProductImportQuerySchema,
  // The file is the body; the schema only describes it (the route reads the bytes itself).
  body: {
    content: {
      'text/csv': {
        schema: {
          description: 'The CSV file, with the export’s header row',
          contentMediaType: 'text/csv',
          examples: [
            'id,name,description,price,category_id,category_name,stock,active\r\n,Tracking lead 15 m,,44.90,3,,10,true\r\n',
          ],
        },
      },
    },
  },
  response: {
    200: documented(ProductImportResponseSchema, {
      description: 'What the import does (dry run) or did (applied)',
      examples: [{ success: true, data: importReportExample }],
    }),
    422: documented(ProductImportRefusedSchema, {
      description: '`dry_run=false` and some rows have problems: nothing was written',
      examples: [
        {
          success: false,
          error: 'import not applied: 1 row has problems',
          status_code: 422,
          data: { ...importReportExample, dry_run: false },
        },
      ],
    }),
    ...shopErrors(
      [400, 'the file has no column "price"'],
      [413, 'the file is larger than 10 MB or has more than 50,000 rows'],
      [415, 'Unsupported Media Type: send the CSV file as text/csv'],
    ),
  },
};

export const listAdminCategoriesOperation = {
  tags: shopTag('Back office'),
  operationId: 'listAdminCategories',
  summary: 'Categories, inactive ones too, with their product counts',
  description: 'Ordered by sort_order, then name; `parent_id` makes the tree.',
  response: {
    200: documented(AdminCategoryListResponseSchema, {
      description: 'Every category',
      examples: [{ success: true, data: [adminCategoryExample] }],
    }),
    ...shopErrors(),
  },
};

export const createCategoryOperation = {
  tags: shopTag('Back office'),
  operationId: 'createCategory',
  summary: 'Add a category',
  body: documented(CreateCategoryBodySchema, {
    examples: [{ name: 'Leads & collars', parent_id: 2, sort_order: 1 }],
  }),
  response: {
    201: documented(AdminCategoryResponseSchema, {
      description: 'Created',
      examples: [{ success: true, data: adminCategoryExample }],
    }),
    ...shopErrors(
      [400, 'body.parent_id 99 is not a category'],
      [409, 'a category named "Leads & collars" exists already'],
    ),
  },
};

export const updateCategoryOperation = {
  tags: shopTag('Back office'),
  operationId: 'updateCategory',
  summary: 'Change a category',
  description:
    'Only the fields sent change. A parent that would make the category its own ancestor is 409. A deactivated category leaves the storefront’s category list; its products stay as they are.',
  params: IdParamsSchema,
  body: documented(UpdateCategoryBodySchema, { examples: [{ parent_id: 2, sort_order: 3 }] }),
  response: {
    200: documented(AdminCategoryResponseSchema, {
      description: 'The category as changed',
      examples: [{ success: true, data: adminCategoryExample }],
    }),
    ...shopErrors(
      [400, 'body.parent_id 99 is not a category'],
      [...categoryNotFound],
      [409, 'category 2 cannot have parent 3: 3 is inside 2'],
    ),
  },
};
