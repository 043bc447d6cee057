import pgListen from 'pg-listen';

// CommonJS compiled from an ES module: the function is `module.exports.default`.
const createSubscriber = pgListen.default;

/** Notified by the `events_notify_committed` trigger when a transaction that wrote events commits. */
export const EVENTS_COMMITTED_CHANNEL = 'dogshop_events_committed';

/** The listening connection's name in `pg_stat_activity`. */
export const LISTENER_APPLICATION_NAME = 'dogshop-event-notifications';

/** Reconnection attempts: after 0.5 s, then twice as long each time, at most this long apart. */
const RETRY_MAX_MS = 5_000;

interface Logger {
  warn: (obj: object, msg: string) => void;
  info: (obj: object, msg: string) => void;
}

export interface CommitNotifications {
  close: () => Promise<void>;
}

/**
 * Calls `onCommitted` whenever a transaction that wrote events commits, on any replica, over a
 * connection of its own (LISTEN holds one for as long as it listens). After a lost connection it
 * reconnects on its own, for as long as it takes, and calls `onCommitted` once it is back: what
 * committed meanwhile was not announced. If the first connection fails, it logs and gives up:
 * the caller's poll still finds every event, only later.
 */
export async function listenForCommittedEvents(
  databaseUrl: string,
  onCommitted: () => void,
  log: Logger,
): Promise<CommitNotifications> {
  const subscriber = createSubscriber(
    { connectionString: databaseUrl, application_name: LISTENER_APPLICATION_NAME },
    {
      retryInterval: (attempt) => Math.min(500 * 2 ** attempt, RETRY_MAX_MS),
      retryTimeout: Infinity,
    },
  );
  subscriber.notifications.on(EVENTS_COMMITTED_CHANNEL, onCommitted);
  subscriber.events.on('error', (error) =>
    log.warn({ err: error }, 'event commit notifications failed; numbering by polling'),
  );
  subscriber.events.on('reconnect', (attempt) => {
    if (attempt === 1) log.warn({}, 'event commit notifications lost; reconnecting');
  });
  let connected = false;
  subscriber.events.on('connected', () => {
    if (connected) {
      log.info({}, 'event commit notifications back');
      onCommitted();
    }
    connected = true;
  });
  try {
    await subscriber.connect();
    await subscriber.listenTo(EVENTS_COMMITTED_CHANNEL);
  } catch (error) {
    log.warn({ err: error }, 'event commit notifications unavailable; numbering by polling');
    await subscriber.close().catch(() => {});
    return { close: async () => {} };
  }
  return { close: () => subscriber.close() };
}
