// Who may do what in the shop: API key kinds and scopes, staff roles, and the operations that
// manage keys and staff accounts (the back office's `/admin/api-keys`, `/admin/auth`, `/admin/staff`).
import { Type, type Static } from 'typebox';
import { DataEnvelope, SuccessMessageSchema, documented } from '../common.js';
import { shopErrors } from './errors.js';
import { DateTime, Email, Id, IdParamsSchema, Text } from './shared.js';
import { shopTag } from './tags.js';

/**
 * What a secret key may be given; a staff role grants a fixed set of them (README "Access").
 * `audit:read` (the audit, GET /admin/audit) is an admin's only.
 */
export const API_KEY_SCOPES = [
  'orders:read',
  'orders:write',
  'catalogue:write',
  'customers:read',
  'reviews:moderate',
  'stats:read',
  'webhooks:manage',
  'events:read',
  'staff:manage',
  'keys:manage',
  'audit:read',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const STAFF_ROLES = ['admin', 'staff', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const ApiKeyScopeSchema = Type.Enum(API_KEY_SCOPES, {
  $id: 'ApiKeyScope',
  title: 'ApiKeyScope',
});
export const StaffRoleSchema = Type.Enum(STAFF_ROLES, {
  $id: 'StaffRole',
  title: 'StaffRole',
  description:
    '`admin`: everything; `staff`: orders, catalogue, customers, reviews and sales figures (not keys, staff or webhooks); `viewer`: what `staff` may read, nothing it may change',
});

// ---------------------------------------------------------------------------------------------
// API keys

export const ApiKeySchema = Type.Object(
  {
    id: Id(),
    type: Type.Union([Type.Literal('publishable'), Type.Literal('secret')]),
    title: Type.String(),
    redacted: Type.String({
      description: 'The first characters of the key and an ellipsis, to tell keys apart',
    }),
    key: Type.Union([Type.String(), Type.Null()], {
      description: 'A publishable key itself (safe in a browser); null for a secret key',
    }),
    scopes: Type.Array(ApiKeyScopeSchema, {
      description: 'A secret key’s scopes; [] for a publishable key',
    }),
    created_at: DateTime(),
    revoked_at: Type.Union([DateTime(), Type.Null()]),
    last_used_at: Type.Union([DateTime(), Type.Null()], {
      description: 'When a replica last looked the key up (to within the key cache’s seconds)',
    }),
  },
  { $id: 'ApiKey', title: 'ApiKey', additionalProperties: false },
);
export type ApiKey = Static<typeof ApiKeySchema>;

export const CreateApiKeyBodySchema = Type.Object(
  {
    type: Type.Union([Type.Literal('publishable'), Type.Literal('secret')]),
    title: Text(100),
    scopes: Type.Optional(
      Type.Array(ApiKeyScopeSchema, {
        minItems: 1,
        uniqueItems: true,
        description: 'Required for a secret key; a publishable key takes none',
      }),
    ),
  },
  { $id: 'CreateApiKeyBody', title: 'CreateApiKeyBody', additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBodySchema>;

const apiKeyExample: ApiKey = {
  id: 7,
  type: 'secret',
  title: 'Warehouse sync',
  redacted: 'sk_Q2hhbmdl…',
  key: null,
  scopes: ['orders:read', 'catalogue:write'],
  created_at: '2026-11-28T09:00:00.000Z',
  revoked_at: null,
  last_used_at: '2026-11-28T09:05:12.000Z',
};

export const ApiKeyListResponseSchema = DataEnvelope(Type.Array(ApiKeySchema), false, {
  $id: 'ApiKeyListResponse',
});
export const CreatedApiKeyResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: ApiKeySchema,
    key: Type.String({ description: 'The key itself: shown this once, never again' }),
  },
  { $id: 'CreatedApiKeyResponse', additionalProperties: false },
);

const keyNotFound = [404, 'API key 99 not found', 'No key with this id'] as const;

export const listApiKeysOperation = {
  tags: shopTag('Back office'),
  operationId: 'listApiKeys',
  summary: 'API keys',
  description: 'Every key, revoked ones too, oldest first. A secret key is never shown again.',
  response: {
    200: documented(ApiKeyListResponseSchema, {
      description: 'The keys',
      examples: [{ success: true, data: [apiKeyExample] }],
    }),
  },
};

export const createApiKeyOperation = {
  tags: shopTag('Back office'),
  operationId: 'createApiKey',
  summary: 'Create an API key',
  description: [
    'A publishable key (`pk_…`) is for a storefront and safe in a browser: it reads the catalogue,',
    'registers and logs in customers, places orders and subscribes to the newsletter. A secret key',
    '(`sk_…`) opens what its scopes allow; it is shown in this answer once and stored only as a hash.',
  ].join('\n'),
  body: documented(CreateApiKeyBodySchema, {
    examples: [{ type: 'secret', title: 'Warehouse sync', scopes: ['orders:read'] }],
  }),
  response: {
    201: documented(CreatedApiKeyResponseSchema, {
      description: 'The key, shown this once',
      examples: [{ success: true, data: apiKeyExample, key: 'sk_Q2hhbmdlIHRoaXMga2V5IGF0IG9uY2U' }],
    }),
    ...shopErrors([400, 'a secret key needs at least one scope']),
  },
};

export const revokeApiKeyOperation = {
  tags: shopTag('Back office'),
  operationId: 'revokeApiKey',
  summary: 'Revoke an API key',
  description:
    'Running replicas stop accepting it at once (with the shared state) or within the key cache’s seconds.',
  params: IdParamsSchema,
  response: {
    200: documented(SuccessMessageSchema, {
      description: 'Revoked (or revoked already)',
      examples: [{ success: true, message: 'API key 7 revoked' }],
    }),
    ...shopErrors([...keyNotFound]),
  },
};

// ---------------------------------------------------------------------------------------------
// Staff accounts and their sign-in

export const StaffPassword = () => Type.String({ minLength: 12, maxLength: 128 });

export const StaffAccountSchema = Type.Object(
  {
    id: Id(),
    email: Type.String(),
    name: Type.String(),
    role: StaffRoleSchema,
    disabled: Type.Boolean(),
    has_password: Type.Boolean({ description: 'False until the one-time link was used' }),
    last_login_at: Type.Union([DateTime(), Type.Null()]),
    created_at: DateTime(),
  },
  { $id: 'StaffAccount', title: 'StaffAccount', additionalProperties: false },
);
export type StaffAccount = Static<typeof StaffAccountSchema>;

export const StaffUserSchema = Type.Object(
  { id: Id(), email: Type.String(), name: Type.String(), role: StaffRoleSchema },
  { $id: 'StaffUser', title: 'StaffUser', additionalProperties: false },
);
export type StaffUser = Static<typeof StaffUserSchema>;

const staffUserExample: StaffUser = {
  id: 1,
  email: 'mia.berger@example.com',
  name: 'Mia Berger',
  role: 'staff',
};
const staffAccountExample: StaffAccount = {
  ...staffUserExample,
  disabled: false,
  has_password: true,
  last_login_at: '2026-11-28T08:01:00.000Z',
  created_at: '2026-11-20T10:00:00.000Z',
};

export const StaffLoginBodySchema = Type.Object(
  { email: Email(), password: Type.String({ minLength: 1, maxLength: 128 }) },
  { $id: 'StaffLoginBody', title: 'StaffLoginBody', additionalProperties: false },
);
export const StaffLoginResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    token: Type.String({ description: 'JWT for the staff bearer scheme (StaffAuth)' }),
    user: StaffUserSchema,
  },
  { $id: 'StaffSessionResponse', additionalProperties: false },
);
export const StaffMeResponseSchema = DataEnvelope(StaffUserSchema, false, {
  $id: 'SignedInStaffResponse',
});

