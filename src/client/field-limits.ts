/**
 * The longest (and shortest) values the API accepts in its text fields: the server's schemas are
 * built from these, and forms (the web UI's, anyone's) can stop at the same lengths.
 */
export const APP_LIMITS = { name: 255, code: 100, pipelineUrl: 500, repositoryUrl: 500 } as const;
export const TODO_LIMITS = { title: 255, link: 500 } as const;
export const QUARANTINE_LIMITS = { reason: 500, spec: 1000, test: 1000 } as const;
export const WEBHOOK_LIMITS = { url: 2000, name: 100, secretMin: 16, secretMax: 200 } as const;
/** Keys made through `/api/keys`: the name, each application code and how many codes. */
export const KEY_LIMITS = { name: 100, appCode: 100, apps: 100 } as const;
/** Through the API or the broker's `notification:create`. */
export const NOTIFICATION_LIMITS = { title: 255, message: 4000 } as const;
