import { randomBytes } from 'node:crypto';

export function testMongoUri(): string {
  const uri = process.env.TEST_MONGODB_URI;
  if (!uri) throw new Error('TEST_MONGODB_URI is unset: run the tests through jest (global setup)');
  return uri;
}

/** A database name no other test file uses. */
export const uniqueDbName = (tag = 'test') => `hd_${tag}_${randomBytes(6).toString('hex')}`;

/** The same server with another database: mongodb://h:1/?x=y + "d" → mongodb://h:1/d?x=y. */
export function withDatabase(uri: string, name: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)\/?[^?]*(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`not a MongoDB URI: ${uri}`);
  return `${match[1]}/${name}${match[2] ?? ''}`;
}
