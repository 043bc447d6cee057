// What each scope of a secret key opens, in words (the key form's checkboxes). A Record over the
// contract's ApiKeyScope: a scope the API adds is a type error here until it has its words.
import type { Schemas } from '../lib/api';

export type ApiKeyScope = Schemas['ApiKeyScope'];

export const SCOPE_NAMES: Record<ApiKeyScope, string> = {
  'orders:read': 'Read orders',
  'orders:write': 'Change orders (status, notes)',
  'catalogue:write': 'Change products, stock and categories',
  'customers:read': 'Read customers',
  'reviews:moderate': 'Read, hide and restore reviews',
  'stats:read': 'Read sales figures',
  'webhooks:manage': 'Manage webhooks',
  'events:read': 'Read the event feed',
  'staff:manage': 'Manage staff accounts',
  'keys:manage': 'Manage API keys',
  'audit:read': 'Read the audit log',
};

export const SCOPES = Object.keys(SCOPE_NAMES) as ApiKeyScope[];
