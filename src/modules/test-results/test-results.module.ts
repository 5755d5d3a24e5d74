import type { ModuleDeps } from '../module-deps.js';
import { cachedIdentities } from '../tests/identity-cache.js';
import { createTestRecorder } from '../tests/test-recorder.js';
import { createTestsRepository } from '../tests/tests.repository.js';
import { todayUtc } from '../../shared/time.js';
import { createTestResultsRepository, type TestResultsRepository } from './test-results.repository.js';
import {
  createTestResultsService,
  type RunUploaded,
  type TestResultsService,
  type UploadAccepted,
} from './test-results.service.js';

export interface TestResultsModule {
  service: TestResultsService;
  repository: TestResultsRepository;
  /** UPLOAD_MAX_BYTES, the upload route's own body limit. */
  maxBytes: number;
}

export function createTestResultsModule(
  { config, db, log }: ModuleDeps,
  links: { onAccepted?: UploadAccepted; onRunUploaded?: RunUploaded } = {},
): TestResultsModule {
  const repository = createTestResultsRepository(db);
  const tests = createTestsRepository(db);
  // One cache per service process, shared by its uploads.
  const resolveIdentities = cachedIdentities(
    (appId, identities, day) => tests.resolveIdentities(appId, identities, day),
    todayUtc,
  );
  return {
    repository,
    maxBytes: config.uploadMaxBytes,
    service: createTestResultsService({
      repository,
      maxBytes: config.uploadMaxBytes,
      ...(links.onAccepted ? { onAccepted: links.onAccepted } : {}),
      ...(links.onRunUploaded ? { onRunUploaded: links.onRunUploaded } : {}),
      warn: (error, message) => log.warn({ err: error }, message),
      recordTests: (appId) => createTestRecorder(appId, resolveIdentities),
    }),
  };
}
