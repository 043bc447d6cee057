// The accounts resource: the people who sign in (roles `admin`, `viewer` and `handler`), their
// login, their passwords and their management by administrators. The contract keeps its field
// names: the login answer calls the account `user`.
import { Type, type Static } from 'typebox';
import { SuccessMessageSchema, documented } from '../common.js';
import { directoryErrors, type ErrorResponseSpec } from './errors.js';
import { DateTime, ObjectIdString } from './shared.js';
import { directoryTag } from './tags.js';

/** Both fields must be strings: an object such as `{"$ne": null}` is a 400, never a query. */
export const LoginBodySchema = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { $id: 'AccountLoginBody', title: 'AccountLoginBody', additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

export const AccountRoleSchema = Type.Union(
  [Type.Literal('admin'), Type.Literal('viewer'), Type.Literal('handler')],
  {
    description:
      '`admin`: everything; `viewer`: read and export only; `handler`: reads its own handler record and sets its availability and position',
  },
);
export type AccountRole = Static<typeof AccountRoleSchema>;

/** The signed-in account as the login answer shows it. */
export const AccountSummarySchema = Type.Object(
  { id: ObjectIdString(), username: Type.String(), role: Type.Optional(AccountRoleSchema) },
  { $id: 'AccountSummary', title: 'AccountSummary', additionalProperties: false },
);
export type AccountSummary = Static<typeof AccountSummarySchema>;

export const LoginResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    token: Type.String({ description: 'JWT (HS256) for `Authorization: Bearer <token>`' }),
    user: AccountSummarySchema,
  },
  { $id: 'AccountLoginResponse', title: 'AccountLoginResponse', additionalProperties: false },
);
export type LoginResponse = Static<typeof LoginResponseSchema>;

const EXAMPLE_ACCOUNT_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2NjVmMWMyYWI0ZDNlOGExYzJmMGIwMDEiLCJyb2xlIjoiYWRtaW4ifQ.c2lnbmF0dXJl';

export const loginOperation = {
  tags: directoryTag('Auth'),
  operationId: 'login',
  summary: 'Log in and receive a JWT',
  description:
    'Unknown username and wrong password answer the same 401. After repeated failures for the same username from the same client, or many for the same username from any clients, further attempts answer 429 with `Retry-After` until the window ends, without checking the password.',
  body: documented(LoginBodySchema, {
    examples: [{ username: 'anna.admin', password: 'a long admin passphrase' }],
  }),
  response: {
    200: documented(LoginResponseSchema, {
      description: 'Logged in; `token` is the bearer token',
      examples: [
        {
          success: true,
          token: EXAMPLE_ACCOUNT_TOKEN,
          user: { id: '665f1c2ab4d3e8a1c2f0b001', username: 'anna.admin', role: 'admin' },
        },
      ],
    }),
    ...directoryErrors(
      [400, 'Ungültige Anfrage: body.username muss sein: string'],
      [
        401,
        'Benutzername oder Passwort falsch',
        'Unknown username, wrong password or disabled account (same answer for all)',
      ],
      413,
      415,
      [
        429,
        'Zu viele fehlgeschlagene Anmeldeversuche, bitte in 840 Sekunden erneut versuchen',
        'Too many failed logins for this username from this client or from all clients, or too many requests: retry after `Retry-After` seconds',
      ],
    ),
  },
};

// ---------------------------------------------------------------------------------------------
// Accounts: the signed-in account, passwords, and their management by administrators

const Username = Type.String({
  pattern: '^[A-Za-z0-9._@-]{3,64}$',
  description: '3–64 letters, digits, `.`, `_`, `@` or `-`; compared case-insensitively',
  examples: ['anna.bergmann'],
});
const Password = Type.String({
  minLength: 12,
  maxLength: 128,
  description: '12–128 characters',
});
const HandlerRef = Type.Union([ObjectIdString(), Type.Null()], {
  description:
    'The handler record a `handler` account is bound to (required for that role, null for the others)',
});

export const AccountSchema = Type.Object(
  {
    id: ObjectIdString(),
    username: Type.String(),
    role: AccountRoleSchema,
    handlerId: HandlerRef,
    disabled: Type.Boolean({ description: 'A disabled account cannot sign in; its tokens end' }),
    passwordSet: Type.Boolean({
      description: 'false until the first password is set (through a set-password token)',
    }),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'Account', title: 'Account', additionalProperties: false },
);
export type Account = Static<typeof AccountSchema>;

/** The signed-in account (`GET /api/auth/me`). */
export const MeSchema = Type.Object(
  { id: ObjectIdString(), username: Type.String(), role: AccountRoleSchema, handlerId: HandlerRef },
  { $id: 'Me', title: 'Me', additionalProperties: false },
);
export type Me = Static<typeof MeSchema>;

export const AccountIdParamsSchema = Type.Object(
  { id: Type.String({ description: 'Account `id`', examples: ['665f1c2ab4d3e8a1c2f0b001'] }) },
  { additionalProperties: false },
);

