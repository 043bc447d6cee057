// The accounts resource: administrator accounts (role `admin` or `viewer`) and their login. The
// contract keeps its field names: the login answer calls the account `user`.
import { Type, type Static } from 'typebox';
import { documented } from '../common.js';
import { directoryErrors } from './errors.js';
import { ObjectIdString } from './shared.js';
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

export const AccountRoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('viewer')], {
  description: '`admin`: everything; `viewer`: read and export only',
});
export type AccountRole = Static<typeof AccountRoleSchema>;

/** The signed-in account as the login answer shows it. */
export const AccountSummarySchema = Type.Object(
  { id: ObjectIdString(), username: Type.String() },
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
  summary: 'Log in as an administrator and receive a JWT',
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
          user: { id: '665f1c2ab4d3e8a1c2f0b001', username: 'anna.admin' },
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
