// The handler directory's share of the traffic: the public list, nearest search, and the admin
// area (login, create, update, read, delete, export).
import { call } from './http-call.js';
import { DIRECTORY_ADMIN } from './platform.js';
import { bearer, idle, NOTHING, type Operation } from './traffic-operation.js';

export const DIRECTORY_OPERATIONS: Operation[] = [
  // Handler directory: the public list, nearest search, and the admin area.
  {
    service: 'handler-directory',
    name: 'public-list',
    weight: 6,
    expected: [200],
    run: ({ directory }) => call(directory, 'GET', '/api/public/users'),
  },
  {
    service: 'handler-directory',
    name: 'nearest',
    weight: 4,
    expected: [200],
    run: ({ directory, random }) =>
      call(
        directory,
        'GET',
        `/api/public/users?lat=${(47 + random() * 8).toFixed(3)}&lng=${(6 + random() * 9).toFixed(3)}&radius_km=300`,
      ),
  },
  {
    service: 'handler-directory',
    name: 'admin-login',
    weight: 1,
    expected: [200],
    run: async ({ directory, world }) => {
      const res = await call(directory, 'POST', '/api/auth/login', { body: DIRECTORY_ADMIN });
      if (res.status === 200) world.adminToken = res.json!.token as string;
      return res;
    },
  },
  {
    service: 'handler-directory',
    name: 'create-handler',
    weight: 3,
    expected: [201],
    run: async ({ directory, random, world }) => {
      const n = world.counter++;
      const body = {
        name: `Soak Hundeführer ${n}`,
        phone: `+49 30 ${n}`,
        ...(random() < 0.5 ? { gps: { lat: 47 + random() * 8, lng: 6 + random() * 9 } } : {}),
      };
      const res = await call(directory, 'POST', '/api/users', {
        headers: bearer(world.adminToken),
        body,
      });
      if (res.status === 201) {
        const id = (res.json!.data as { _id: string })._id;
        world.handlers.set(id, { name: body.name, phone: body.phone, uncertainPhones: [] });
      } else if (res.status === undefined || res.status >= 500) {
        world.uncertainHandlerNames.add(body.name);
      }
      return res;
    },
  },
  {
    service: 'handler-directory',
    name: 'update-handler',
    weight: 2,
    expected: [200],
    run: async ({ directory, random, world }) => {
      const id = idle(world, random, [...world.handlers.keys()]);
      if (!id) return NOTHING;
      const phone = `+49 40 ${world.counter++}`;
      try {
        const res = await call(directory, 'PUT', `/api/users/${id}`, {
          headers: bearer(world.adminToken),
          body: { phone },
        });
        const record = world.handlers.get(id)!;
        if (res.status === 200) Object.assign(record, { phone, uncertainPhones: [] });
        else if (res.status === undefined || res.status >= 500) record.uncertainPhones.push(phone);
        return res;
      } finally {
        world.busy.delete(id);
      }
    },
  },
  {
    service: 'handler-directory',
    name: 'get-handler',
    weight: 2,
    expected: [200],
    run: async ({ directory, random, world }) => {
      const id = idle(world, random, [...world.handlers.keys()]);
      if (!id) return NOTHING;
      try {
        return await call(directory, 'GET', `/api/users/${id}`, {
          headers: bearer(world.adminToken),
        });
      } finally {
        world.busy.delete(id);
      }
    },
  },
  {
    service: 'handler-directory',
    name: 'delete-handler',
    weight: 1,
    expected: [200],
    run: async ({ directory, random, world }) => {
      const id = idle(world, random, [...world.handlers.keys()]);
      if (!id) return NOTHING;
      try {
        const res = await call(directory, 'DELETE', `/api/users/${id}`, {
          headers: bearer(world.adminToken),
        });
        if (res.status === 200) {
          world.handlers.delete(id);
          world.deletedHandlers.add(id);
        } else if (res.status === undefined || res.status >= 500) {
          world.handlers.delete(id);
          world.maybeDeletedHandlers.add(id);
        }
        return res;
      } finally {
        world.busy.delete(id);
      }
    },
  },
  {
    service: 'handler-directory',
    name: 'export',
    weight: 1,
    expected: [200],
    run: ({ directory, random, world }) =>
      call(directory, 'GET', `/api/users/export?format=${random() < 0.5 ? 'csv' : 'json'}`, {
        headers: bearer(world.adminToken),
      }),
  },
];
