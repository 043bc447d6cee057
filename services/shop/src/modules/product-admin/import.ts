// The back office's product import: the export's CSV back in. Every row is read and checked
// first (its problems named by row and column); then, unless it is a dry run or any row has a
// problem, all rows are written in one transaction.
import {
  PRODUCT_CSV_COLUMNS,
  PRODUCT_IMPORT_MAX_ROWS,
  type AdminProduct,
  type ProductChangeField,
  type ProductCsvColumn,
  type ProductImportProblem,
  type ProductImportReport,
} from '@dogshop/contracts/shop';
import { HttpError, badRequest, readCsvRecords, withoutFormulaGuard } from '@dogshop/service-kit';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/prisma-errors.js';
import { centsText } from '../../domain/money.js';
import type { Actor } from '../audit/actor.js';
import { insertAuditEntry } from '../audit/repository.js';
import { insertMovement } from '../stock/repository.js';
import { stockEvents } from '../stock/service.js';
import { productCreatedEvent, productUpdatedEvent } from '../events/builders.js';
import { insertEvents, type EventTx } from '../events/repository.js';
import { writeEvents } from '../events/service.js';
import { getAdminProduct, publicProduct } from './service.js';
import { toAdminProduct } from './mapper.js';
import {
  findProductsByIds,
  findCategoryNames,
  findNameHolders,
  insertProduct,
  lockAdminProducts,
  updateProductFields,
  type ProductFields,
} from './repository.js';

const MAX_ID = 2_147_483_647;

/** A row's values for the columns the file has (absent column: undefined, keep the stored). */
interface RowValues {
  id: number | null;
  name?: string;
  description?: string;
  price?: string;
  categoryId?: number;
  categoryName?: string;
  stock?: number;
  active?: boolean;
}

interface ReadRow {
  row: number;
  values: RowValues;
}

type ImportField = 'name' | 'description' | 'price' | 'category_id' | 'stock' | 'active';

/** The file as rows of values, and the problems of its cells. */
export async function readProductCsv(
  bytes: Buffer,
): Promise<{ rows: ReadRow[]; problems: ProductImportProblem[] }> {
  let header: ProductCsvColumn[] | undefined;
  const rows: ReadRow[] = [];
  const problems: ProductImportProblem[] = [];
  await readCsvRecords(
    bytes,
    { notUtf8: 'the file is not UTF-8 text', unreadable: 'the file is not readable as CSV' },
    (record, cells) => {
      if (cells.every((cell) => cell.trim() === '')) return;
      if (!header) {
        header = readHeader(cells);
        return;
      }
      if (rows.length === PRODUCT_IMPORT_MAX_ROWS) throw tooLarge();
      rows.push({ row: record, values: readRow(record, header, cells, problems) });
    },
  );
  if (!header) throw badRequest('the file has no header row');
  return { rows, problems };
}

const tooLarge = () =>
  new HttpError(
    413,
    `the file is larger than 10 MB or has more than ${PRODUCT_IMPORT_MAX_ROWS.toLocaleString('en')} rows`,
  );

function readHeader(cells: string[]): ProductCsvColumn[] {
  const header = cells.map((cell) => cell.trim());
  const seen = new Set<string>();
  for (const column of header) {
    if (!(PRODUCT_CSV_COLUMNS as readonly string[]).includes(column)) {
      throw badRequest(
        `the file has an unknown column "${column}" (columns: ${PRODUCT_CSV_COLUMNS.join(', ')})`,
      );
    }
    if (seen.has(column)) throw badRequest(`the file has the column "${column}" twice`);
    seen.add(column);
  }
  for (const required of ['id', 'name', 'price', 'category_id'] as const) {
    if (!seen.has(required)) throw badRequest(`the file has no column "${required}"`);
  }
  return header as ProductCsvColumn[];
}

const INTEGER = /^\d{1,10}$/;
const AMOUNT = /^\d{1,8}([.,]\d{1,2})?$/;