export const ChangeStaffPasswordBodySchema = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 128 }),
    new_password: StaffPassword(),
  },
  { $id: 'ChangeStaffPasswordBody', title: 'ChangeStaffPasswordBody', additionalProperties: false },
);
export const ChangedStaffPasswordResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    token: Type.String({ description: 'A token for this session: the earlier ones have ended' }),
  },
  { $id: 'ChangedStaffPasswordResponse', additionalProperties: false },
);
export const SetStaffPasswordBodySchema = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'The one-time token' }),
    password: StaffPassword(),
  },
  { $id: 'SetStaffPasswordBody', title: 'SetStaffPasswordBody', additionalProperties: false },
);

export const CreateStaffBodySchema = Type.Object(
  { email: Email(), name: Text(100), role: StaffRoleSchema },
  { $id: 'CreateStaffBody', title: 'CreateStaffBody', additionalProperties: false },
);
export type CreateStaffBody = Static<typeof CreateStaffBodySchema>;
export const UpdateStaffBodySchema = Type.Object(
  {
    role: Type.Optional(StaffRoleSchema),
    disabled: Type.Optional(Type.Boolean()),
    name: Type.Optional(Text(100)),
  },
  {
    $id: 'UpdateStaffBody',
    title: 'UpdateStaffBody',
    additionalProperties: false,
    minProperties: 1,
  },
);
export type UpdateStaffBody = Static<typeof UpdateStaffBodySchema>;

