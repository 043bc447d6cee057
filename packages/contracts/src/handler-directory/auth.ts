import { Type, type Static } from 'typebox';
import { ObjectIdString } from './shared.js';

/** Both fields must be strings: an object such as `{"$ne": null}` is a 400, never a query. */
export const LoginBodySchema = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { title: 'LoginBody', additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

export const AdminRoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('viewer')], {
  description: '`admin`: everything; `viewer`: read and export only',
});
export type AdminRole = Static<typeof AdminRoleSchema>;

export const LoginResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    token: Type.String({ description: 'JWT (HS256) for `Authorization: Bearer <token>`' }),
    user: Type.Object(
      { id: ObjectIdString(), username: Type.String() },
      { additionalProperties: false },
    ),
  },
  { title: 'LoginResponse', additionalProperties: false },
);
export type LoginResponse = Static<typeof LoginResponseSchema>;