/** One record's cells as values; each unreadable cell is a problem of its row and column. */
function readRow(
  row: number,
  header: ProductCsvColumn[],
  cells: string[],
  problems: ProductImportProblem[],
): RowValues {
  const values: RowValues = { id: null };
  const problem = (column: string, message: string) => problems.push({ row, column, message });
  if (cells.length > header.length && cells.slice(header.length).some((c) => c.trim() !== '')) {
    problem(header.at(-1)!, `the row has ${cells.length} cells, the header ${header.length}`);
  }
  header.forEach((column, index) => {
    const raw = withoutFormulaGuard(cells[index] ?? '');
    const text = raw.trim();
    switch (column) {
      case 'id':
      case 'category_id': {
        if (text === '') {
          if (column === 'category_id') problem(column, 'is required');
          return;
        }
        const n = INTEGER.test(text) ? Number(text) : 0;
        if (n < 1 || n > MAX_ID) return problem(column, 'is not an id (a whole number from 1)');
        if (column === 'id') values.id = n;
        else values.categoryId = n;
        return;
      }
      case 'name':
        if (text === '') return problem(column, 'is required');
        if (text.length > 300) return problem(column, 'is longer than 300 characters');
        values.name = text;
        return;
      case 'description':
        if (raw.length > 10_000) return problem(column, 'is longer than 10,000 characters');
        values.description = raw;
        return;
      case 'category_name':
        if (text !== '') values.categoryName = text;
        return;
      case 'price': {
        const price = AMOUNT.test(text) ? centsText(Number(text.replace(',', '.'))) : null;
        if (price === null) return problem(column, 'is not an amount with at most two decimals');
        values.price = price;
        return;
      }
      case 'stock': {
        if (text === '') return;
        const n = INTEGER.test(text) ? Number(text) : -1;
        if (n < 0 || n > MAX_ID) return problem(column, 'is not a stock (a whole number from 0)');
        values.stock = n;
        return;
      }
      case 'active': {
        const value = text.toLowerCase();
        if (value !== 'true' && value !== 'false') return problem(column, 'is not true or false');
        values.active = value === 'true';
        return;
      }
    }
  });
  return values;
}

/** What a row does to the product it names (or would create). */
interface Planned {
  row: number;
  values: RowValues;
  before: AdminProduct | null;
  changes: ImportField[];
}

/** The fields a row changes on its product, and the values to write. */
function changesOf(before: AdminProduct, v: RowValues): ImportField[] {
  const changes: ImportField[] = [];
  if (v.name !== undefined && v.name !== before.name) changes.push('name');
  if (v.description !== undefined && v.description !== before.description)
    changes.push('description');
  if (v.price !== undefined && Number(v.price) !== before.price) changes.push('price');
  if (v.categoryId !== undefined && v.categoryId !== before.category_id)
    changes.push('category_id');
  if (v.stock !== undefined && v.stock !== before.stock) changes.push('stock');
  if (v.active !== undefined && v.active !== before.active) changes.push('active');
  return changes;
}

/**
 * Judges every read row against the stored products and categories: unknown ids and
 * categories, a category name that is not its id's, a name taken in its category (in the file
 * or by another product), an id twice.
 */
