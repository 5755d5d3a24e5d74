import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { VERSION } from '../../shared/version.js';
import { type DependencyCheck, HealthResponse } from './health.schema.js';

export interface HealthProbe {
  /** Resolves when the dependency answers; rejects (or times out) when it does not. */
  (): Promise<void>;
}

const PROBE_TIMEOUT_MS = 2000;

/** Runs a probe with a time-out: `ok` with its latency, or `down`. */
export async function runProbe(probe: HealthProbe): Promise<Static<typeof DependencyCheck>> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok' as const, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch {
    return { status: 'down' as const, latencyMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsyncTypebox<{ database: HealthProbe; broker: HealthProbe }> = async (
  app,
  probes,
) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Health'],
        summary: 'Liveness and dependency status (no key needed)',
        security: [],
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (_request, reply) => {
      const [database, broker] = await Promise.all([runProbe(probes.database), runProbe(probes.broker)]);
      const status = database.status === 'down' ? 'down' : broker.status === 'down' ? 'degraded' : 'ok';
      return reply.status(status === 'down' ? 503 : 200).send({
        status,
        version: VERSION,
        uptime: Math.round(process.uptime() * 1000) / 1000,
        timestamp: new Date().toISOString(),
        checks: { database, broker },
      });
    },
  );
};
