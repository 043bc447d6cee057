import {
  createCustomerAddressOperation,
  deleteCustomerAddressOperation,
  updateCustomerAddressOperation,
} from '@dogshop/contracts/shop';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createAddress, deleteAddress, updateAddress } from '../../modules/addresses/service.js';
import { ownAccountOnly } from '../../plugins/auth.js';

/** A customer's address book (extension): the customer's own bearer token only. */
export const addressRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ownAddresses = { auth: 'customer', personal: true } as const;

  app.post(
    '/customers/:id/addresses',
    { schema: createCustomerAddressOperation, config: ownAddresses, preHandler: ownAccountOnly },
    async (request, reply) => {
      const address = await createAddress(app.db, request.params.id, request.body);
      return reply
        .code(201)
        .send({ success: true as const, data: address, message: 'Address added' });
    },
  );

  app.put(
    '/customers/:id/addresses/:addressId',
    { schema: updateCustomerAddressOperation, config: ownAddresses, preHandler: ownAccountOnly },
    async (request) => {
      const { id, addressId } = request.params;
      const address = await updateAddress(app.db, id, addressId, request.body);
      return { success: true as const, data: address, message: 'Address updated' };
    },
  );

  app.delete(
    '/customers/:id/addresses/:addressId',
    { schema: deleteCustomerAddressOperation, config: ownAddresses, preHandler: ownAccountOnly },
    async (request) => {
      await deleteAddress(app.db, request.params.id, request.params.addressId);
      return { success: true as const, message: 'Address deleted' };
    },
  );
};
