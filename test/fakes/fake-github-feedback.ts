/**
 * The write side of the fake GitHub that pull-request feedback uses: commit statuses
 * (`POST /repos/{o}/{r}/statuses/{sha}`) and issue comments (create, list with paging, edit), each
 * recorded as GitHub would keep them, in GitHub's answer shapes.
 */
export interface RecordedStatus {
  owner: string;
  repo: string;
  sha: string;
  state: string;
  description: string;
  context: string;
  target_url: string;
}

export interface RecordedComment {
  id: number;
  owner: string;
  repo: string;
  issue: number;
  body: string;
  /** Every body it had, the first one first (one entry: never edited). */
  bodies: string[];
}

export interface FeedbackAnswer {
  status: number;
  body: unknown;
}

export function createFakeFeedbackStore() {
  const statuses: RecordedStatus[] = [];
  const comments: RecordedComment[] = [];
  let nextId = 900_000_001;

  const parse = (raw: string): Record<string, unknown> | undefined => {
    try {
      const value = JSON.parse(raw) as unknown;
      return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const invalid = { status: 422, body: { message: 'Validation Failed', status: '422' } };
  const commentJson = (comment: RecordedComment) => ({
    id: comment.id,
    body: comment.body,
    html_url: `https://github.com/${comment.owner}/${comment.repo}/pull/${comment.issue}#issuecomment-${comment.id}`,
    user: { login: 'dashboard-bot', id: 7 },
  });

  const ROUTES: [string, RegExp][] = [
    ['POST', /^\/repos\/[^/]+\/[^/]+\/statuses\/[^/]+$/],
    ['POST', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/],
    ['GET', /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/],
    ['PATCH', /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/\d+$/],
  ];

  return {
    statuses,
    comments,
    /** Whether the request is one of the feedback routes. */
    handles: (method: string, path: string) =>
      ROUTES.some(([m, pattern]) => m === method && pattern.test(path)),
    /** The answer to a feedback request, or undefined when the path is none of its routes. */
    answer(method: string, path: string, query: URLSearchParams, raw: string): FeedbackAnswer | undefined {
      const status = /^\/repos\/([^/]+)\/([^/]+)\/statuses\/([^/]+)$/.exec(path);
      if (status && method === 'POST') {
        const body = parse(raw);
        if (!body || typeof body.state !== 'string') return invalid;
        const description = typeof body.description === 'string' ? body.description : '';
        if (description.length > 140) return invalid;
        statuses.push({
          owner: status[1]!,
          repo: status[2]!,
          sha: status[3]!,
          state: body.state,
          description,
          context: typeof body.context === 'string' ? body.context : 'default',
          target_url: typeof body.target_url === 'string' ? body.target_url : '',
        });
        return { status: 201, body: { id: statuses.length, state: body.state, context: body.context } };
      }
      const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path);
      if (list && method === 'POST') {
        const body = parse(raw);
        if (!body || typeof body.body !== 'string') return invalid;
        const comment = {
          id: nextId++,
          owner: list[1]!,
          repo: list[2]!,
          issue: Number(list[3]),
          body: body.body,
          bodies: [body.body],
        };
        comments.push(comment);
        return { status: 201, body: commentJson(comment) };
      }
      if (list && method === 'GET') {
        const perPage = Math.min(100, Number(query.get('per_page') ?? 30));
        const page = Math.max(1, Number(query.get('page') ?? 1));
        const mine = comments.filter(
          (c) => c.owner === list[1] && c.repo === list[2] && c.issue === Number(list[3]),
        );
        return { status: 200, body: mine.slice((page - 1) * perPage, page * perPage).map(commentJson) };
      }
      const edit = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(path);
      if (edit && method === 'PATCH') {
        const comment = comments.find((c) => c.id === Number(edit[3]));
        if (!comment) return { status: 404, body: { message: 'Not Found', status: '404' } };
        const body = parse(raw);
        if (!body || typeof body.body !== 'string') return invalid;
        comment.body = body.body;
        comment.bodies.push(body.body);
        return { status: 200, body: commentJson(comment) };
      }
      return undefined;
    },
    /** Deletes a comment as a person would on GitHub. */
    deleteComment(id: number) {
      const index = comments.findIndex((c) => c.id === id);
      if (index >= 0) comments.splice(index, 1);
    },
  };
}
