import type {
  AdminProduct,
  AdminProductListQuery,
  AdminProductSort,
  CreateProductBody,
  Product,
  ProductChangeField,
  UpdateProductBody,
} from '@dogshop/contracts/shop';
import { badRequest, conflict, notFound } from '@dogshop/service-kit';
import type { Db, Tx } from '../../db/client.js';
import { productCreatedEvent, productUpdatedEvent } from '../events/builders.js';
import { insertEvents } from '../events/repository.js';
import { writeEvents } from '../events/service.js';
import { isUniqueViolation } from '../../db/prisma-errors.js';
import { decodeKeyset, encodeKeyset, KEYSET_VALUE, type KeysetValue } from '../../domain/keyset.js';
import { centsText } from '../../domain/money.js';
import type { Actor } from '../audit/actor.js';
import { insertAuditEntry } from '../audit/repository.js';
import { categoryExists } from '../categories/repository.js';
import { insertMovement } from '../stock/repository.js';
import { toAdminProduct } from './mapper.js';
import {
  countProducts,
  findAdminProduct,
  findProductPage,
  insertProduct,
  lockAdminProducts,
  updateProductFields,
  type ProductFields,
  type ProductFilter,
} from './repository.js';

/** The list's and the export's query parameters as a filter. */
export const filterOf = (query: {
  q?: string | undefined;
  category_id?: number | undefined;
  active?: boolean | undefined;
  stock_below?: number | undefined;
}): ProductFilter => ({
  q: query.q?.trim() || undefined,
  categoryId: query.category_id,
  active: query.active,
  stockBelow: query.stock_below,
});

/** What each sort's cursor value looks like. */
const POSITION_VALUE: Record<AdminProductSort, KeysetValue> = {
  '-created_at': KEYSET_VALUE.timestamp,
  name: KEYSET_VALUE.text,
  stock: KEYSET_VALUE.integer,
  price: KEYSET_VALUE.amount,
  '-price': KEYSET_VALUE.amount,
};

/** A page of products in the query's sort, the next page's cursor, and the filter's exact total. */
export async function listAdminProducts(
  db: Db,
  query: AdminProductListQuery,
): Promise<{ products: AdminProduct[]; nextCursor: string | null; total: number }> {
  const filter = filterOf(query);
  const after =
    query.cursor === undefined
      ? undefined
      : decodeKeyset(`products sort=${query.sort}`, query.cursor, POSITION_VALUE[query.sort]);
  const [rows, total] = await Promise.all([
    findProductPage(db, filter, query.sort, query.limit + 1, after),
    countProducts(db, filter),
  ]);
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    products: shown.map(toAdminProduct),
    nextCursor:
      rows.length > query.limit && last
        ? encodeKeyset(`products sort=${query.sort}`, { value: last.position, id: last.id })
        : null,
    total,
  };
}

export const productNotFound = (id: number) => notFound(`Product ${id} not found`);

export async function getAdminProduct(db: Db | Tx, id: number): Promise<AdminProduct> {
  const row = await findAdminProduct(db, id);
  if (!row) throw productNotFound(id);
  return toAdminProduct(row);
}

/** Fields checked against the database and the rules the schema cannot state. */
async function checkFields(
  tx: Tx,
  fields: { price?: number | undefined; category_id?: number | undefined },
): Promise<{ price?: string }> {
  if (fields.category_id !== undefined && !(await categoryExists(tx, fields.category_id))) {
    throw badRequest(`body.category_id ${fields.category_id} is not a category`);
  }
  if (fields.price === undefined) return {};
  const price = centsText(fields.price);
  if (price === null) throw badRequest('body.price must have at most two decimals');
  return { price };
}

const nameTaken = (categoryId: number, name: string) =>
  conflict(`category ${categoryId} already has a product named "${name}"`);

/** A new product; its opening stock is its first movement. */
export async function createProduct(
  db: Db,
  actor: Actor,
  body: CreateProductBody,
): Promise<AdminProduct> {
  const name = body.name.trim();
  try {
    return await writeEvents(db, async (tx) => {
      const { price } = await checkFields(tx, body);
      const stock = body.stock ?? 0;
      const id = await insertProduct(tx, {
        name,
        description: body.description ?? '',
        price: price!,
        categoryId: body.category_id,
        active: body.active ?? true,
        stock,
      });
      await insertMovement(tx, { productId: id, kind: 'created', delta: stock, stock, actor });
      const product = await getAdminProduct(tx, id);
      await insertAuditEntry(tx, actor, {
        action: 'product.create',
        resource: 'product',
        resourceId: id,
        after: product,
      });
      await insertEvents(tx, [productCreatedEvent(publicProduct(product), actor)]);
      return product;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(body.category_id, name);
    throw error;
  }
}

/** The fields a change sets that differ from the product's, with their values as stored. */
function changedFields(
  before: AdminProduct,
  body: UpdateProductBody,
  price: string | undefined,
): Partial<ProductFields> {
  const changes: Partial<ProductFields> = {};
  const name = body.name?.trim();
  if (name !== undefined && name !== before.name) changes.name = name;
  if (body.description !== undefined && body.description !== before.description)
    changes.description = body.description;
  if (price !== undefined && Number(price) !== before.price) changes.price = price;
  if (body.category_id !== undefined && body.category_id !== before.category_id)
    changes.categoryId = body.category_id;
  if (body.active !== undefined && body.active !== before.active) changes.active = body.active;
  return changes;
}

/** The storefront's view of a product, as product events carry it. */
export const publicProduct = ({ updated_at: _updated, ...product }: AdminProduct): Product =>
  product;

/** A changed field as `product.updated` names it. */
const changeField = (field: keyof AdminProduct): ProductChangeField =>
  field === 'category_id' ? 'category' : (field as ProductChangeField);

/** The API's names of changed fields. */
const FIELD_NAMES: Record<keyof ProductFields, keyof AdminProduct> = {
  name: 'name',
  description: 'description',
  price: 'price',
  categoryId: 'category_id',
  active: 'active',
};

/**
 * Changes what the body sends; a product is never deleted (`active: false` hides it). The row is
 * locked while the change is judged, so the audit's before is the state it replaced.
 */
export async function updateProduct(
  db: Db,
  actor: Actor,
  id: number,
  body: UpdateProductBody,
): Promise<AdminProduct> {
  // The name and category the product would have: what a unique violation names.
  let target = { categoryId: 0, name: '' };
  try {
    return await writeEvents(db, async (tx) => {
      const [locked] = await lockAdminProducts(tx, [id]);
      if (!locked) throw productNotFound(id);
      const before = toAdminProduct(locked);
      target = {
        categoryId: body.category_id ?? before.category_id,
        name: body.name?.trim() ?? before.name,
      };
      const { price } = await checkFields(tx, body);
      const changes = changedFields(before, body, price);
      const names = (Object.keys(changes) as Array<keyof ProductFields>).map((k) => FIELD_NAMES[k]);
      if (names.length === 0) return before;
      await updateProductFields(tx, id, changes);
      const after = await getAdminProduct(tx, id);
      await insertAuditEntry(tx, actor, {
        action: 'product.update',
        resource: 'product',
        resourceId: id,
        before: Object.fromEntries(names.map((n) => [n, before[n]])),
        after: Object.fromEntries(names.map((n) => [n, after[n]])),
      });
      await insertEvents(tx, [
        productUpdatedEvent(publicProduct(after), names.map(changeField), actor),
      ]);
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(target.categoryId, target.name);
    throw error;
  }
}
