import {
  KeptCopy,
  strongEtag,
  type ServiceContext,
  type ServicePlugin,
} from '@dogshop/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DirectoryConfig } from '../config.js';
import { HANDLERS_TOPIC, type HandlersChanged } from '../modules/handlers/service.js';

/** The whole public list as sent: the JSON bytes and their strong ETag, computed once. */
export interface SerialisedList {
  body: Buffer;
  etag: string;
  /** When the earliest `availableUntil` in it passes (ms since the epoch): the list is stale then. */
  validUntil: number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Announces a write to the handlers to every replica (the handler service's `changed`). */
    handlersChanged: HandlersChanged;
    /** The whole public list, serialised, kept until any replica writes a handler. */
    publicList: KeptCopy<SerialisedList>;
  }
}

/** The kept copy of a serialised answer (`reply.serialize`'s result), valid until `validUntil`. */
export function serialiseList(
  json: string | Buffer | ArrayBuffer,
  validUntil: number | undefined,
): SerialisedList {
  const body =
    typeof json === 'string' ? Buffer.from(json) : Buffer.isBuffer(json) ? json : Buffer.from(json);
  return { body, etag: strongEtag(body), validUntil };
}

/**
 * Every write to the handlers goes through the handler service, which calls `handlersChanged`
 * after it: that publishes the `handlers` topic on the shared state's invalidation signal, and
 * every replica (this one at once, the others through Redis) drops its kept public list. The list
 * is kept only while the replica is sure to hear that signal (see KeptCopy), 60 s at most, and
 * never past the earliest `availableUntil` in it: an end that passes turns the list over on every
 * replica with no write and no signal.
 */
export const handlerChanges: ServicePlugin<DirectoryConfig> = fp(
  async (app: FastifyInstance, { shared }: ServiceContext<DirectoryConfig>) => {
    const publicList = new KeptCopy<SerialisedList>(shared.invalidation, HANDLERS_TOPIC, {
      validUntil: (list) => list.validUntil,
    });
    app.decorate('publicList', publicList);
    app.decorate('handlersChanged', () => shared.invalidation.publish(HANDLERS_TOPIC));
    app.addHook('onClose', async () => publicList.close());
  },
  { name: 'handler-changes' },
);
