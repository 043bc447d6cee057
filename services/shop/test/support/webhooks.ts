import type { TestApp } from './app.js';

/**
 * A subscription of every event to `url` with `n` pings queued, due now, in order (no worker
 * sends them unless the app delivers).
 */
export async function subscriptionWithPings(
  t: TestApp,
  url: string,
  n: number,
): Promise<{ id: number; deliveries: number[] }> {
  const res = await t.request({
    method: 'POST',
    url: '/webhooks',
    payload: { url, events: ['*'] },
  });
  const id = (res.json().data as { id: number }).id;
  const deliveries: number[] = [];
  for (let i = 0; i < n; i++) {
    const ping = await t.request({ method: 'POST', url: `/webhooks/${id}/ping` });
    deliveries.push((ping.json().data as { id: number }).id);
  }
  return { id, deliveries };
}
