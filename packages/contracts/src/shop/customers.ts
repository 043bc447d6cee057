import { Type, type Static } from 'typebox';
import { DataEnvelope, SuccessMessageSchema, documented } from '../common.js';
import { AddressSchema, addressExample } from './addresses.js';
import { customerNotFound, customerPathErrors, shopErrors } from './errors.js';
import { DateTime, Email, Id, IdParamsSchema, Text } from './shared.js';
import { shopTag } from './tags.js';

export const Password = () => Type.String({ minLength: 8, maxLength: 128 });

export const RegisterBodySchema = Type.Object(
  {
    email: Email(),
    password: Password(),
    first_name: Text(100),
    last_name: Text(100),
    phone: Type.Optional(Type.String({ maxLength: 50 })),
    newsletter: Type.Optional(Type.Boolean()),
  },
  { $id: 'RegisterBody', title: 'RegisterBody', additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBodySchema>;

export const LoginBodySchema = Type.Object(
  { email: Email(), password: Type.String({ minLength: 1, maxLength: 128 }) },
  { $id: 'CustomerLoginBody', title: 'CustomerLoginBody', additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

export const AuthResponseSchema = DataEnvelope(
  Type.Object(
    {
      customer_id: Id(),
      email: Type.String(),
      first_name: Type.String(),
      last_name: Type.String(),
      token: Type.String({ description: 'JWT for the bearer scheme' }),
    },
    { $id: 'CustomerSession', title: 'CustomerSession', additionalProperties: false },
  ),
  true,
  { $id: 'AuthResponse' },
);
export type AuthResponse = Static<typeof AuthResponseSchema>;

export const ProfileSchema = Type.Object(
  {
    id: Id(),
    email: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    phone: Type.String(),
    newsletter: Type.Boolean(),
    created_at: DateTime(),
    last_login: DateTime(),
    addresses: Type.Array(AddressSchema),
  },
  { $id: 'CustomerProfile', title: 'CustomerProfile', additionalProperties: false },
);
export type Profile = Static<typeof ProfileSchema>;

export const ProfileResponseSchema = DataEnvelope(ProfileSchema, false, {
  $id: 'ProfileResponse',
});

export const UpdateProfileBodySchema = Type.Object(
  {
    first_name: Type.Optional(Text(100)),
    last_name: Type.Optional(Text(100)),
    phone: Type.Optional(Type.String({ maxLength: 50 })),
    newsletter: Type.Optional(
      Type.Boolean({ description: 'Subscribes or unsubscribes the account e-mail address' }),
    ),
  },
  {
    $id: 'UpdateProfileBody',
    title: 'UpdateProfileBody',
    additionalProperties: false,
    minProperties: 1,
    description: 'The fields to change; at least one',
  },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBodySchema>;

export const EXAMPLE_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3IiwiZW1haWwiOiJqYW5hLmpvaGFubnNlbkBleGFtcGxlLmNvbSJ9.c2lnbmF0dXJl';

export const profileExample: Profile = {
  id: 7,
  email: 'jana.johannsen@example.com',
  first_name: 'Jana',
  last_name: 'Johannsen',
  phone: '+49 4131 123456',
  newsletter: true,
  created_at: '2026-01-10T18:30:00.000Z',
  last_login: '2026-03-20T13:55:42.000Z',
  addresses: [addressExample],
};

const authExample = (message: string): AuthResponse => ({
  success: true,
  data: {
    customer_id: 7,
    email: 'jana.johannsen@example.com',
    first_name: 'Jana',
    last_name: 'Johannsen',
    token: EXAMPLE_TOKEN,
  },
  message,
});

export const registerCustomerOperation = {
  tags: shopTag('Customers'),
  operationId: 'registerCustomer',
  summary: 'Register a customer account',
  description:
    'Creates the account and logs it in (the answer carries a bearer token). The e-mail address is trimmed and lower-cased; passwords are 8 to 128 characters. `newsletter: true` also subscribes the address.',
  body: documented(RegisterBodySchema, {
    examples: [
      {
        email: 'Jana.Johannsen@example.com',
        password: 'correct horse battery',
        first_name: 'Jana',
        last_name: 'Johannsen',
        phone: '+49 4131 123456',
        newsletter: true,
      },
    ],
  }),
  response: {
    201: documented(AuthResponseSchema, {
      description: 'The account was created and is logged in',
      examples: [authExample('Customer registered')],
    }),
    ...shopErrors(
      [400, 'body.password must NOT have fewer than 8 characters'],
      401,
      [
        409,
        'email jana.johannsen@example.com is already registered',
        'The e-mail address is already registered',
      ],
      429,
    ),
  },
};

export const loginCustomerOperation = {
  tags: shopTag('Customers'),
  operationId: 'loginCustomer',
  summary: 'Log in and get a bearer token',
  description:
    'An unknown e-mail address and a wrong password get the same 401 (the API key being valid). After repeated failures for the same e-mail address from the same client, or many from any clients, further attempts answer 429 with `Retry-After` until the window ends, without checking the password.',
  body: documented(LoginBodySchema, {
    examples: [{ email: 'jana.johannsen@example.com', password: 'correct horse battery' }],
  }),
  response: {
    200: documented(AuthResponseSchema, {
      description: 'Logged in; `data.token` is the bearer token',
      examples: [authExample('Login successful')],
    }),
    ...shopErrors(
      [400, 'body.email must match format "email"'],
      [
        401,
        'Invalid email or password',
        'Unknown e-mail address or wrong password (same answer for both), or a missing or invalid API key',
      ],
      [
        429,
        'Too many failed logins, retry in 840 seconds',
        'Too many failed logins for this e-mail address from this client or from all clients, or too many requests: retry after `Retry-After` seconds',
      ],
    ),
  },
};

export const getCustomerProfileOperation = {
  tags: shopTag('Customers'),
  operationId: 'getCustomerProfile',
  summary: "The bearer's profile with addresses",
  description:
    'Addresses: the default first, then in the order they were added. 403 for another customer.',
  params: IdParamsSchema,
  response: {
    200: documented(ProfileResponseSchema, {
      description: 'The profile',
      examples: [{ success: true, data: profileExample }],
    }),
    ...customerPathErrors(customerNotFound),
  },
};

export const updateCustomerProfileOperation = {
  tags: shopTag('Customers'),
  operationId: 'updateCustomerProfile',
  summary: "Change the bearer's profile",
  description:
    'Only the fields sent change. `newsletter` subscribes (or re-activates) or unsubscribes the account address in the same transaction.',
  params: IdParamsSchema,
  body: documented(UpdateProfileBodySchema, {
    examples: [{ phone: '+49 170 5550123', newsletter: false }],
  }),
  response: {
    200: documented(SuccessMessageSchema, {
      description: 'The profile was changed',
      examples: [{ success: true, message: 'Profile updated' }],
    }),
    ...customerPathErrors(customerNotFound),
  },
};
