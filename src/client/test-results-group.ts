import type { Static } from '@sinclair/typebox';
import type {
  UploadDetailResponse,
  UploadListResponse,
  UploadResponse,
} from '../modules/test-results/test-results.schema.js';
import type { Query, RawBody, RequestOptions, Transport } from './transport.js';

/** The query of an upload: `app` and `run` are required; the rest as the API documents it. */
export type UploadQuery = Query & { app: string; run: string | number };

/** `/api/test_results`: CI report files (JUnit XML, Playwright JSON, Mochawesome JSON). */
export function testResultsGroup(transportOf: () => Transport) {
  // The client's fields are set before its constructor makes the transport: read it per call.
  const request = <T>(method: string, path: string, options?: RequestOptions) =>
    transportOf().request<T>(method, path, options);
  return {
    /**
     * Sends one report file; `created` is false when the same file was already stored for the
     * run (200, same id). The server stores a repeat once, so the upload is retried like an
     * idempotent request (after a time-out or a 5xx).
     */
    upload: async (report: RawBody, query: UploadQuery, signal?: AbortSignal) => {
      const response = await request<Static<typeof UploadResponse>>('POST', '/api/test_results', {
        query,
        rawBody: report,
        idempotent: true,
        signal,
      });
      return { created: response.status === 201, data: response.body.data };
    },
    list: (query: { appId?: number; limit?: number; offset?: number } = {}) =>
      request<Static<typeof UploadListResponse>>('GET', '/api/test_results', { query: { ...query } }).then(
        (response) => response.body,
      ),
    get: (id: number) =>
      request<Static<typeof UploadDetailResponse>>('GET', `/api/test_results/${id}`).then(
        (response) => response.body,
      ),
    remove: (id: number) => request<unknown>('DELETE', `/api/test_results/${id}`).then(() => undefined),
  };
}
