// The import of handlers from a file the export wrote (CSV or XLSX; import-parse.ts reads it):
// each row becomes a body, checked by the create body's schema, then compared with the stored
// handler its id names. A dry run reports; otherwise every create and update is applied in one
// transaction, or none when any row has a problem. Bodies hold only the field table's names
// (fields.ts): a file's headers select columns, they never become keys.
import {
  CreateHandlerBodySchema,
  GpsSchema,
  type CreateHandlerBody,
  type Handler,
  type ImportProblem,
  type ImportReport,
  type UpdateHandlerBody,
} from '@dogshop/contracts/handler-directory';
import { badRequest, HttpError, withoutFormulaGuard } from '@dogshop/service-kit';
import { mongo } from 'mongoose';
import { Compile } from 'typebox/compile';
import {
  FIELD_ENTRIES,
  HANDLER_BODY_NORMALIZATION,
  changesFromUpdate,
  storedFromCreate,
  type CellKind,
  type ExportHeader,
} from './fields.js';
import type { ChangeEntry } from './history.js';
import {
  readImportFile,
  type Cell,
  type DataRow,
  type ImportFormat,
  type ImportTable,
} from './import-parse.js';
import { toHandler } from './mapper.js';
import {
  findHandlerRecordsByIds,
  insertHandlers,
  updateHandlers,
  type HandlerUpdate,
} from './repository.js';
import { inTransaction, withAvailabilityRules, type HandlerWriter } from './service.js';
import { IMPORT_MESSAGES, IMPORT_PROBLEMS } from '../../messages.js';

/** The report without the envelope's `success`. */
export type ImportResult = Omit<ImportReport, 'success'>;

/** The ranges of the number columns (the position's coordinates), for their problem text. */
const NUMBER_RANGE = GpsSchema.properties as unknown as Partial<
  Record<string, { minimum: number; maximum: number }>
>;

// ---------------------------------------------------------------------------------------------
// The columns: the id, and those of the fields a body writes (the others are ignored)

type FieldName = (typeof FIELD_ENTRIES)[number][0];
type FieldSpec = (typeof FIELD_ENTRIES)[number][1];

interface ImportField {
  name: FieldName;
  spec: FieldSpec;
  columns: Array<{ header: ExportHeader; kind: CellKind }>;
  /** Text trimmed, as the routes trim bodies. */
  trim: boolean;
  /** An empty cell gives nothing (a create takes the default, an update keeps the value). */
  emptyIsAbsent: boolean;
  /** The create body requires it, so its column must be in the file. */
  required: boolean;
}

const ID_HEADER: ExportHeader = 'id';
const REQUIRED = new Set<string>(CreateHandlerBodySchema.required);
const TRIMMED = new Set<string>(HANDLER_BODY_NORMALIZATION.trim);

const IMPORT_FIELDS: ImportField[] = FIELD_ENTRIES.flatMap(([name, spec]) =>
  spec.write
    ? [
        {
          name,
          spec,
          columns: spec.columns.map((column) => ({
            header: column.header ?? (name as ExportHeader),
            kind: column.kind,
          })),
          trim: TRIMMED.has(name),
          emptyIsAbsent: spec.write.default !== undefined,
          required: REQUIRED.has(name),
        },
      ]
    : [],
);

const KNOWN_HEADERS = new Map<string, ExportHeader>(
  [ID_HEADER, ...IMPORT_FIELDS.flatMap((field) => field.columns.map((c) => c.header))].map(
    (header) => [header.toLowerCase(), header],
  ),
);

/** A row's problems in the export's column order. */
const COLUMN_ORDER = [...KNOWN_HEADERS.values()];
const byColumn = (a: ImportProblem, b: ImportProblem) =>
  COLUMN_ORDER.indexOf(a.column as ExportHeader) - COLUMN_ORDER.indexOf(b.column as ExportHeader);

/** Where each known column is in the file (headers match case-insensitively; others ignored). */
function columnIndexes(header: readonly string[]): Map<ExportHeader, number> {
  const at = new Map<ExportHeader, number>();
  header.forEach((text, index) => {
    const known = KNOWN_HEADERS.get(text.toLowerCase());
    if (!known) return;
    if (at.has(known)) throw badRequest(IMPORT_MESSAGES.duplicateColumn(known));
    at.set(known, index);
  });
  for (const field of IMPORT_FIELDS) {
    const present = field.columns.filter((column) => at.has(column.header));
    if (field.required && present.length === 0) {
      throw badRequest(IMPORT_MESSAGES.missingColumn(field.columns[0]!.header));
    }
    if (present.length > 0 && present.length < field.columns.length) {
      throw badRequest(IMPORT_MESSAGES.columnsTogether(field.columns.map((c) => c.header)));
    }
  }
  return at;
}

