import { Type, type Static } from 'typebox';
import { DataEnvelope, SuccessMessageSchema, documented } from '../common.js';
import { customerNotFound, customerPathErrors, type ErrorResponseSpec } from './errors.js';
import { Id, IdParamsSchema, Text } from './shared.js';
import { shopTag } from './tags.js';

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
  { $id: 'Address', title: 'Address', additionalProperties: false },
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
  { $id: 'CreateAddressBody', title: 'CreateAddressBody', additionalProperties: false },
);
export type CreateAddressBody = Static<typeof CreateAddressBodySchema>;

export const UpdateAddressBodySchema = Type.Partial(CreateAddressBodySchema, {
  $id: 'UpdateAddressBody',
  title: 'UpdateAddressBody',
  additionalProperties: false,
  minProperties: 1,
  description: 'The fields to change; at least one',
});
export type UpdateAddressBody = Static<typeof UpdateAddressBodySchema>;

export const AddressResponseSchema = DataEnvelope(AddressSchema, true, {
  $id: 'AddressResponse',
});

export const AddressParamsSchema = Type.Object(
  { id: Id("Customer id (the bearer token's customer)", [7]), addressId: Id('Address id', [4]) },
  { additionalProperties: false },
);

export const addressExample: Address = {
  id: 4,
  first_name: 'Jana',
  last_name: 'Johannsen',
  company: '',
  address: 'Forstweg 3',
  city: 'Lüneburg',
  postal_code: '21335',
  country: 'Germany',
  phone: '+49 4131 123456',
  is_default: true,
};

const addressNotFound: ErrorResponseSpec = [
  404,
  'Address 4 not found',
  "No such customer, or the address is not one of the customer's",
];

export const createCustomerAddressOperation = {
  tags: shopTag('Customers'),
  operationId: 'createCustomerAddress',
  summary: 'Add an address (extension)',
  description:
    'At most 20 addresses per customer (409 beyond). `is_default: true` makes it the only default address.',
  params: IdParamsSchema,
  body: documented(CreateAddressBodySchema, {
    examples: [
      {
        first_name: 'Jana',
        last_name: 'Johannsen',
        address: 'Forstweg 3',
        city: 'Lüneburg',
        postal_code: '21335',
        country: 'Germany',
        phone: '+49 4131 123456',
        is_default: true,
      },
    ],
  }),
  response: {
    201: documented(AddressResponseSchema, {
      description: 'The address was added',
      examples: [{ success: true, data: addressExample, message: 'Address added' }],
    }),
    ...customerPathErrors(customerNotFound, [
      409,
      'A customer can keep at most 20 addresses; delete one first',
      'The customer already has 20 addresses',
    ]),
  },
};

export const updateCustomerAddressOperation = {
  tags: shopTag('Customers'),
  operationId: 'updateCustomerAddress',
  summary: 'Change an address (extension)',
  description:
    "Only the fields sent change. `is_default: true` clears the other default. Another customer's address is 404.",
  params: AddressParamsSchema,
  body: documented(UpdateAddressBodySchema, {
    examples: [{ address: 'Heideweg 12', is_default: true }],
  }),
  response: {
    200: documented(AddressResponseSchema, {
      description: 'The changed address',
      examples: [
        {
          success: true,
          data: { ...addressExample, address: 'Heideweg 12' },
          message: 'Address updated',
        },
      ],
    }),
    ...customerPathErrors(addressNotFound, [
      409,
      'Another default address was set at the same time; retry',
      'A concurrent request set another default address; retry',
    ]),
  },
};

export const deleteCustomerAddressOperation = {
  tags: shopTag('Customers'),
  operationId: 'deleteCustomerAddress',
  summary: 'Delete an address (extension)',
  description: "Deleting the default address leaves no default. Another customer's address is 404.",
  params: AddressParamsSchema,
  response: {
    200: documented(SuccessMessageSchema, {
      description: 'The address was deleted',
      examples: [{ success: true, message: 'Address deleted' }],
    }),
    ...customerPathErrors(addressNotFound),
  },
};
