export { DirectoryErrorSchema, type DirectoryError } from '../common.js';
export * from './shared.js';
export * from './handlers.js';
export * from './auth.js';
export * from './examples.js';
