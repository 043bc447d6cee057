import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { ADMIN_ROLES, type AdminRole } from '../domain/admin-account.js';

export interface AdminRecord {
  _id: Types.ObjectId;
  /** Lower-cased. */
  username: string;
  /** argon2id, PHC string format. */
  passwordHash: string;
  role: AdminRole;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type AdminModel = Model<AdminRecord>;

const adminSchema = new Schema<AdminRecord>(
  {
    username: { type: String, required: true, lowercase: true, trim: true },
    passwordHash: { type: String, required: true },
    role: { type: String, required: true, enum: ADMIN_ROLES, default: 'admin' },
    disabledAt: { type: Date, default: null },
  },
  { collection: 'admins', timestamps: true, strict: 'throw', strictQuery: 'throw' },
);

adminSchema.index({ username: 1 }, { unique: true });

export const registerAdminModel = (connection: Connection): AdminModel =>
  connection.model<AdminRecord>('Admin', adminSchema);