// ---------------------------------------------------------------------------------------------
// Cells to values

type Read = { value: unknown } | { problem: string };
const NONE: Read = { value: null };

const PLAIN_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

function unreadable(cell: Cell): Read | undefined {
  if (cell === null || typeof cell !== 'object' || cell instanceof Date) return undefined;
  return {
    problem: cell.unreadable === 'formula' ? IMPORT_PROBLEMS.formula : IMPORT_PROBLEMS.cellError,
  };
}

/** A cell of a column of this kind as a body value (null: empty), or its problem. */
function readCell(cell: Cell, kind: CellKind, header: string, format: ImportFormat, trim: boolean) {
  const problem = unreadable(cell);
  if (problem) return problem;
  if (cell === null) return NONE;
  switch (kind) {
    case 'text': {
      if (typeof cell !== 'string' && typeof cell !== 'number')
        return { problem: IMPORT_PROBLEMS.notText };
      let text = typeof cell === 'number' ? String(cell) : cell;
      if (format === 'csv') text = withoutFormulaGuard(text);
      if (trim) text = text.trim();
      if (text.includes('\u0000')) return { problem: IMPORT_PROBLEMS.nul };
      return text === '' ? NONE : { value: text };
    }
    case 'boolean': {
      if (typeof cell === 'boolean') return { value: cell };
      const text = typeof cell === 'string' ? cell.trim().toLowerCase() : undefined;
      if (text === '') return NONE;
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return { problem: IMPORT_PROBLEMS.notBoolean };
    }
    case 'dateTime': {
      if (cell instanceof Date) {
        return Number.isNaN(cell.getTime())
          ? { problem: IMPORT_PROBLEMS.notDateTime }
          : { value: cell.toISOString() };
      }
      if (typeof cell !== 'string') return { problem: IMPORT_PROBLEMS.notDateTime };
      const text = cell.trim();
      return text === '' ? NONE : { value: text };
    }
    case 'number': {
      if (typeof cell === 'number') return { value: cell };
      if (typeof cell !== 'string')
        return { problem: IMPORT_PROBLEMS.notNumber(NUMBER_RANGE[header]) };
      const text = cell.trim();
      if (text === '') return NONE;
      if (PLAIN_NUMBER.test(text)) return { value: Number(text) };
      const comma = PLAIN_NUMBER.test(text.replace(',', '.'));
      return {
        problem: `${IMPORT_PROBLEMS.notNumber(NUMBER_RANGE[header])}${comma ? ` (${IMPORT_PROBLEMS.decimalComma})` : ''}`,
      };
    }
    case 'id': {
      if (typeof cell !== 'string') return { problem: IMPORT_PROBLEMS.notId };
      const text = cell.trim();
      if (text === '') return NONE;
      return /^[0-9a-f]{24}$/i.test(text)
        ? { value: text.toLowerCase() }
        : { problem: IMPORT_PROBLEMS.notId };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rows to bodies

/** A data row as a body: the fields whose columns the file has (null: empty, i.e. none). */
interface RowInput {
  row: number;
  id?: string;
  body: UpdateHandlerBody;
  problems: ImportProblem[];
}

function rowInput(
  { row, cells }: DataRow,
  at: Map<ExportHeader, number>,
  format: ImportFormat,
): RowInput {
  const problems: ImportProblem[] = [];
  const problem = (column: string, message: string) => problems.push({ row, column, message });
  const cellOf = (header: ExportHeader) => cells[at.get(header)!] ?? null;
  const body: Record<string, unknown> = {};
  let id: string | undefined;
  if (at.has(ID_HEADER)) {
    const read = readCell(cellOf(ID_HEADER), 'id', ID_HEADER, format, true);
    if ('problem' in read) problem(ID_HEADER, read.problem);
    else if (read.value !== null) id = read.value as string;
  }
  for (const field of IMPORT_FIELDS) {
    const present = field.columns.filter((column) => at.has(column.header));
    if (present.length === 0) continue;
    const values: Record<string, unknown> = {};
    let readable = true;
    for (const { header, kind } of present) {
      const read = readCell(cellOf(header), kind, header, format, field.trim);
      if ('problem' in read) {
        problem(header, read.problem);
        readable = false;
      } else values[header] = read.value;
    }
    if (!readable) continue;
    const value = assemble(field, values, problem);
    if (value === undefined) continue;
    if (value === null && field.emptyIsAbsent) continue;
    // An empty required text stays empty, so the schema names it ("darf nicht leer sein").
    body[field.name] = value === null && field.required ? '' : value;
  }
  for (const found of schemaProblems(body)) {
    if (!problems.some((p) => p.column === found.column)) problem(found.column, found.message);
  }
  return { row, ...(id === undefined ? {} : { id }), body, problems };
}

/**
 * A field's value from its columns: a one-column field's cell; a field of several columns (the
 * position) an object of them by header, null when all are empty, undefined (with a problem)
 * when only some are.
 */
function assemble(
  field: ImportField,
  values: Record<string, unknown>,
  problem: (column: string, message: string) => void,
): unknown {
  if (field.columns.length === 1) return values[field.columns[0]!.header];
  const empty = field.columns.filter((column) => values[column.header] === null);
  if (empty.length === field.columns.length) return null;
  if (empty.length > 0) {
    const headers = field.columns.map((c) => c.header);
    for (const column of empty) problem(column.header, IMPORT_PROBLEMS.together(headers));
    return undefined;
  }
  return Object.fromEntries(field.columns.map((c) => [c.header, values[c.header]]));
}

const CREATE_BODY = Compile(CreateHandlerBodySchema);

/** The create body schema's verdict on a row's body, as a problem per column (first only). */
function schemaProblems(body: Record<string, unknown>): Array<{ column: string; message: string }> {
  const found: Array<{ column: string; message: string }> = [];
  if (CREATE_BODY.Check(body)) return found;
  for (const error of CREATE_BODY.Errors(body)) {
    const [, name, part] = error.instancePath.split('/');
    const field = IMPORT_FIELDS.find((f) => f.name === name);
    // `required`: a field left out for a problem of its own; `anyOf` and the null branch of a
    // union: the other branch's error says more.
    if (!field || error.keyword === 'required' || error.keyword === 'anyOf') continue;
    const params = error.params as { limit?: number; type?: string };
    if (error.keyword === 'type' && params.type === 'null') continue;
    const column = part ?? (field.columns.length === 1 ? field.columns[0]!.header : undefined);
    if (!column || found.some((f) => f.column === column)) continue;
    found.push({ column, message: schemaMessage(error.keyword, params, column) });
  }
  return found;
}

function schemaMessage(keyword: string, params: { limit?: number }, column: string): string {
  switch (keyword) {
    case 'minLength':
      return params.limit === 1
        ? IMPORT_PROBLEMS.empty
        : IMPORT_PROBLEMS.tooShort(params.limit ?? 0);
    case 'maxLength':
      return IMPORT_PROBLEMS.tooLong(params.limit ?? 0);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return IMPORT_PROBLEMS.notNumber(NUMBER_RANGE[column]);
    case 'format':
      return IMPORT_PROBLEMS.notDateTime;
    default:
      return IMPORT_PROBLEMS.invalid;
  }
}

// ---------------------------------------------------------------------------------------------
// Comparing with the stored handler

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A body value as the API would show it once stored (fields.ts's write, then show). */
function shownAs(field: ImportField, given: unknown): unknown {
  if (given === null || given === '') return null;
  const write = field.spec.write!;
  return field.spec.show(write.store(given as never)) ?? null;
}

/** The body's fields whose value differs from the handler's: what an update changes. */
function differences(body: UpdateHandlerBody, handler: Handler): UpdateHandlerBody {
  const changed: Record<string, unknown> = {};
  for (const field of IMPORT_FIELDS) {
    const given = body[field.name as keyof UpdateHandlerBody];
    if (given === undefined) continue;
    const stored = (handler[field.name] as unknown) ?? null;
    if (!same(shownAs(field, given), stored)) changed[field.name] = given;
  }
  return changed;
}

/** A time a write gives must lie ahead (the service's rule); the problem when it does not. */
function pastEnd(row: number, body: UpdateHandlerBody, now: Date): ImportProblem | undefined {
  const until = body.availableUntil;
  if (typeof until !== 'string' || Date.parse(until) > now.getTime()) return undefined;
  return { row, column: 'availableUntil', message: IMPORT_PROBLEMS.inThePast };
}

// ---------------------------------------------------------------------------------------------
// Planning and applying

/** What a row does, once checked against the stored handlers. */
type RowPlan =
  | { row: number; action: 'create'; body: CreateHandlerBody }
  | { row: number; action: 'update'; id: string; body: UpdateHandlerBody }
  | { row: number; action: 'unchanged'; id: string }
  | { row: number; action: 'invalid' };

/** Handlers read per query when the rows' ids are looked up. */
const LOOKUP_BATCH = 1_000;

async function storedHandlers(
  writer: HandlerWriter,
  ids: readonly string[],
): Promise<Map<string, Handler>> {
  const stored = new Map<string, Handler>();
  for (let at = 0; at < ids.length; at += LOOKUP_BATCH) {
    for (const record of await findHandlerRecordsByIds(
      writer.db,
      ids.slice(at, at + LOOKUP_BATCH),
    )) {
      const handler = toHandler(record);
      stored.set(handler._id, handler);
    }
  }
  return stored;
}

async function plan(
  writer: HandlerWriter,
  table: ImportTable,
  now: Date,
): Promise<{ plans: RowPlan[]; problems: ImportProblem[] }> {
  const at = columnIndexes(table.header);
  const inputs = table.rows.map((row) => rowInput(row, at, table.format));
  const firstRowOf = new Map<string, number>();
  for (const input of inputs) {
    if (input.id === undefined) continue;
    const first = firstRowOf.get(input.id);
    if (first === undefined) {
      firstRowOf.set(input.id, input.row);
      continue;
    }
    input.problems.push({
      row: input.row,
      column: ID_HEADER,
      message: IMPORT_PROBLEMS.duplicateId(first),
    });
  }
  const stored = await storedHandlers(writer, [...firstRowOf.keys()]);
  const problems: ImportProblem[] = [];
  const plans = inputs.map(({ row, id, body, problems: found }): RowPlan => {
    const handler = id === undefined ? undefined : stored.get(id);
    if (id !== undefined && !handler) {
      found.push({ row, column: ID_HEADER, message: IMPORT_PROBLEMS.unknownId });
    }
    let result: RowPlan = { row, action: 'invalid' };
    // Only a body without problems is compared and checked further (its values are valid).
    if (found.length === 0) {
      const changed = handler ? differences(body, handler) : body;
      result =
        id === undefined
          ? { row, action: 'create', body: body as CreateHandlerBody }
          : Object.keys(changed).length === 0
            ? { row, action: 'unchanged', id }
            : { row, action: 'update', id, body: changed };
      const past = pastEnd(row, changed, now);
      if (past) found.push(past);
    }
    problems.push(...found.sort(byColumn));
    return found.length > 0 ? { row, action: 'invalid' } : result;
  });
  return { plans, problems };
}

/** A handler the plan updates was deleted before the transaction read it. */
class HandlerGone extends Error {}

/**
 * How long an attempt of the import's transaction may have run when it failed for the driver to
 * run it again: MongoDB aborts a transaction open longer than its transactionLifetimeLimitSeconds
 * (60 s by default, the stand-in likewise), its next statement or commit then fails with
 * NoSuchTransaction (251, TransientTransactionError), and withTransaction would run the whole
 * write again, as long again, until its own 120 s are up. An attempt that failed after this long
 * most likely hit that limit: the import ends there (503) rather than try once more.
 */
export const ATTEMPT_LIMIT_MS = 50_000;

/** The previous attempt ran too long (see ATTEMPT_LIMIT_MS). Not a driver error: not retried. */
class TransactionTooLong extends Error {}

/** Called at the start of each attempt of a transaction; throws when the one before ran too long. */
function attemptGuard(limitMs: number) {
  let previousStart: number | undefined;
  return {
    next(): void {
      const start = Date.now();
      if (previousStart !== undefined && start - previousStart >= limitMs) {
        throw new TransactionTooLong();
      }
      previousStart = start;
    },
  };
}

/**
 * Whether the transaction failed for lack of time: our guard, or the driver giving up its
 * retries (an error it would otherwise have retried: TransientTransactionError, e.g.
 * NoSuchTransaction after the lifetime limit; or MongoDB's TransactionExceededLifetimeLimitSeconds).
 */
export function transactionOutOfTime(error: unknown): boolean {
  if (error instanceof TransactionTooLong) return true;
  if (!(error instanceof mongo.MongoError)) return false;
  return (
    error.hasErrorLabel(mongo.MongoErrorLabel.TransientTransactionError) ||
    error.code === 251 ||
    error.code === 290
  );
}

/** How often a file is planned again after a handler it updates was deleted meanwhile. */
const REPLANS = 2;

/** Handlers read, and written, per round trip when the updates are applied. */
const WRITE_BATCH = 1_000;

/**
 * Applies the creates and updates in one transaction, each with an `import` history entry; the
 * ids of the created handlers by row. The creates are one insert; the updates re-read their
 * handlers in the transaction, WRITE_BATCH at a time (one query), and change only what still
 * differs (one bulk write per batch); the history is one insert. So the transaction makes a few
 * round trips per thousand rows rather than two per row.
 */
async function apply(
  writer: HandlerWriter,
  plans: readonly RowPlan[],
  now: Date,
  attemptLimitMs: number,
) {
  const attempts = attemptGuard(attemptLimitMs);
  return inTransaction(writer, async (session) => {
    attempts.next();
    const created = new Map<number, string>();
    const entries: ChangeEntry[] = [];
    // The new handlers in one insert (one round trip, not one per row).
    const creates = plans.filter((row) => row.action === 'create');
    const stored = creates.map((row) => {
      const { set } = withAvailabilityRules(
        { set: storedFromCreate(row.body), unset: {} },
        row.body,
        now,
      );
      return { ...set, availabilityConfirmedAt: now };
    });
    const inserted = stored.length > 0 ? await insertHandlers(writer.db, stored, session) : [];
    inserted.forEach((record, i) => {
      const handler = toHandler(record);
      created.set(creates[i]!.row, handler._id);
      entries.push({ handlerId: handler._id, action: 'import', before: null, after: handler });
    });
    const updates = plans.filter((row) => row.action === 'update');
    for (let at = 0; at < updates.length; at += WRITE_BATCH) {
      const batch = updates.slice(at, at + WRITE_BATCH);
      const records = new Map(
        (
          await findHandlerRecordsByIds(
            writer.db,
            batch.map((row) => row.id),
            session,
          )
        ).map((record) => [record._id.toHexString(), record]),
      );
      const writes: HandlerUpdate[] = [];
      const befores: Handler[] = [];
      for (const row of batch) {
        const record = records.get(row.id);
        if (!record) throw new HandlerGone();
        const before = toHandler(record);
        const body = differences(row.body, before);
        if (Object.keys(body).length === 0) continue;
        writes.push({
          before: record,
          changes: withAvailabilityRules(changesFromUpdate(body), body, now),
        });
        befores.push(before);
      }
      const afters = await updateHandlers(writer.db, writes, session);
      afters.forEach((after, i) => {
        const before = befores[i]!;
        entries.push({ handlerId: before._id, action: 'import', before, after: toHandler(after) });
      });
    }
    return { result: created, entries };
  });
}

/**
 * Imports a CSV or XLSX file: reports per row what happens (`dryRun`), or applies every row
 * (`applied`), or none when a row has a problem (then `applied` is false with `dryRun` false).
 * A transaction that cannot be completed in time is a 503 (IMPORT_MESSAGES.tooLong), nothing applied.
 */
export async function importHandlers(
  writer: HandlerWriter,
  file: { bytes: Buffer; format: ImportFormat },
  dryRun: boolean,
  now = new Date(),
  { attemptLimitMs = ATTEMPT_LIMIT_MS }: { attemptLimitMs?: number } = {},
): Promise<ImportResult> {
  const table = await readImportFile(file.bytes, file.format);
  for (let attempt = 0; ; attempt += 1) {
    const { plans, problems } = await plan(writer, table, now);
    const result = report(plans, problems, dryRun);
    if (dryRun || problems.length > 0) return result;
    if (result.summary.create + result.summary.update === 0) return { ...result, applied: true };
    try {
      const created = await apply(writer, plans, now, attemptLimitMs);
      for (const row of result.rows) {
        const id = created.get(row.row);
        if (id !== undefined) row.id = id;
      }
      return { ...result, applied: true };
    } catch (error) {
      if (transactionOutOfTime(error)) throw new HttpError(503, IMPORT_MESSAGES.tooLong);
      // Planned again, the deleted handler's row is a problem ("kein Hundeführer …").
      if (!(error instanceof HandlerGone) || attempt === REPLANS) throw error;
    }
  }
}

function report(plans: readonly RowPlan[], problems: ImportProblem[], dryRun: boolean) {
  const count = (action: RowPlan['action']) => plans.filter((p) => p.action === action).length;
  const result: ImportResult = {
    dryRun,
    applied: false,
    summary: {
      rows: plans.length,
      create: count('create'),
      update: count('update'),
      unchanged: count('unchanged'),
      invalid: count('invalid'),
    },
    rows: plans.map((p) => ({ row: p.row, action: p.action, ...('id' in p ? { id: p.id } : {}) })),
    problems,
  };
  return result;
}
