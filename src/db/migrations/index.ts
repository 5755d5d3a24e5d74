import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './001-initial.js';
import * as reportSpecs from './002-report-specs.js';
import * as webhooks from './003-webhooks.js';
import * as integrationStatus from './004-integration-status.js';
import * as pullRequestGitHubState from './005-pull-request-github-state.js';
import * as reportVersions from './006-report-versions.js';
import * as testResults from './007-test-results.js';
import * as quarantine from './008-quarantine.js';
import * as appRepositoryUrl from './009-app-repository-url.js';
import * as specHistory from './010-spec-history.js';
import * as trustedUploads from './011-trusted-uploads.js';
import * as apiKeys from './012-api-keys.js';
import * as testResultsPerTest from './013-test-results-per-test.js';
import * as verdict from './014-verdict.js';
import * as testWindowStats from './015-test-window-stats.js';

/** Migrations are listed in code (not read from disk) so the built package needs no globbing. */
export const migrationProvider: MigrationProvider = {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve({
      '001-initial': initial,
      '002-report-specs': reportSpecs,
      '003-webhooks': webhooks,
      '004-integration-status': integrationStatus,
      '005-pull-request-github-state': pullRequestGitHubState,
      '006-report-versions': reportVersions,
      '007-test-results': testResults,
      '008-quarantine': quarantine,
      '009-app-repository-url': appRepositoryUrl,
      '010-spec-history': specHistory,
      '011-trusted-uploads': trustedUploads,
      '012-api-keys': apiKeys,
      '013-test-results-per-test': testResultsPerTest,
      '014-verdict': verdict,
      '015-test-window-stats': testWindowStats,
    });
  },
};
