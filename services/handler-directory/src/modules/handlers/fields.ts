// The handler's fields, each declared once, in HANDLER_FIELDS: how it is stored (its Mongoose
// path), shown (the stored value as the API's Handler has it), written from request bodies
// (trimmed, defaulted, removed by null) and exported (its CSV and XLSX columns). Everything else
// derives from the table: the model (db/handler-model.ts), the projection of lists and exports
// (repository.ts), the mapper (mapper.ts), what a create or an update stores (service.ts), the
// body normalisation of the routes, and the export columns (export-csv.ts, export-xlsx.ts).
//
// A new field is an entry here (one of the kinds below, or a new kind beside them), its schemas
// in the contract (HandlerSchema, the create and update bodies, EXPORT_CSV_COLUMNS for each of
// its columns), and a value for it in test/handler-fields.test.ts. The build refuses a table
// without an entry for a field of the contract's Handler, and a body field without a write rule.
import type {
  CreateHandlerBody,
  EXPORT_CSV_COLUMNS,
  Gps,
  Handler,
  UpdateHandlerBody,
} from '@dogshop/contracts/handler-directory';
import type { InputNormalization } from '@dogshop/service-kit';
import { Schema, type SchemaDefinitionProperty, type Types } from 'mongoose';
import { isoTime } from './iso-time.js';

/** How a cell is written; each export format has its own writer per kind. */
export type CellKind =
  /** Text from users: the CSV neutralises formulas, the XLSX escapes what XML cannot carry. */
  | 'text'
  /** Text the service makes (ids): written as it is. */
  | 'id'
  | 'number'
  | 'boolean'
  /** An ISO 8601 time in the API: as it is in the CSV, a UTC date-time cell in the XLSX. */
  | 'dateTime';

/** A cell as read from the API's handler; undefined and null are empty cells. */
export type CellValue = string | number | boolean | null | undefined;

/** A header of the CSV and XLSX exports, as the contract lists them. */
export type ExportHeader = (typeof EXPORT_CSV_COLUMNS)[number];

/** One column of the CSV and XLSX exports. */
export interface ExportColumn {
  header: ExportHeader;
  kind: CellKind;
  /** Width in the XLSX sheet, in characters. */
  width: number;
  /** The cell, read from the handler as the API shows it (so all formats agree with the JSON). */
  value: (handler: Handler) => CellValue;
  /**
   * The same cell from the stored record, through the field's own `show`: the CSV export writes
   * its rows from the records it reads, without building a whole Handler for each.
   */
  fromStored: (record: StoredHandler) => CellValue;
}

/**
 * A column as a field declares it: the header defaults to the field's name, the cell to the
 * field's shown value (`pick` takes a part of it: a coordinate of the position).
 */
interface ColumnSpec {
  header?: ExportHeader;
  kind: CellKind;
  width: number;
  pick?: (shown: never) => CellValue;
}

/**
 * One field: `Stored` is its type in MongoDB (with undefined when it may be absent), `Shown` its
 * type in the API's Handler.
 */
interface FieldSpec<Stored, Shown> {
  /** Its Mongoose path; absent for the paths Mongoose keeps itself (_id, the timestamps). */
  path?: SchemaDefinitionProperty;
  /** The stored value as the API shows it; undefined leaves the field out of the answer. */
  show(this: void, stored: Stored): Shown | undefined;
  /** Its columns in the CSV and XLSX exports, in order. */
  columns: readonly ColumnSpec[];
}

/** A field that request bodies write; `Given` is its type there (null: remove it). */
interface WritableFieldSpec<Stored, Shown, Given> extends FieldSpec<Stored, Shown> {
  write: {
    /** What is stored for a value a body gives (neither null nor ''). */
    store(this: void, given: NonNullable<Given>): Exclude<Stored, undefined>;
    /** Stored by a create whose body leaves the field out. */
    default?: Exclude<Stored, undefined>;
    /** Text trimmed before validation, so that length rules apply to what is stored. */
    trim: boolean;
  };
}

/**
 * What the table must hold: an entry for every field of the contract's Handler, with a write
 * rule exactly when the create body has the field (the others are the service's own: dropped
 * from bodies, never written from them). Each entry keeps its own stored type (`unknown` here
 * accepts any, as the methods above are compared both ways).
 */
type HandlerFieldTable = {
  [K in keyof Handler]-?: K extends keyof CreateHandlerBody
    ? WritableFieldSpec<unknown, Handler[K], CreateHandlerBody[K]>
    : FieldSpec<unknown, Handler[K]> & { write?: never };
};