async function plan(
  db: Db | Tx,
  rows: ReadRow[],
  problems: ProductImportProblem[],
  stored: (ids: number[]) => Promise<AdminProduct[]>,
): Promise<Planned[]> {
  const problem = (row: number, column: string, message: string) =>
    problems.push({ row, column, message });
  const ids = [...new Set(rows.flatMap((r) => (r.values.id === null ? [] : [r.values.id])))];
  const products = new Map((await stored(ids)).map((p) => [p.id, p]));
  const categoryIds = [
    ...new Set(
      rows.flatMap((r) => (r.values.categoryId === undefined ? [] : [r.values.categoryId])),
    ),
  ];
  const categories = await findCategoryNames(db, categoryIds);
  const seenIds = new Map<number, number>();
  const planned: Planned[] = [];
  for (const { row, values } of rows) {
    let before: AdminProduct | null = null;
    if (values.id !== null) {
      before = products.get(values.id) ?? null;
      const first = seenIds.get(values.id);
      if (!before) problem(row, 'id', `no product has id ${values.id}`);
      else if (first !== undefined) problem(row, 'id', `the same id as row ${first}`);
      else seenIds.set(values.id, row);
    }
    const categoryId = values.categoryId ?? before?.category_id;
    if (values.categoryId !== undefined && !categories.has(values.categoryId)) {
      problem(row, 'category_id', `no category has id ${values.categoryId}`);
    } else if (
      values.categoryName !== undefined &&
      categoryId !== undefined &&
      categories.get(categoryId) !== values.categoryName
    ) {
      problem(
        row,
        'category_name',
        `is not the name of category ${categoryId} ("${categories.get(categoryId)}"): change category_id to move the product`,
      );
    }
    planned.push({ row, values, before, changes: before ? changesOf(before, values) : [] });
  }
  await checkNames(db, planned, problem);
  return planned;
}

/** A product's name is unique in its category: in the file, and against the other products. */
async function checkNames(
  db: Db | Tx,
  planned: Planned[],
  problem: (row: number, column: string, message: string) => void,
): Promise<void> {
  const target = (p: Planned) => ({
    categoryId: p.values.categoryId ?? p.before?.category_id,
    name: p.values.name ?? p.before?.name,
  });
  const inFile = new Map<string, number>();
  const pairs: Array<{ categoryId: number; name: string }> = [];
  // A row naming an unknown id has its problem already.
  const judged = planned.filter((p) => p.values.id === null || p.before !== null);
  for (const p of judged) {
    const { categoryId, name } = target(p);
    if (categoryId === undefined || name === undefined) continue;
    const key = `${categoryId}\u0000${name}`;
    const first = inFile.get(key);
    if (first !== undefined) {
      problem(p.row, 'name', `category ${categoryId} has "${name}" in row ${first} already`);
    } else inFile.set(key, p.row);
    pairs.push({ categoryId, name });
  }
  const holders = await findNameHolders(db, pairs);
  for (const p of judged) {
    const { categoryId, name } = target(p);
    const holder = holders.get(`${categoryId}\u0000${name}`);
    if (holder !== undefined && holder !== p.values.id && !movesAway(planned, holder)) {
      problem(
        p.row,
        'name',
        `category ${categoryId} already has a product named "${name}" (id ${holder})`,
      );
    }
  }
}

/** Whether the file renames or moves the product `id` away from its current name or category. */
const movesAway = (planned: Planned[], id: number) =>
  planned.some(
    (p) => p.values.id === id && (p.changes.includes('name') || p.changes.includes('category_id')),
  );

function report(
  planned: Planned[],
  problems: ProductImportProblem[],
  dryRun: boolean,
  applied: boolean,
  created: Map<number, number> = new Map(),
): ProductImportReport {
  const invalid = new Set(problems.map((p) => p.row));
  const rows = planned.map((p) => {
    const action = invalid.has(p.row)
      ? ('invalid' as const)
      : !p.before
        ? ('create' as const)
        : p.changes.length > 0
          ? ('update' as const)
          : ('unchanged' as const);
    return {
      row: p.row,
      action,
      id: p.before?.id ?? created.get(p.row) ?? null,
      changes: action === 'update' ? p.changes : [],
    };
  });
  const count = (action: string) => rows.filter((r) => r.action === action).length;
  return {
    dry_run: dryRun,
    applied,
    summary: {
      rows: rows.length,
      create: count('create'),
      update: count('update'),
      unchanged: count('unchanged'),
      invalid: count('invalid'),
    },
    rows,
    problems: problems.sort((a, b) => a.row - b.row),
  };
}

/**
 * The import of a file: a dry run reports; otherwise every row is written in one transaction
 * (the changed products locked in ascending id, as orders lock them, and judged again as they
 * then are), or nothing when any row has a problem. A stock that differs enters the movements
 * as `import`.
 */
