// Apart from heap-tuning.ts, whose import changes V8's flags: tests read these without that.

/**
 * How far the young generation may grow under load (MiB per semi-space), passed to node as
 * `--max-semi-space-size` by every way the service is started (`npm start`, the `dashboard` bin's
 * first line, the README's commands). V8 reads the maximum only when the heap is created, so it
 * cannot be set from here. Against V8's default of 16, 8 left RSS after the bench's load about
 * 13 MiB lower and used no more CPU per request (docs/performance.md, Memory).
 */
export const MAX_SEMI_SPACE_MIB = 8;
export const MAX_SEMI_SPACE_FLAG = `--max-semi-space-size=${MAX_SEMI_SPACE_MIB}`;