// ---------------------------------------------------------------------------------------------
// The kinds of field

/** The document's id (MongoDB's `_id`), shown as 24 lower-case hexadecimal characters. */
const objectId = (): FieldSpec<Types.ObjectId, string> => ({
  show: (id) => id.toHexString(),
  columns: [{ header: 'id', kind: 'id', width: 26 }],
});

/** Text that must not be empty after trimming. */
const requiredText = (opts: {
  maxLength: number;
  width: number;
}): WritableFieldSpec<string, string, string> => ({
  path: { type: String, required: true, trim: true, minlength: 1, maxlength: opts.maxLength },
  show: (stored) => stored,
  write: { store: (given) => given, trim: true },
  columns: [{ kind: 'text', width: opts.width }],
});

/** Text that may be absent; empty or null in a body removes it, and empty is never shown. */
const optionalText = (opts: {
  maxLength: number;
  width: number;
}): WritableFieldSpec<string | undefined, string, string | null> => ({
  path: { type: String, trim: true, maxlength: opts.maxLength },
  show: (stored) => stored || undefined,
  write: { store: (given) => given, trim: true },
  columns: [{ kind: 'text', width: opts.width }],
});

/** Yes or no, with the value a create stores when the body leaves it out. */
const flag = (opts: {
  default: boolean;
  width: number;
}): WritableFieldSpec<boolean, boolean, boolean> => ({
  path: { type: Boolean, required: true, default: opts.default },
  show: (stored) => stored,
  write: { store: (given) => given, default: opts.default, trim: false },
  columns: [{ kind: 'boolean', width: opts.width }],
});

const positionSchema = new Schema(
  {
    lat: { type: Number, required: true, min: -90, max: 90 },
    lng: { type: Number, required: true, min: -180, max: 180 },
  },
  { _id: false, strict: 'throw' },
);

/** A GPS position that may be absent (null in a body removes it); one column per coordinate. */
const position = (
  columns: readonly ColumnSpec[],
): WritableFieldSpec<Gps | undefined, Gps, Gps | null> => ({
  path: { type: positionSchema, default: undefined },
  show: (stored) => (stored ? { lat: stored.lat, lng: stored.lng } : undefined),
  write: { store: (given) => ({ lat: given.lat, lng: given.lng }), trim: false },
  columns,
});

/** A time a body may give (ISO 8601) or remove (null); shown in ISO 8601 (UTC) or null. */
const optionalTime = (opts: {
  width: number;
}): WritableFieldSpec<Date | undefined, string | null, string | null> => ({
  path: { type: Date },
  show: (stored) => (stored ? isoTime(stored) : null),
  write: { store: (given) => new Date(given), trim: true },
  columns: [{ kind: 'dateTime', width: opts.width }],
});

/** A time the service sets (no body writes it), shown in ISO 8601 (UTC), null until then. */
const serviceTime = (opts: { width: number }): FieldSpec<Date | undefined, string | null> => ({
  path: { type: Date },
  show: (stored) => (stored ? isoTime(stored) : null),
  columns: [{ kind: 'dateTime', width: opts.width }],
});

/** A time Mongoose sets itself (`timestamps: true`), shown in ISO 8601 (UTC, milliseconds). */
const timestamp = (opts: { width: number }): FieldSpec<Date, string> => ({
  show: (stored) => isoTime(stored),
  columns: [{ kind: 'dateTime', width: opts.width }],
});

// ---------------------------------------------------------------------------------------------
// The table

/** Every field of a handler, in the API's order (answers, JSON and the export columns keep it). */
export const HANDLER_FIELDS = {
  _id: objectId(),
  name: requiredText({ maxLength: 200, width: 32 }),
  address: optionalText({ maxLength: 300, width: 40 }),
  phone: requiredText({ maxLength: 50, width: 20 }),
  type: optionalText({ maxLength: 50, width: 8 }),
  available: flag({ default: true, width: 10 }),
  availableUntil: optionalTime({ width: 20 }),
  availabilityConfirmedAt: serviceTime({ width: 20 }),
  gps: position([
    { header: 'lat', kind: 'number', width: 11, pick: (gps?: Gps) => gps?.lat },
    { header: 'lng', kind: 'number', width: 11, pick: (gps?: Gps) => gps?.lng },
  ]),
  createdAt: timestamp({ width: 20 }),
  updatedAt: timestamp({ width: 20 }),
} satisfies HandlerFieldTable;

