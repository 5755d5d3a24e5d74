import type { AppChange } from '../apps/apps.service.js';
import type { ApplicationDetails } from '../apps/apps.schema.js';
import type { NotificationInput } from './notification-sink.js';

/** The `app_update` notification for a change of the application list (docs/contract-notes.md, "Notifications"). */
export function appUpdateNotification(change: AppChange, app: ApplicationDetails): NotificationInput {
  const data = { appId: app.id, appName: app.name, changeType: change };
  switch (change) {
    case 'created':
      return {
        type: 'app_update',
        title: 'Application added',
        message: `${app.name} (${app.code}) is now monitored`,
        data,
      };
    case 'deleted':
      return {
        type: 'app_update',
        title: 'Application removed',
        message: `${app.name} (${app.code}) was removed`,
        data,
      };
    case 'watching_changed':
      return app.watching
        ? {
            type: 'app_update',
            title: 'Application watched',
            message: `${app.name} is watched again: its E2E runs are reported`,
            data,
          }
        : {
            type: 'app_update',
            title: 'Application no longer watched',
            message: `${app.name} is no longer watched: its E2E runs are left out of reports`,
            data,
          };
  }
}
