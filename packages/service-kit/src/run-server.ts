import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { portInUse } from './startup.js';

/**
 * Listens, then on SIGTERM/SIGINT stops accepting, lets in-flight requests finish, runs the app's
 * onClose hooks (database pools), and exits 0. A second signal or a 10 s overrun exits at once.
 * When listening fails the app is closed and the error thrown (a StartupError naming the owner of
 * a busy port); the caller closes what it opened before the app.
 */
export async function runServer(
  app: FastifyInstance,
  opts: { port: number; host: string; onClosed?: () => Promise<void> },
): Promise<void> {
  try {
    await app.listen({ port: opts.port, host: opts.host });
  } catch (error) {
    await app.close();
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? portInUse(opts.port, 'PORT')
      : error;
  }
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info({ signal }, 'shutting down');
    // Node closes the connections idle at close(), but a keep-alive connection whose request is
    // still in flight would stay open for the keep-alive timeout once answered, holding close()
    // past the grace delay. Its answer now says `Keep-Alive: timeout=0`, and it closes at once.
    app.server.keepAliveTimeout = 1;
    await app.close();
    await opts.onClosed?.();
  });
}
