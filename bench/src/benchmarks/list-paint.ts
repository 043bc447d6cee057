// The time from a list's API answer to its rows on screen, measured in the page: the admin apps'
// "painted within 100 ms of its answer" (the directory's handler search, the shop's order list).
import type { Page } from 'playwright-core';
import type { Timing } from '../results.js';
import { figure } from '../stats.js';

export interface Paint {
  /** The answer's end (Resource Timing `responseEnd`) to the DOM holding it. */
  domMs: number;
  /** … to the next animation frame. */
  frameMs: number;
  /** … to that frame rendered (a message posted from it runs once it is). */
  paintedMs: number;
  encodedBytes: number;
  decodedBytes: number;
  rows: number;
}

/**
 * Before a request of the list: watches `container` until its live region has gone through its
 * loading state (a status ending in "…") and shows the answer, then waits for the following
 * frame. Resolves `window.__paint` with the times against the newest Resource Timing entry whose
 * URL contains `urlPart`, and the rows (`tbody tr`) shown. Run it with `page.evaluate`, start the
 * request, then read `window.__paint` (`awaitPaint`).
 */
export const paintWatch = (container: string, urlPart: string) => `
  window.__paint = new Promise((resolve) => {
    const list = document.querySelector(${JSON.stringify(container)});
    const loading = () => (list.querySelector('[role=status]')?.textContent ?? '').trim().endsWith('…');
    let sawLoading = false;
    new MutationObserver((_, observer) => {
      if (loading()) return void (sawLoading = true);
      if (!sawLoading) return;
      observer.disconnect();
      const domAt = performance.now();
      requestAnimationFrame(() => {
        const frameAt = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          const paintedAt = performance.now();
          const entry = performance
            .getEntriesByType('resource')
            .filter((e) => e.name.includes(${JSON.stringify(urlPart)}))
            .at(-1);
          resolve({
            domMs: domAt - entry.responseEnd,
            frameMs: frameAt - entry.responseEnd,
            paintedMs: paintedAt - entry.responseEnd,
            encodedBytes: entry.encodedBodySize,
            decodedBytes: entry.decodedBodySize,
            rows: list.querySelectorAll('tbody tr').length,
          });
        };
        channel.port2.postMessage(null);
      });
    }).observe(list, { childList: true, subtree: true, characterData: true });
  });
  undefined; // page.evaluate would wait for a promise returned to it
`;

/** The watch's result, within `ms` (page.evaluate has no timeout of its own). */
export const awaitPaint = (page: Page, ms: number, what: string): Promise<Paint> =>
  within(ms, what, page.evaluate<Paint>('window.__paint'));

/** `promise`, or a failure naming `what` after `ms`. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Median, min–max and the 95th percentile (nearest rank). */
export function timing(values: number[]): Timing {
  const sorted = [...values].sort((a, b) => a - b);
  const p95 = sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
  return { ...figure(values), p95 };
}
