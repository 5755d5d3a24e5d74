import type { Config } from '../config/config.js';

/**
 * The configuration the API-calling commands (`jobs`, `report`) use: the key they present is
 * DASHBOARD_API_KEY when set (any key: API_SECURITY_KEY or one made through /api/keys, as
 * `dashboard upload` reads it), else API_SECURITY_KEY as before.
 */
export function withDashboardKey(config: Config, env: NodeJS.ProcessEnv): Config {
  const key = env.DASHBOARD_API_KEY?.trim();
  return key ? Object.freeze({ ...config, apiKey: key }) : config;
}