const SetPasswordTokenFields = {
  set_password_token: Type.String({
    description: 'One-time token for POST /admin/auth/set-password; shown this once',
  }),
  set_password_expires_at: DateTime(),
};
export const CreatedStaffResponseSchema = Type.Object(
  { success: Type.Literal(true), data: StaffAccountSchema, ...SetPasswordTokenFields },
  { $id: 'CreatedStaffResponse', additionalProperties: false },
);
export const StaffPasswordResetResponseSchema = Type.Object(
  { success: Type.Literal(true), ...SetPasswordTokenFields },
  { $id: 'StaffPasswordResetResponse', additionalProperties: false },
);
export const StaffListResponseSchema = DataEnvelope(Type.Array(StaffAccountSchema), false, {
  $id: 'StaffListResponse',
});
export const StaffAccountResponseSchema = DataEnvelope(StaffAccountSchema, false, {
  $id: 'StaffAccountResponse',
});

const oneTimeExample = {
  set_password_token: 'm3lJ2gk0ZkQ1eQ4nYd8xVt7bWq5sR1oP9cF6aH2uE0I',
  set_password_expires_at: '2026-12-01T10:00:00.000Z',
};
const staffNotFound = [404, 'staff account 99 not found', 'No staff account with this id'] as const;

export const staffLoginOperation = {
  tags: shopTag('Back office'),
  operationId: 'staffLogin',
  summary: 'Staff sign-in',
  description:
    'The token opens the back office as the account’s role allows, and nothing of a customer’s. Failed logins are limited per address and account (429).',
  body: documented(StaffLoginBodySchema, {
    examples: [{ email: 'mia.berger@example.com', password: 'correct horse battery' }],
  }),
  response: {
    200: documented(StaffLoginResponseSchema, {
      description: 'Signed in',
      examples: [{ success: true, token: 'eyJhbGciOiJIUzI1NiJ9…', user: staffUserExample }],
    }),
    ...shopErrors([
      401,
      'Invalid email or password',
      'Wrong e-mail or password, or a disabled account',
    ]),
  },
};

export const staffMeOperation = {
  tags: shopTag('Back office'),
  operationId: 'staffMe',
  summary: 'The signed-in staff account',
  response: {
    200: documented(StaffMeResponseSchema, {
      description: 'The account',
      examples: [{ success: true, data: staffUserExample }],
    }),
  },
};

