import { type Static, Type } from '@sinclair/typebox';
import { StringEnum } from '../../http/plumbing/schemas.js';

/** One dependency as `/health` (and the status page) sees it. */
export const DependencyCheck = Type.Object({
  status: StringEnum(['ok', 'down']),
  latencyMs: Type.Number(),
});

/** `GET /health` (200 while the database answers, 503 when it does not). */
export const HealthResponse = Type.Object(
  {
    status: StringEnum(['ok', 'degraded', 'down']),
    version: Type.String(),
    uptime: Type.Number({ description: 'seconds since the process started' }),
    timestamp: Type.String(),
    checks: Type.Object({ database: DependencyCheck, broker: DependencyCheck }),
  },
  { title: 'Health' },
);
export type HealthResponse = Static<typeof HealthResponse>;
