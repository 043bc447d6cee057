import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { ACCOUNT_ROLES, type AccountRole } from '../modules/accounts/rules.js';

/** A stored administrator account. */
export interface AccountRecord {
  _id: Types.ObjectId;
  /** Lower-cased. */
  username: string;
  /** argon2id, PHC string format. */
  passwordHash: string;
  role: AccountRole;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type AccountModel = Model<AccountRecord>;

const accountSchema = new Schema<AccountRecord>(
  {
    username: { type: String, required: true, lowercase: true, trim: true },
    passwordHash: { type: String, required: true },
    role: { type: String, required: true, enum: ACCOUNT_ROLES, default: 'admin' },
    disabledAt: { type: Date, default: null },
  },
  // The collection keeps its original name, `admins`: existing databases hold the accounts there.
  { collection: 'admins', timestamps: true, strict: 'throw', strictQuery: 'throw' },
);

accountSchema.index({ username: 1 }, { unique: true });

export const registerAccountModel = (connection: Connection): AccountModel =>
  connection.model<AccountRecord>('Account', accountSchema);
