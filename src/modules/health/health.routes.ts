import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StringEnum } from '../../http/schemas.js';
import { VERSION } from '../../shared/version.js';

export interface HealthProbe {
  /** Resolves when the dependency answers; rejects (or times out) when it does not. */
  (): Promise<void>;
}

const PROBE_TIMEOUT_MS = 2000;

const Check = Type.Object({
  status: StringEnum(['ok', 'down']),
  latencyMs: Type.Number(),
});
const Health = Type.Object({
  status: StringEnum(['ok', 'degraded', 'down']),
  version: Type.String(),
  uptime: Type.Number({ description: 'seconds since the process started' }),
  timestamp: Type.String(),
  checks: Type.Object({ database: Check, broker: Check }),
});

async function runProbe(probe: HealthProbe) {
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
        response: { 200: Health, 503: Health },
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