export const changeStaffPasswordOperation = {
  tags: shopTag('Back office'),
  operationId: 'changeStaffPassword',
  summary: 'Change one’s own password',
  description:
    'The current password is checked as a login is. Every earlier token of the account ends; the answer carries a new one for this session.',
  body: documented(ChangeStaffPasswordBodySchema, {
    examples: [{ current_password: 'correct horse battery', new_password: 'a longer passphrase' }],
  }),
  response: {
    200: documented(ChangedStaffPasswordResponseSchema, {
      description: 'Changed',
      examples: [{ success: true, message: 'Password changed', token: 'eyJhbGciOiJIUzI1NiJ9…' }],
    }),
  },
};

export const setStaffPasswordOperation = {
  tags: shopTag('Back office'),
  operationId: 'setStaffPassword',
  summary: 'Set a password with a one-time link',
  description:
    'The token from account creation or a reset works once, for 72 hours. Setting the password ends the account’s earlier tokens.',
  body: documented(SetStaffPasswordBodySchema, {
    examples: [{ token: oneTimeExample.set_password_token, password: 'a longer passphrase' }],
  }),
  response: {
    200: documented(SuccessMessageSchema, {
      description: 'The password was set',
      examples: [{ success: true, message: 'Password set' }],
    }),
    ...shopErrors([400, 'This link is invalid, used or expired']),
  },
};

export const listStaffOperation = {
  tags: shopTag('Back office'),
  operationId: 'listStaff',
  summary: 'Staff accounts',
  response: {
    200: documented(StaffListResponseSchema, {
      description: 'Every account, by e-mail',
      examples: [{ success: true, data: [staffAccountExample] }],
    }),
  },
};

export const createStaffOperation = {
  tags: shopTag('Back office'),
  operationId: 'createStaff',
  summary: 'Create a staff account',
  description: 'The account has no password: its owner sets one with the one-time token (72 h).',
  body: documented(CreateStaffBodySchema, {
    examples: [{ email: 'mia.berger@example.com', name: 'Mia Berger', role: 'staff' }],
  }),
  response: {
    201: documented(CreatedStaffResponseSchema, {
      description: 'Created',
      examples: [
        { success: true, data: { ...staffAccountExample, has_password: false }, ...oneTimeExample },
      ],
    }),
    ...shopErrors([409, 'a staff account with this e-mail already exists']),
  },
};

export const updateStaffOperation = {
  tags: shopTag('Back office'),
  operationId: 'updateStaff',
  summary: 'Change a staff account’s role, name or disabled state',
  description:
    'The last enabled admin can be neither disabled nor demoted (409). Disabling ends the account’s tokens at once.',
  params: IdParamsSchema,
  body: documented(UpdateStaffBodySchema, { examples: [{ role: 'viewer' }] }),
  response: {
    200: documented(StaffAccountResponseSchema, {
      description: 'Changed',
      examples: [{ success: true, data: { ...staffAccountExample, role: 'viewer' } }],
    }),
    ...shopErrors(
      [...staffNotFound],
      [409, 'the last enabled admin cannot be disabled or demoted'],
    ),
  },
};

export const resetStaffPasswordOperation = {
  tags: shopTag('Back office'),
  operationId: 'resetStaffPassword',
  summary: 'A new one-time set-password token',
  description:
    'Earlier links stop working. The current password and tokens keep working until the new password is set.',
  params: IdParamsSchema,
  response: {
    200: documented(StaffPasswordResetResponseSchema, {
      description: 'The token, shown this once',
      examples: [{ success: true, ...oneTimeExample }],
    }),
    ...shopErrors([...staffNotFound]),
  },
};

/** Who made a change: a staff member, an API key (its title), or a customer. */
export const ActorSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('staff'), Type.Literal('api_key'), Type.Literal('customer')]),
    id: Type.Union([Id(), Type.Null()]),
    name: Type.String({
      description: 'The staff member’s name or the key’s title, as it was then',
    }),
  },
  { $id: 'Actor', title: 'Actor', additionalProperties: false },
);
export type Actor = Static<typeof ActorSchema>;
