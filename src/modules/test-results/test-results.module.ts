import type { ModuleDeps } from '../module-deps.js';
import { createIdentityCache, rememberingResolver } from '../tests/identity-cache.js';
import type { IdentityWriter } from '../tests/identity-writer.js';
import { inWaitingBatches } from '../tests/identity-queue.js';
import { createTestRecorder } from '../tests/test-recorder.js';
import { createTestsRepository } from '../tests/tests.repository.js';
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
  /** Stops the identity writer's thread, if there is one. */
  close(): Promise<void>;
}

export function createTestResultsModule(
  { config, db, log }: ModuleDeps,
  links: { onAccepted?: UploadAccepted; onRunUploaded?: RunUploaded; identityWriter?: IdentityWriter } = {},
): TestResultsModule {
  const repository = createTestResultsRepository(db);
  const tests = createTestsRepository(db);
  const { identityWriter } = links;
  // One cache per service process, shared by its uploads.
  const resolveIdentities = rememberingResolver(
    identityWriter
      ? (appId, identities, day) => identityWriter.resolve(appId, identities, day)
      : inWaitingBatches((appId, identities, day) => tests.resolveIdentities(appId, identities, day)),
    createIdentityCache(),
    identityWriter ? () => identityWriter.settle() : undefined,
  );
  return {
    repository,
    maxBytes: config.uploadMaxBytes,
    close: async () => identityWriter?.close(),
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
