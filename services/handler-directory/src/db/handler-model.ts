import { Schema, type Connection, type HydratedDocument, type Model, type Types } from 'mongoose';
import { nameSortKey } from '../modules/handlers/name-sort.js';

export interface HandlerRecord {
  _id: Types.ObjectId;
  name: string;
  /** Derived from `name` (see nameSortKey); never part of a response. */
  nameSort: string;
  phone: string;
  address?: string;
  type?: string;
  available: boolean;
  gps?: { lat: number; lng: number };
  createdAt: Date;
  updatedAt: Date;
}

export type HandlerModel = Model<HandlerRecord>;

const gpsSchema = new Schema(
  {
    lat: { type: Number, required: true, min: -90, max: 90 },
    lng: { type: Number, required: true, min: -180, max: 180 },
  },
  { _id: false, strict: 'throw' },
);

const handlerSchema = new Schema<HandlerRecord>(
  {
    name: { type: String, required: true, trim: true, minlength: 1, maxlength: 200 },
    nameSort: { type: String, required: true },
    phone: { type: String, required: true, trim: true, minlength: 1, maxlength: 50 },
    address: { type: String, trim: true, maxlength: 300 },
    type: { type: String, trim: true, maxlength: 50 },
    available: { type: Boolean, required: true, default: true },
    gps: { type: gpsSchema, default: undefined },
  },
  {
    collection: 'handlers',
    timestamps: true,
    // A field the schema does not know is a programming error here (bodies are validated first).
    strict: 'throw',
    strictQuery: 'throw',
  },
);

// What the lists filter and sort on: the public list (available, by name) and the admin list.
handlerSchema.index({ available: 1, nameSort: 1, _id: 1 });
handlerSchema.index({ nameSort: 1, _id: 1 });

// Documents (create, insertMany) derive the sort key here; updates set it with the name.
handlerSchema.pre('validate', function (this: HydratedDocument<HandlerRecord>) {
  if (typeof this.name === 'string') this.nameSort = nameSortKey(this.name);
});

export const registerHandlerModel = (connection: Connection): HandlerModel =>
  connection.model<HandlerRecord>('Handler', handlerSchema);
