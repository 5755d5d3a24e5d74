import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at its initial size (1 MiB semi-spaces). By default V8 grows it to
 * 16 MiB semi-spaces under the allocation burst of start-up and keeps them committed, about a
 * fifth of an idle API process's memory; the small young generation costs more, shorter
 * scavenges (measured in docs/performance.md). Setting the maximum at run time has no effect
 * once the heap exists; the growth factor is read at each resize, so it is what is set here, as
 * the first thing the entry does. Semi-space flags given to node itself take precedence.
 */
const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
if (!given.includes('semi-space')) setFlagsFromString('--semi-space-growth-factor=1');
