import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/plumbing/schemas.js';

export const TrackerTicket = Type.Object(
  {
    id: Type.String(),
    key: Type.String(),
    url: Type.String(),
    summary: Type.String(),
    status: Type.String(),
    created: Timestamp,
    updated: Timestamp,
    assignee: Type.String(),
    reporter: Type.String(),
    labels: Type.Array(Type.String()),
    priority: Type.String(),
    parent: Type.Optional(
      Type.Object({ id: Type.String(), key: Type.String(), url: Type.String(), summary: Type.String() }),
    ),
  },
  { $id: 'TrackerTicket', title: 'TrackerTicket' },
);
export type TrackerTicket = Static<typeof TrackerTicket>;

export const TicketListResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ total: Type.Integer(), issues: Type.Array(Type.Ref(TrackerTicket)) }),
});
export type TicketList = Static<typeof TicketListResponse>['data'];
