import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at its initial size (1 MiB semi-spaces). By default V8 grows it to
 * 16 MiB semi-spaces under the allocation burst of start-up and keeps them committed, about a
 * fifth of an idle API process's memory; the small young generation costs more, shorter
 * scavenges (measured in docs/performance.md). Setting the maximum at run time has no effect
 * once the heap exists; the growth factor is read at each resize, so it is what is set here, as
 * the first thing the entry does. A start size or growth factor given to node takes precedence. Once
 * the process is busy, growth is allowed again (young-generation.ts): memory at rest stays low,
 * and a loaded process does not spend a third of its CPU time scavenging.
 */
const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;

/** Whether node was started with a young-generation maximum (the CLI says so when not). */
export const maxSemiSpaceGiven = given.includes('--max-semi-space-size');

/**
 * True when node was started with its own start size or growth for the young generation: then
 * this process leaves it be. A maximum alone is compatible with holding it small at rest.
 */
export const youngGenerationFlagsGiven = /--(min-semi-space-size|semi-space-growth-factor)/.test(given);
if (!youngGenerationFlagsGiven) setFlagsFromString('--semi-space-growth-factor=1');