type Table = typeof HANDLER_FIELDS;
type FieldName = keyof Table;
type StoredOf<F> = F extends FieldSpec<infer Stored, unknown> ? Stored : never;
/** The fields that may be absent from a stored handler (one at a time: K distributes). */
type MayBeAbsent<K extends FieldName> = K extends FieldName
  ? undefined extends StoredOf<Table[K]>
    ? K
    : never
  : never;

/** A handler's fields as stored (without the model's internal ones, see HandlerRecord). */
export type StoredHandler = {
  [K in Exclude<FieldName, MayBeAbsent<FieldName>>]: StoredOf<Table[K]>;
} & {
  [K in MayBeAbsent<FieldName>]?: Exclude<StoredOf<Table[K]>, undefined>;
};

/** The table's fields as [name, spec] pairs, in order, for the code that walks them. */
type AnyField = FieldSpec<unknown, unknown> &
  Partial<Pick<WritableFieldSpec<unknown, unknown, unknown>, 'write'>>;
export const FIELD_ENTRIES = Object.entries(HANDLER_FIELDS) as unknown as ReadonlyArray<
  [FieldName, AnyField]
>;

// ---------------------------------------------------------------------------------------------
// What derives from it (the mapper is mapper.ts's, the projection repository.ts's)

/** The Mongoose paths of the stored fields; db/handler-model.ts adds the name's sort key. */
export const HANDLER_PATHS: Record<string, SchemaDefinitionProperty> = Object.fromEntries(
  FIELD_ENTRIES.flatMap(([name, field]) => (field.path ? [[name, field.path]] : [])),
);

/**
 * The create and update bodies' normalisation (the routes' `config.normalize`): the service's
 * own fields, and Mongoose's version key, are dropped, so a record sent back unchanged is not
 * refused; text is trimmed, so that the length rules apply to what is stored ("   " is empty).
 */
export const HANDLER_BODY_NORMALIZATION = {
  drop: [...FIELD_ENTRIES.flatMap(([name, field]) => (field.write ? [] : [name])), '__v'],
  trim: FIELD_ENTRIES.flatMap(([name, field]) => (field.write?.trim ? [name] : [])),
} satisfies InputNormalization;

/** The CSV and XLSX columns, in order: the fields' columns, in the table's order. */
export const EXPORT_COLUMNS: readonly ExportColumn[] = FIELD_ENTRIES.flatMap(([name, field]) =>
  field.columns.map((column): ExportColumn => {
    const show = field.show;
    const stored = (record: StoredHandler) => (record as Record<string, unknown>)[name];
    const pick = column.pick as ((shown: unknown) => CellValue) | undefined;
    return {
      header: column.header ?? (name as ExportHeader),
      kind: column.kind,
      width: column.width,
      ...(pick
        ? {
            value: (handler) => pick(handler[name]),
            fromStored: (record) => pick(show(stored(record))),
          }
        : {
            value: (handler) => handler[name] as CellValue,
            fromStored: (record) => show(stored(record)) as CellValue,
          }),
    };
  }),
);

/** A body's "none": removes an optional field (the contract allows null and '' there only). */
const isNone = (given: unknown) => given === null || given === '';

/** What a create stores: the body's fields (none for null or empty), defaults for those left out. */
export function storedFromCreate(body: CreateHandlerBody): Partial<StoredHandler> {
  const stored: Record<string, unknown> = {};
  for (const [name, field] of FIELD_ENTRIES) {
    if (!field.write) continue;
    const given = body[name as keyof CreateHandlerBody];
    if (given !== undefined && !isNone(given)) stored[name] = field.write.store(given);
    else if (field.write.default !== undefined) stored[name] = field.write.default;
  }
  return stored;
}

/** A partial update: the fields to set, and those to remove. */
export interface HandlerChanges {
  set: Partial<StoredHandler>;
  unset: Partial<Record<FieldName, true>>;
}

/** What an update changes: only the fields given; null (or empty text) removes one. */
export function changesFromUpdate(body: UpdateHandlerBody): HandlerChanges {
  const set: Record<string, unknown> = {};
  const unset: Partial<Record<FieldName, true>> = {};
  for (const [name, field] of FIELD_ENTRIES) {
    if (!field.write) continue;
    const given = body[name as keyof UpdateHandlerBody];
    if (given === undefined) continue;
    if (isNone(given)) unset[name] = true;
    else set[name] = field.write.store(given);
  }
  return { set, unset };
}