export async function importProducts(
  db: Db,
  actor: Actor,
  bytes: Buffer,
  dryRun: boolean,
): Promise<ProductImportReport> {
  const read = await readProductCsv(bytes);
  const problems = [...read.problems];
  const planned = await plan(db, read.rows, problems, async (ids) =>
    (await findProductsByIds(db, ids)).map(toAdminProduct),
  );
  if (dryRun || problems.length > 0) return report(planned, problems, dryRun, false);
  try {
    return await writeEvents(
      db,
      async (tx) => {
        const again: ProductImportProblem[] = [];
        const locked = await plan(tx, read.rows, again, async (ids) =>
          (
            await lockAdminProducts(
              tx,
              ids.sort((a, b) => a - b),
            )
          ).map(toAdminProduct),
        );
        if (again.length > 0) return report(locked, again, false, false);
        const created = new Map<number, number>();
        for (const p of locked) {
          if (p.before) await applyUpdate(tx, actor, p.before, p);
          else created.set(p.row, await applyCreate(tx, actor, p.values));
        }
        return report(locked, [], false, true, created);
      },
      { timeout: 10 * 60_000, maxWait: 30_000 },
    );
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new HttpError(409, 'the import met a product name taken in the meantime; run it again');
    }
    throw error;
  }
}

async function applyCreate(tx: EventTx, actor: Actor, v: RowValues): Promise<number> {
  const stock = v.stock ?? 0;
  const id = await insertProduct(tx, {
    name: v.name!,
    description: v.description ?? '',
    price: v.price!,
    categoryId: v.categoryId!,
    active: v.active ?? true,
    stock,
  });
  await insertMovement(tx, { productId: id, kind: 'created', delta: stock, stock, actor });
  await insertAuditEntry(tx, actor, {
    action: 'product.import',
    resource: 'product',
    resourceId: id,
    after: { name: v.name, price: Number(v.price), category_id: v.categoryId, stock },
  });
  await insertEvents(tx, [
    productCreatedEvent(publicProduct(await getAdminProduct(tx, id)), actor),
  ]);
  return id;
}

async function applyUpdate(
  tx: EventTx,
  actor: Actor,
  before: AdminProduct,
  p: Planned,
): Promise<void> {
  if (p.changes.length === 0) return;
  const v = p.values;
  const fields: Partial<ProductFields> & { stock?: number } = {};
  if (p.changes.includes('name')) fields.name = v.name!;
  if (p.changes.includes('description')) fields.description = v.description!;
  if (p.changes.includes('price')) fields.price = v.price!;
  if (p.changes.includes('category_id')) fields.categoryId = v.categoryId!;
  if (p.changes.includes('active')) fields.active = v.active!;
  if (p.changes.includes('stock')) fields.stock = v.stock!;
  await updateProductFields(tx, before.id, fields);
  if (fields.stock !== undefined) {
    await insertMovement(tx, {
      productId: before.id,
      kind: 'import',
      delta: fields.stock - before.stock,
      stock: fields.stock,
      actor,
    });
    await insertEvents(
      tx,
      stockEvents(
        { id: before.id, name: fields.name ?? before.name },
        before.stock,
        fields.stock,
        actor,
      ),
    );
  }
  const changed = p.changes.flatMap((c): ProductChangeField[] =>
    c === 'stock' ? [] : [c === 'category_id' ? 'category' : c],
  );
  await insertEvents(tx, [
    productUpdatedEvent(publicProduct(await getAdminProduct(tx, before.id)), changed, actor),
  ]);
  const after: Record<ImportField, unknown> = {
    name: v.name,
    description: v.description,
    price: Number(v.price),
    category_id: v.categoryId,
    stock: v.stock,
    active: v.active,
  };
  await insertAuditEntry(tx, actor, {
    action: 'product.import',
    resource: 'product',
    resourceId: before.id,
    before: Object.fromEntries(p.changes.map((c) => [c, before[c]])),
    after: Object.fromEntries(p.changes.map((c) => [c, after[c]])),
  });
}
