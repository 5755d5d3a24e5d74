import { type Static, Type } from '@sinclair/typebox';
import { OrNull, Text } from '../../http/plumbing/schemas.js';

export const SuspectsQuery = Type.Object(
  {
    spec: Text(1000, { description: 'The spec file, as the report lists it' }),
    date: Type.String({ format: 'calendar-date', examples: ['2025-03-01'], description: 'The report date' }),
  },
  { additionalProperties: false },
);
export type SuspectsQuery = Static<typeof SuspectsQuery>;

const SuspectPullRequest = Type.Object({
  number: Type.Integer(),
  title: Type.String(),
  url: Type.String(),
  trackedId: OrNull(
    Type.Integer({ description: 'Id in /api/pull_requests when the pull request is tracked' }),
  ),
});

const SuspectCommit = Type.Object({
  sha: Type.String(),
  message: Type.String({ description: 'First line of the commit message' }),
  author: Type.String({ description: "The author's GitHub login when known, else the git author name" }),
  url: Type.String(),
  pullRequest: OrNull(SuspectPullRequest),
});

export const Suspects = Type.Object({
  spec: Type.String(),
  base: Type.String({ description: 'The last commit the spec passed on before its failing streak' }),
  head: Type.String({ description: 'The commit of the first run of the failing streak' }),
  commits: Type.Array(SuspectCommit, { description: 'Oldest first, at most 250' }),
  truncated: Type.Boolean({ description: 'The range holds more commits than listed' }),
});
export type Suspects = Static<typeof Suspects>;

export const SuspectsResponse = Type.Object({ success: Type.Literal(true), data: Suspects });
