import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/plumbing/schemas.js';
import { TicketListResponse } from './tracker.schema.js';
import type { TrackerService } from './tracker.service.js';
import { READ_ACCESS } from '../../http/auth/route-access.js';

const tags = ['Tracker tickets'];

export const trackerRoutes: FastifyPluginAsyncTypebox<{ service: TrackerService }> = async (
  app,
  { service },
) => {
  const response = { 200: TicketListResponse, ...errorResponses(401, 500, 502) };

  // `/jira/...` are compatibility aliases of the same two queries (docs/contract-notes.md, "Tracker").
  for (const prefix of ['/tracker', '/jira']) {
    const deprecated = prefix === '/jira';
    app.get(
      `${prefix}/manual_qa`,
      {
        config: { access: READ_ACCESS },
        schema: {
          tags,
          summary:
            'Tickets labelled manual_qa in the configured project and still to be tested, newest first',
          ...(deprecated ? { deprecated, description: 'Alias of /api/tracker/manual_qa' } : {}),
          response,
        },
      },
      async () => ({ success: true as const, data: await service.manualQa() }),
    );
    app.get(
      `${prefix}/my_tickets`,
      {
        config: { access: READ_ACCESS },
        schema: {
          tags,
          summary: "Unresolved tickets assigned to the server's Jira account, most recently updated first",
          ...(deprecated ? { deprecated, description: 'Alias of /api/tracker/my_tickets' } : {}),
          response,
        },
      },
      async () => ({ success: true as const, data: await service.myTickets() }),
    );
  }
};
