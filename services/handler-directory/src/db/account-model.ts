import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { ACCOUNT_ROLES, type AccountRole } from '../modules/accounts/rules.js';

/** A stored account: an administrator, a viewer, or a handler bound to its handler record. */
export interface AccountRecord {
  _id: Types.ObjectId;
  /** Lower-cased. */
  username: string;
  /** argon2id, PHC string format; absent until the first password is set. */
  passwordHash?: string;
  role: AccountRole;
  /** The handler a `handler` account is bound to; null for the other roles. */
  handlerId: Types.ObjectId | null;
  disabledAt: Date | null;
  /** The pending one-time set-password token: its SHA-256 (never the token) and its end. */
  setPassword?: { tokenHash: string; expiresAt: Date };
  /**
   * Raised when the password is changed, reset or set: tokens signed at an earlier version end
   * (see service-kit's signedInAccountCheck). Absent in accounts stored before it existed: 0.
   */
  tokenVersion?: number;
  createdAt: Date;
  updatedAt: Date;
}

export type AccountModel = Model<AccountRecord>;

const accountSchema = new Schema<AccountRecord>(
  {
    username: { type: String, required: true, lowercase: true, trim: true },
    passwordHash: { type: String },
    role: { type: String, required: true, enum: ACCOUNT_ROLES, default: 'admin' },
    handlerId: { type: Schema.Types.ObjectId, default: null },
    disabledAt: { type: Date, default: null },
    tokenVersion: { type: Number, default: 0, min: 0 },
    setPassword: {
      type: new Schema(
        { tokenHash: { type: String, required: true }, expiresAt: { type: Date, required: true } },
        { _id: false, strict: 'throw' },
      ),
      default: undefined,
    },
  },
  // The collection keeps its original name, `admins`: existing databases hold the accounts there.
  { collection: 'admins', timestamps: true, strict: 'throw', strictQuery: 'throw' },
);

accountSchema.index({ username: 1 }, { unique: true });
// A set-password token is looked up by its hash.
accountSchema.index({ 'setPassword.tokenHash': 1 }, { unique: true, sparse: true });

export const registerAccountModel = (connection: Connection): AccountModel =>
  connection.model<AccountRecord>('Account', accountSchema);
