import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { ExternalServiceError } from '../../shared/errors.js';
import { type CallOutcomes, UNTRACKED } from '../call-outcomes.js';
import { type Row, RowSplitter } from './row-splitter.js';

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
 * answer is read as a stream, so memory stays flat however large it is: rows come in batches, one
 * per chunk of the answer (RowSplitter), or one at a time. Any failure throws
 * ExternalServiceError; the report processor retries.
 */
export function createCypressClient(options: CypressClientOptions) {
  const batchSize = options.projectsPerRequest ?? PROJECTS_PER_REQUEST;
  const outcomes = options.outcomes ?? UNTRACKED;

  async function* streamBatch(query: SpecDetailsQuery): AsyncGenerator<Row[]> {
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
      const splitter = new RowSplitter();
      for await (const chunk of response as AsyncIterable<Buffer>) {
        const rows = splitter.push(chunk);
        if (rows.length > 0) yield rows;
      }
      const rows = splitter.end();
      if (rows.length > 0) yield rows;
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

  /** Every row for the projects in batches, one request per group of at most 50 projects. */
  async function* specDetailBatches(query: SpecDetailsQuery): AsyncGenerator<Row[]> {
    try {
      for (let start = 0; start < query.projects.length; start += batchSize) {
        yield* streamBatch({ ...query, projects: query.projects.slice(start, start + batchSize) });
      }
    } catch (error) {
      outcomes.failed(error);
      throw error;
    }
    outcomes.succeeded();
  }

  return {
    specDetailBatches,

    /** Every row for the projects, one at a time. */
    async *specDetails(query: SpecDetailsQuery): AsyncGenerator<Row> {
      for await (const rows of specDetailBatches(query)) {
        for (const row of rows) yield row;
      }
    },
  };
}

export type CypressClient = ReturnType<typeof createCypressClient>;
