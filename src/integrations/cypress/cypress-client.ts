import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import Parser from 'stream-json/Parser.js';
import Pick from 'stream-json/filters/Pick.js';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import { ExternalServiceError } from '../../shared/errors.js';
import { type CallOutcomes, UNTRACKED } from '../call-outcomes.js';

/** Largest number of `projects` parameters in one request (docs/contract-notes.md, "Report processing"). */
export const PROJECTS_PER_REQUEST = 50;

const SERVICE = 'test-results service';

export interface CypressClientOptions {
  /** `CYPRESS_BASE_URL`: the report endpoint itself. */
  baseUrl: string;
  apiKey?: string;
  branch?: string;
  /** No byte for this long (connecting, waiting for headers or mid-body) fails the call. */
  timeoutMs: number;
  projectsPerRequest?: number;
  /** Told about every report fetch (status page). */
  outcomes?: CallOutcomes;
}

export interface SpecDetailsQuery {
  startDate: string;
  endDate: string;
  projects: readonly string[];
}

/** Builds the `spec-details` report URL of one batch of projects. */
export function specDetailsUrl(options: CypressClientOptions, query: SpecDetailsQuery): URL {
  const url = new URL(options.baseUrl);
  url.searchParams.set('report_id', 'spec-details');
  if (options.apiKey !== undefined) url.searchParams.set('token', options.apiKey);
  url.searchParams.set('export_format', 'json');
  url.searchParams.set('start_date', query.startDate);
  url.searchParams.set('end_date', query.endDate);
  if (options.branch) url.searchParams.set('branch', options.branch);
  for (const project of query.projects) url.searchParams.append('projects', project);
  return url;
}

/** When the answer wraps its rows in an object, they are under one of these keys. */
const WRAPPED_ROWS = /^(data|rows|results)$/;

/** Resolves with the first non-blank byte of the body, leaving the stream untouched. */
function firstByte(stream: IncomingMessage): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onReadable = () => {
      const chunk = stream.read() as Buffer | null;
      if (chunk === null) return;
      cleanup();
      stream.unshift(chunk);
      resolve(chunk.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09));
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

/**
 * Rows are the elements of a top-level JSON array or, when the answer is an object, of its
 * `data` / `rows` / `results` array. StreamArray alone is the fast path; Pick only when wrapped.
 * Packed tokens only (`streamValues: false`): about a third fewer tokens to push through.
 */
async function rowStream(response: IncomingMessage): Promise<Readable> {
  const wrapped = (await firstByte(response)) === 0x7b;
  const done = () => undefined;
  return wrapped
    ? pipeline(
        response,
        new Parser({ streamValues: false }),
        new Pick({ filter: WRAPPED_ROWS }),
        new StreamArray(),
        done,
      )
    : pipeline(response, new Parser({ streamValues: false }), new StreamArray(), done);
}

function request(url: URL, timeoutMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(url, { headers: { accept: 'application/json' } }, resolve);
    // An idle timeout, not a total one: a large answer that keeps flowing is fine.
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.once('error', reject);
  });
}

async function readSnippet(response: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of response as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length > 300) break;
  }
  response.destroy();
  return text.slice(0, 300);
}

const safeUrl = (url: URL) => {
  const copy = new URL(url);
  if (copy.searchParams.has('token')) copy.searchParams.set('token', '***');
  return copy.toString();
};

/**
 * Client of the Cypress Cloud enterprise reporting API (`spec-details` report as JSON). The
 * answer is parsed as a stream (stream-json) so memory stays flat however large it is; rows are
 * yielded one at a time. Any failure throws ExternalServiceError; the report processor retries.
 */
export function createCypressClient(options: CypressClientOptions) {
  const batchSize = options.projectsPerRequest ?? PROJECTS_PER_REQUEST;
  const outcomes = options.outcomes ?? UNTRACKED;

  async function* streamBatch(query: SpecDetailsQuery): AsyncGenerator<Record<string, unknown>> {
    const url = specDetailsUrl(options, query);
    let response: IncomingMessage;
    try {
      response = await request(url, options.timeoutMs);
    } catch (error) {
      throw new ExternalServiceError(SERVICE, `The ${SERVICE} did not answer: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const snippet = await readSnippet(response).catch(() => '');
      throw new ExternalServiceError(
        SERVICE,
        `The ${SERVICE} answered ${status} for ${safeUrl(url)}${snippet ? `: ${snippet}` : ''}`,
      );
    }
    response.setTimeout(options.timeoutMs, () =>
      response.destroy(new Error(`the answer stalled for ${options.timeoutMs} ms`)),
    );
    try {
      const values = await rowStream(response);
      for await (const item of values as AsyncIterable<{ value: unknown }>) {
        const value = item.value;
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
          yield value as Record<string, unknown>;
        }
      }
    } catch (error) {
      throw new ExternalServiceError(
        SERVICE,
        `Reading the ${SERVICE} answer failed: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    } finally {
      response.destroy();
    }
  }

  return {
    /** Every row for the projects, one request per batch of at most 50 projects. */
    async *specDetails(query: SpecDetailsQuery): AsyncGenerator<Record<string, unknown>> {
      try {
        for (let start = 0; start < query.projects.length; start += batchSize) {
          yield* streamBatch({ ...query, projects: query.projects.slice(start, start + batchSize) });
        }
      } catch (error) {
        outcomes.failed(error);
        throw error;
      }
      outcomes.succeeded();
    },
  };
}

export type CypressClient = ReturnType<typeof createCypressClient>;
