import { finished } from 'node:stream/promises';
import Assembler from 'stream-json/Assembler.js';
import Parser from 'stream-json/Parser.js';
import { invalidFormat } from './format-errors.js';
import { reportFromJson } from './json-reports.js';
import type { CollectorOptions, ParsedReport } from './report-model.js';

/**
 * Parses a JSON report as its chunks arrive (stream-json), so a large file costs many short
 * slices of work instead of one JSON.parse that holds the event loop for the whole text. The
 * document is assembled in full (the reports' shapes need all of it), then reduced to a report.
 */
export function createJsonReader(options: CollectorOptions = {}) {
  // Packed values only: one token per string, number or key instead of a token per piece.
  const parser = new Parser({ streamValues: false, streamKeys: false, streamStrings: false });
  const assembler = new Assembler();
  let fault: Error | undefined;
  let first = true;
  parser.on('data', (token: { name: string; value?: string }) => assembler.consume(token));
  parser.on('error', (error: Error) => {
    fault ??= invalidFormat(`Not valid JSON: ${error.message}`);
  });

  return {
    write(text: string): void {
      if (fault) throw fault;
      if (parser.destroyed) return;
      // Some Windows tools start their files with a byte-order mark, which JSON does not allow.
      const chunk = first && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      first = false;
      if (chunk !== '') parser.write(chunk);
    },

    async finish(): Promise<ParsedReport> {
      if (!parser.destroyed) parser.end();
      await finished(parser).catch(() => undefined);
      if (fault) throw fault;
      if (!assembler.done) throw invalidFormat('Not valid JSON: the document ends too early');
      return reportFromJson(assembler.current, options);
    },
  };
}
