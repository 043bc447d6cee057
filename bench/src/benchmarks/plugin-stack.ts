// B1: the app's whole plugin stack on a trivial route ÷ a bare Fastify hello world.
import type { Context } from '../context.js';
import { cpuRow, withCpu } from '../infra/cpu.js';
import { runLoad, type LoadResult } from '../infra/load.js';
import { startHelloWorld, type RunningService } from '../infra/services.js';
import { meets, type Comparison } from '../results.js';
import { figure, interleave, ratioFigure } from '../stats.js';

export const B1_CONNECTIONS = 100;
export const B1_PIPELINING = 10;

export async function pluginStackBench(ctx: Context, app: RunningService): Promise<Comparison> {
  const hello = await startHelloWorld();
  try {
    const load = (server: RunningService, path: string) => () =>
      withCpu({ service: server.process.pid }, () =>
        runLoad({
          url: server.url,
          requests: [{ path }],
          connections: B1_CONNECTIONS,
          pipelining: B1_PIPELINING,
          duration: ctx.options.durationSeconds,
        }),
      );
    const runs = await interleave(
      ctx.options.rounds,
      { app: load(app, '/health'), bare: load(hello, '/') },
      ctx.log,
    );
    const ratio = ratioFigure(
      runs.app.map((r) => r.rps),
      runs.bare.map((r) => r.rps),
    );
    // Issue 31: the plugin stack keeps at least 0.9 of bare Fastify.
    const target = { op: '>=' as const, value: 0.9 };
    return {
      id: 'B1',
      title: `${app.name}'s full plugin stack on a trivial route ÷ bare Fastify hello world`,
      a: {
        label: `${app.name} GET /health`,
        unit: 'req/s',
        figure: figure(runs.app.map((r) => r.rps)),
      },
      b: {
        label: 'bare Fastify GET / (hello world)',
        unit: 'req/s',
        figure: figure(runs.bare.map((r) => r.rps)),
      },
      ratio,
      target,
      pass: meets(ratio.median, target),
      latency: [
        {
          label: `${app.name} GET /health`,
          connections: B1_CONNECTIONS,
          rps: figure(runs.app.map((r) => r.rps)),
          p50: figure(runs.app.map((r) => r.latency.p50)),
          p99: figure(runs.app.map((r) => r.latency.p99)),
        },
        {
          label: 'bare Fastify hello world',
          connections: B1_CONNECTIONS,
          rps: figure(runs.bare.map((r) => r.rps)),
          p50: figure(runs.bare.map((r) => r.latency.p50)),
          p99: figure(runs.bare.map((r) => r.latency.p99)),
        },
      ],
      cpu: [
        cpuRow(`${app.name} /health`, runs.app, (r: LoadResult) => r.rps),
        cpuRow('bare Fastify hello world', runs.bare, (r: LoadResult) => r.rps),
      ],
      notes: [
        `${B1_CONNECTIONS} connections, pipelining ${B1_PIPELINING} (no database on either route); both servers in their own process, LOG_LEVEL=warn for the app.`,
      ],
    };
  } finally {
    await hello.stop();
  }
}