export const CreateAccountBodySchema = Type.Object(
  {
    username: Username,
    role: AccountRoleSchema,
    handlerId: Type.Optional(HandlerRef),
    password: Type.Optional(Password),
  },
  { $id: 'CreateAccountBody', title: 'CreateAccountBody', additionalProperties: false },
);
export type CreateAccountBody = Static<typeof CreateAccountBodySchema>;

export const UpdateAccountBodySchema = Type.Object(
  {
    role: Type.Optional(AccountRoleSchema),
    handlerId: Type.Optional(HandlerRef),
    disabled: Type.Optional(Type.Boolean()),
  },
  {
    $id: 'UpdateAccountBody',
    title: 'UpdateAccountBody',
    additionalProperties: false,
    minProperties: 1,
  },
);
export type UpdateAccountBody = Static<typeof UpdateAccountBodySchema>;

const SetPasswordToken = Type.String({
  description:
    'One-time token for `POST /api/auth/set-password`, valid 72 hours; shown only in this answer',
});

export const AccountResponseSchema = Type.Object(
  { success: Type.Literal(true), data: AccountSchema },
  { $id: 'AccountResponse', title: 'AccountResponse', additionalProperties: false },
);
export const CreatedAccountResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: AccountSchema,
    setPasswordToken: Type.Optional(SetPasswordToken),
    setPasswordExpiresAt: Type.Optional(DateTime()),
  },
  { $id: 'CreatedAccountResponse', title: 'CreatedAccountResponse', additionalProperties: false },
);
export const AccountListResponseSchema = Type.Object(
  { success: Type.Literal(true), data: Type.Array(AccountSchema) },
  { $id: 'AccountListResponse', title: 'AccountListResponse', additionalProperties: false },
);
export const PasswordResetResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    setPasswordToken: SetPasswordToken,
    setPasswordExpiresAt: DateTime(),
  },
  { $id: 'PasswordResetResponse', title: 'PasswordResetResponse', additionalProperties: false },
);
export const MeResponseSchema = Type.Object(
  { success: Type.Literal(true), data: MeSchema },
  { $id: 'MeResponse', title: 'MeResponse', additionalProperties: false },
);
export const SetPasswordBodySchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: Password },
  { $id: 'SetPasswordBody', title: 'SetPasswordBody', additionalProperties: false },
);
export type SetPasswordBody = Static<typeof SetPasswordBodySchema>;
export const ChangePasswordBodySchema = Type.Object(
  { currentPassword: Type.String({ minLength: 1, maxLength: 1024 }), newPassword: Password },
  { $id: 'ChangePasswordBody', title: 'ChangePasswordBody', additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;
/** `{success: true, message}` of the password operations. */
export const PasswordSetResponseSchema = Type.Object(SuccessMessageSchema.properties, {
  $id: 'PasswordSet',
  title: 'PasswordSet',
  additionalProperties: false,
});
/** `{success: true, message, token}`: the password changed, and this session's new token. */
export const PasswordChangedResponseSchema = Type.Object(
  {
    ...SuccessMessageSchema.properties,
    token: Type.String({
      description:
        "A new token for this session: every token signed before the change, this request's too, no longer works",
    }),
  },
  { $id: 'PasswordChanged', title: 'PasswordChanged', additionalProperties: false },
);

const accountExample: Account = {
  id: '665f1c2ab4d3e8a1c2f0b002',
  username: 'anna.bergmann',
  role: 'handler',
  handlerId: '665f1c2ab4d3e8a1c2f0b123',
  disabled: false,
  passwordSet: false,
  createdAt: '2026-03-20T09:00:00.000Z',
  updatedAt: '2026-03-20T09:00:00.000Z',
};
const EXAMPLE_SET_PASSWORD_TOKEN = 'kX2vQ9mB7tY4wZ1rN8pL3sD6fH0jA5cE-uG_iO2bV4';

const accountNotFound: ErrorResponseSpec = [404, 'Konto nicht gefunden', 'No account with this id'];
const lastAdmin: ErrorResponseSpec = [
  409,
  'Das letzte aktive Administratorkonto kann nicht deaktiviert oder herabgestuft werden',
  'The change would leave no enabled admin',
];

export const getMeOperation = {
  tags: directoryTag('Auth'),
  operationId: 'getMe',
  summary: 'The signed-in account',
  description: 'Any role.',
  response: {
    200: documented(MeResponseSchema, {
      description: 'The signed-in account',
      examples: [
        {
          success: true,
          data: {
            id: accountExample.id,
            username: accountExample.username,
            role: accountExample.role,
            handlerId: accountExample.handlerId,
          },
        },
      ],
    }),
    ...directoryErrors(401, 429),
  },
};

export const changePasswordOperation = {
  tags: directoryTag('Auth'),
  operationId: 'changePassword',
  summary: "Change the signed-in account's password",
  description:
    'The current password must be given; a wrong one is 401 and counts as a failed login. Every token of the account signed before the change stops working (signed in elsewhere: signed out); the answer carries a new token for this session. Any role.',
  body: documented(ChangePasswordBodySchema, {
    examples: [{ currentPassword: 'my old passphrase', newPassword: 'a new long passphrase' }],
  }),
  response: {
    200: documented(PasswordChangedResponseSchema, {
      description: 'The password was changed; use the new token from now on',
      examples: [
        {
          success: true,
          message: 'Passwort wurde gesetzt',
          token:
            'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2NjVmMWMyYWI0ZDNlOGExYzJmMGIwMDIifQ.c2lnbmF0dXJl',
        },
      ],
    }),
    ...directoryErrors(
      400,
      [401, 'Benutzername oder Passwort falsch', 'Not signed in, or the current password is wrong'],
      413,
      415,
      429,
    ),
  },
};

export const setPasswordOperation = {
  tags: directoryTag('Auth'),
  operationId: 'setPassword',
  summary: 'Set a password with a one-time set-password token',
  description:
    'No login needed: the token (from creating the account or a password reset) names the account. It works once and for 72 hours; an unknown, used or expired token answers 400. Tokens of the account signed before stop working.',
  body: documented(SetPasswordBodySchema, {
    examples: [{ token: EXAMPLE_SET_PASSWORD_TOKEN, password: 'a new long passphrase' }],
  }),
  response: {
    200: documented(PasswordSetResponseSchema, {
      description: 'The password was set; the account can sign in with it',
      examples: [{ success: true, message: 'Passwort wurde gesetzt' }],
    }),
    ...directoryErrors(
      [400, 'Der Link zum Setzen des Passworts ist ungültig, abgelaufen oder schon benutzt'],
      413,
      415,
      429,
    ),
  },
};

export const listAccountsOperation = {
  tags: directoryTag('Accounts'),
  operationId: 'listAccounts',
  summary: 'All accounts, by username',
  description: 'Admin only.',
  response: {
    200: documented(AccountListResponseSchema, {
      description: 'Every account',
      examples: [{ success: true, data: [accountExample] }],
    }),
    ...directoryErrors(401, 403, 429),
  },
};

export const getAccountOperation = {
  tags: directoryTag('Accounts'),
  operationId: 'getAccount',
  summary: 'One account',
  description: 'Admin only.',
  params: AccountIdParamsSchema,
  response: {
    200: documented(AccountResponseSchema, {
      description: 'The account',
      examples: [{ success: true, data: accountExample }],
    }),
    ...directoryErrors(401, 403, accountNotFound, 429),
  },
};

export const createAccountOperation = {
  tags: directoryTag('Accounts'),
  operationId: 'createAccount',
  summary: 'Create an account',
  description:
    'A `handler` account needs the `handlerId` of an existing handler; other roles take none. With a `password` the account can sign in at once; without one the answer carries a one-time `setPasswordToken` (72 hours) to hand to its owner. A taken username is 409. Admin only.',
  body: documented(CreateAccountBodySchema, {
    examples: [{ username: 'anna.bergmann', role: 'handler', handlerId: accountExample.handlerId }],
  }),
  response: {
    201: documented(CreatedAccountResponseSchema, {
      description: 'The account was created',
      examples: [
        {
          success: true,
          data: accountExample,
          setPasswordToken: EXAMPLE_SET_PASSWORD_TOKEN,
          setPasswordExpiresAt: '2026-03-23T09:00:00.000Z',
        },
      ],
    }),
    ...directoryErrors(
      [400, 'Ungültige Anfrage: ein Konto mit der Rolle handler braucht handlerId'],
      401,
      403,
      [409, 'Ein Konto mit diesem Benutzernamen existiert bereits', 'The username is taken'],
      413,
      415,
      429,
    ),
  },
};

export const updateAccountOperation = {
  tags: directoryTag('Accounts'),
  operationId: 'updateAccount',
  summary: "Change an account's role, handler or disabled state",
  description:
    "Disabling ends the account's tokens at once. Changing the role to `handler` needs a `handlerId`; to another role clears it. The last enabled admin cannot be disabled or demoted (409). Admin only.",
  params: AccountIdParamsSchema,
  body: documented(UpdateAccountBodySchema, { examples: [{ disabled: true }] }),
  response: {
    200: documented(AccountResponseSchema, {
      description: 'The changed account',
      examples: [{ success: true, data: { ...accountExample, disabled: true } }],
    }),
    ...directoryErrors(400, 401, 403, accountNotFound, lastAdmin, 413, 415, 429),
  },
};

export const resetAccountPasswordOperation = {
  tags: directoryTag('Accounts'),
  operationId: 'resetAccountPassword',
  summary: 'A new one-time set-password token for an account',
  description:
    'The answer carries a new `setPasswordToken` (72 hours; earlier ones stop working). The current password, and the tokens signed in with it, keep working until a new one is set. Admin only.',
  params: AccountIdParamsSchema,
  response: {
    200: documented(PasswordResetResponseSchema, {
      description: 'The token, shown only here',
      examples: [
        {
          success: true,
          setPasswordToken: EXAMPLE_SET_PASSWORD_TOKEN,
          setPasswordExpiresAt: '2026-03-23T09:00:00.000Z',
        },
      ],
    }),
    ...directoryErrors(401, 403, accountNotFound, 429),
  },
};
