import type { NotificationInput } from '../notifications/notification-sink.js';
import type { QuarantineRepository, QuarantineRow } from './quarantine.repository.js';
import type { SpecQuarantine } from './quarantine.schema.js';

const specKey = (appId: number, spec: string) => `${appId}\u0000${spec}`;

const toSpecQuarantine = (row: QuarantineRow): SpecQuarantine => ({
  id: row.id,
  reason: row.reason,
  ticketKey: row.ticket_key,
  expiresAt: row.expires_at,
});

/**
 * What the reports need to know about known failures. Run-level figures never change; only the
 * spec items, the day-over-day changes and the `e2e_failure` alert learn which specs are known.
 */
export interface QuarantineEffects {
  /** Spec items of one app, each with its active quarantine or null. */
  annotateSpecs<T extends { spec: string }>(
    appId: number,
    items: readonly T[],
  ): Promise<(T & { quarantine: SpecQuarantine | null })[]>;
  /** Newly failing specs, each flagged `quarantined` when an active quarantine covers it. */
  flagNewFailingSpecs<T extends { appId: number; spec: string }>(
    items: readonly T[],
  ): Promise<(T & { quarantined: boolean })[]>;
  /**
   * The notifications of a ready report with known failures taken out of `e2e_failure`: for an
   * app with active quarantines, `failingSpecs` keeps only the others and `quarantinedFailingSpecs`
   * lists the known ones; an app whose failing specs are all known gets no alert. Every e2e_failure
   * leaves with `quarantinedFailingSpecs` (an empty list when nothing known failed). Other
   * notifications pass unchanged.
   */
  filterReportNotifications(notifications: readonly NotificationInput[]): Promise<NotificationInput[]>;
  /** The app's active quarantines as a lookup per test: its spec's, else its own. */
  testLookup(appId: number): Promise<TestQuarantineLookup>;
}

/** Which active quarantine covers a test; null when none. */
export type TestQuarantineLookup = (test: {
  spec: string;
  title: string;
  testId: string;
}) => SpecQuarantine | null;

/** For callers built without the quarantine module (tools, unit tests): nothing is quarantined. */
export const NO_QUARANTINES: QuarantineEffects = {
  annotateSpecs: (_appId, items) => Promise.resolve(items.map((item) => ({ ...item, quarantine: null }))),
  flagNewFailingSpecs: (items) => Promise.resolve(items.map((item) => ({ ...item, quarantined: false }))),
  filterReportNotifications: (notifications) => Promise.resolve([...notifications]),
  testLookup: () => Promise.resolve(() => null),
};

/** Splits failing specs into new ones and known (quarantined) ones. */
export function splitFailingSpecs(
  failingSpecs: readonly string[],
  quarantined: ReadonlySet<string>,
): { fresh: string[]; known: string[] } {
  return {
    fresh: failingSpecs.filter((spec) => !quarantined.has(spec)),
    known: failingSpecs.filter((spec) => quarantined.has(spec)),
  };
}

/** The failure message again, naming only the new failing specs and counting the known ones. */
function messageWithKnown(message: string, fresh: readonly string[], known: readonly string[]): string {
  const head = message.split(' Failing: ')[0] ?? message;
  const author = / Last commit by [^.]*\.$/.exec(message)?.[0] ?? '';
  const list = fresh.slice(0, 3).join(', ') + (fresh.length > 3 ? ', …' : '');
  const knownPart = ` ${known.length} known failure${known.length === 1 ? '' : 's'} not repeated.`;
  return `${head.endsWith('.') ? head : `${head}.`} Failing: ${list}.${knownPart}${author}`;
}

export function createQuarantineEffects(repository: QuarantineRepository): QuarantineEffects {
  return {
    async annotateSpecs(appId, items) {
      const active = items.length === 0 ? [] : await repository.listActive(appId);
      const bySpec = new Map(active.map((row) => [row.spec, toSpecQuarantine(row)]));
      return items.map((item) => ({ ...item, quarantine: bySpec.get(item.spec) ?? null }));
    },

    async flagNewFailingSpecs(items) {
      const active = items.length === 0 ? [] : await repository.listActive();
      const keys = new Set(active.map((row) => specKey(row.app_id, row.spec)));
      return items.map((item) => ({ ...item, quarantined: keys.has(specKey(item.appId, item.spec)) }));
    },

    async testLookup(appId) {
      const active = await repository.listActive(appId);
      const bySpec = new Map(active.map((row) => [row.spec, toSpecQuarantine(row)]));
      return (test) => bySpec.get(test.spec) ?? null;
    },

    async filterReportNotifications(notifications) {
      const failures = notifications.filter((notification) => notification.type === 'e2e_failure');
      if (failures.length === 0) return [...notifications];
      const active = await repository.listActive();
      const byApp = new Map<number, Set<string>>();
      for (const row of active) {
        const specs = byApp.get(row.app_id) ?? new Set<string>();
        specs.add(row.spec);
        byApp.set(row.app_id, specs);
      }
      const kept: NotificationInput[] = [];
      for (const notification of notifications) {
        const data = notification.data ?? {};
        const failingSpecs = Array.isArray(data.failingSpecs) ? (data.failingSpecs as string[]) : undefined;
        if (notification.type !== 'e2e_failure' || !failingSpecs) {
          kept.push(notification);
          continue;
        }
        const quarantined = typeof data.appId === 'number' ? byApp.get(data.appId) : undefined;
        // An app without any quarantine keeps its alert, with no known failures named.
        if (!quarantined) {
          kept.push({ ...notification, data: { ...data, quarantinedFailingSpecs: [] } });
          continue;
        }
        const { fresh, known } = splitFailingSpecs(failingSpecs, quarantined);
        if (known.length === 0) {
          kept.push({ ...notification, data: { ...data, quarantinedFailingSpecs: [] } });
          continue;
        }
        // Every failing spec is a known failure: nothing new to alert about.
        if (fresh.length === 0) continue;
        kept.push({
          ...notification,
          message: messageWithKnown(notification.message, fresh, known),
          data: { ...data, failingSpecs: fresh, quarantinedFailingSpecs: known },
        });
      }
      return kept;
    },
  };
}
