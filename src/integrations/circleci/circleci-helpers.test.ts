import { describe, expect, it } from 'vitest';
import { runStatusFromWorkflows } from './circleci-client.js';
import { projectSlugFor } from './circleci-config.js';

const SLUG = 'github/acme/shop';

describe('CircleCI helpers', () => {
  it('derives the run status from the workflows', () => {
    expect(runStatusFromWorkflows([])).toBe('created');
    expect(runStatusFromWorkflows([], 'errored')).toBe('failed');
    expect(runStatusFromWorkflows(['success', 'running'])).toBe('running');
    expect(runStatusFromWorkflows(['success', 'on_hold'])).toBe('on_hold');
    expect(runStatusFromWorkflows(['running', 'failing'])).toBe('failing');
    expect(runStatusFromWorkflows(['success', 'canceled'])).toBe('failed');
    expect(runStatusFromWorkflows(['error'])).toBe('failed');
    expect(runStatusFromWorkflows(['success', 'failed'])).toBe('failed');
    expect(runStatusFromWorkflows(['success', 'not_run'])).toBe('success');
  });

  it('takes the project slug from the pipeline URL, else the fallback', () => {
    expect(projectSlugFor('https://app.circleci.com/pipelines/github/acme/shop', undefined)).toBe(SLUG);
    expect(
      projectSlugFor('https://app.circleci.com/pipelines/bitbucket/acme/shop/123/workflows/x', 'x/y/z'),
    ).toBe('bitbucket/acme/shop');
    expect(projectSlugFor('https://ci.example.com/acme/shop', 'gh/acme/fallback')).toBe('gh/acme/fallback');
    expect(projectSlugFor('https://ci.example.com/acme/shop', undefined)).toBeUndefined();
  });
});
