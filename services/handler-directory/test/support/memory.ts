import v8 from 'node:v8';
import vm from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { bearer } from './tokens.js';

/** A full garbage collection: `--expose-gc` when Jest was started with it, else enabled here. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

const SAMPLE_EVERY_BYTES = 512 * 1024;

/**
 * Streams a response through the app and measures the live heap (after a full collection) every
 * 512 kB of output, relative to before the request. Garbage is collected before each sample, so
 * the figure is what the export keeps alive, not what it has yet to free. `sampleEveryBytes`
 * samples more often, for compressed output; Buffer memory outside the heap is measured too.
 */
export async function heapGrowthWhileStreaming(
  app: FastifyInstance,
  url: string,
  token: string,
  { sampleEveryBytes = SAMPLE_EVERY_BYTES }: { sampleEveryBytes?: number } = {},
) {
  const gc = collector();
  const started = Date.now();
  gc();
  gc();
  const base = process.memoryUsage().heapUsed;
  const baseBuffers = process.memoryUsage().arrayBuffers;
  let peak = 0;
  let peakBuffers = 0;
  let samples = 0;
  let bytes = 0;
  let newlines = 0;
  let nextSample = sampleEveryBytes;
  let tail = '';
  const res = await app.inject({
    method: 'GET',
    url,
    headers: bearer(token),
    payloadAsStream: true,
  });
  for await (const chunk of res.stream() as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) newlines += 1;
    tail = (tail + chunk.toString('latin1')).slice(-64);
    if (bytes >= nextSample) {
      nextSample += sampleEveryBytes;
      gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      peak = Math.max(peak, heapUsed - base);
      peakBuffers = Math.max(peakBuffers, arrayBuffers - baseBuffers);
      samples += 1;
    }
  }
  gc();
  return {
    statusCode: res.statusCode,
    bytes,
    lines: newlines + 1,
    tail,
    peakHeapGrowthBytes: peak,
    peakBufferGrowthBytes: peakBuffers,
    samples,
    heapGrowthAfterBytes: process.memoryUsage().heapUsed - base,
    ms: Date.now() - started,
  };
}

/** For comparison: the live heap that holding every document of a query at once takes. */
export async function heapOfBufferedDocuments(load: () => Promise<unknown[]>) {
  const gc = collector();
  gc();
  const base = process.memoryUsage().heapUsed;
  const docs = await load();
  gc();
  const held = process.memoryUsage().heapUsed - base;
  return { documents: docs.length, heapBytes: held };
}
