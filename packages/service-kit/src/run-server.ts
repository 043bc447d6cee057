import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

/**
 * Listens, then on SIGTERM/SIGINT stops accepting, lets in-flight requests finish, runs the app's
 * onClose hooks (database pools), and exits 0. A second signal or a 10 s overrun exits at once.
 */
export async function runServer(
  app: FastifyInstance,
  opts: { port: number; host: string; onClosed?: () => Promise<void> },
): Promise<void> {
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await opts.onClosed?.();
  });
  await app.listen({ port: opts.port, host: opts.host });
}
