import { Type, type Static } from 'typebox';
import { DataEnvelope } from '../common.js';
import { DateTime, Email, Id, Text } from './shared.js';

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
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBodySchema>;

export const LoginBodySchema = Type.Object(
  { email: Email(), password: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
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
    { additionalProperties: false },
  ),
  true,
);
export type AuthResponse = Static<typeof AuthResponseSchema>;

export const AddressSchema = Type.Object(
  {
    id: Id(),
    first_name: Type.String(),
    last_name: Type.String(),
    company: Type.String(),
    address: Type.String(),
    city: Type.String(),
    postal_code: Type.String(),
    country: Type.String(),
    phone: Type.String(),
    is_default: Type.Boolean(),
  },
  { title: 'Address', additionalProperties: false },
);
export type Address = Static<typeof AddressSchema>;

const addressFields = {
  first_name: Text(100),
  last_name: Text(100),
  company: Type.String({ maxLength: 200 }),
  address: Text(300),
  city: Text(100),
  postal_code: Text(20),
  country: Text(100),
  phone: Type.String({ maxLength: 50 }),
  is_default: Type.Boolean({
    description: 'At most one default address; setting one clears the others',
  }),
};

export const CreateAddressBodySchema = Type.Object(
  {
    first_name: addressFields.first_name,
    last_name: addressFields.last_name,
    company: Type.Optional(addressFields.company),
    address: addressFields.address,
    city: addressFields.city,
    postal_code: addressFields.postal_code,
    country: addressFields.country,
    phone: Type.Optional(addressFields.phone),
    is_default: Type.Optional(addressFields.is_default),
  },
  { additionalProperties: false },
);
export type CreateAddressBody = Static<typeof CreateAddressBodySchema>;

export const UpdateAddressBodySchema = Type.Partial(CreateAddressBodySchema, {
  additionalProperties: false,
  minProperties: 1,
  description: 'The fields to change; at least one',
});
export type UpdateAddressBody = Static<typeof UpdateAddressBodySchema>;

export const AddressResponseSchema = DataEnvelope(AddressSchema, true);

export const AddressParamsSchema = Type.Object(
  { id: Id("Customer id (the bearer token's customer)", [7]), addressId: Id('Address id', [4]) },
  { additionalProperties: false },
);

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
  { title: 'CustomerProfile', additionalProperties: false },
);
export type Profile = Static<typeof ProfileSchema>;

export const ProfileResponseSchema = DataEnvelope(ProfileSchema);

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
    additionalProperties: false,
    minProperties: 1,
    description: 'The fields to change; at least one',
  },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBodySchema>;
