import { Type } from 'typebox';

/** A MongoDB ObjectId as 24 hexadecimal characters. */
export const ObjectIdString = (description?: string) =>
  Type.String({ pattern: '^[0-9a-fA-F]{24}$', ...(description ? { description } : {}) });

export const DateTime = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });
