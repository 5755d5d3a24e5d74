import {
  IncomingMessage,
  ServerResponse,
  validateHeaderName,
  validateHeaderValue,
  type OutgoingHttpHeader,
} from 'node:http';
import { Socket } from 'node:net';

/**
 * Header fields sent unchanged on every answer of a kind (the security headers, CORS without
 * `Origin`, `Cache-Control`), checked and joined into their wire form once.
 *
 * Why: `writeHead` checks every field's name and value with two regular expressions, lower-cases
 * its name and joins it onto the head, on every response. For the fifteen fixed fields of a
 * front-door answer that was the largest single cost left: a bare `node:http` server sending the
 * service's nineteen header fields took 112,000 machine instructions per request against 67,000
 * with two fields, and 88,000 with the fixed fields handed over already joined
 * (docs/front-door.md). Node offers no public way to send a prepared head, so
 * `FrontDoorResponse` places the block right after the status line, through the one step of
 * `writeHead` that builds the head; everything else (the request's own fields, `Date`,
 * `Connection`, `Keep-Alive`, `Content-Length` handling) stays Node's. `headerBlocksWork()`
 * proves at start-up that this Node builds the head the way the block relies on; where it does
 * not, the front door sends the same fields through `writeHead` one by one instead.
 */
export interface HeaderBlock {
  /** The fields in order, as `name: value\r\n` lines. */
  readonly wire: string;
  /** The same fields as `writeHead` takes them, for the fallback. */
  readonly fields: readonly string[];
  /** Lower-cased names, to see whether a response sets one of the fields itself. */
  readonly names: ReadonlySet<string>;
}

/**
 * Fields whose presence changes how Node frames the message (keep-alive, length, chunking, its
 * own `Date`): they must go through `writeHead` so Node sees them.
 */
const FRAMING_FIELDS = new Set([
  'connection',
  'content-length',
  'date',
  'expect',
  'keep-alive',
  'trailer',
  'transfer-encoding',
]);

/** Checks every field as `writeHead` would (throwing the same errors) and joins them once. */
export function headerBlock(fields: Readonly<Record<string, string>>): HeaderBlock {
  let wire = '';
  const flat: string[] = [];
  const names = new Set<string>();
  for (const [name, value] of Object.entries(fields)) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    if (FRAMING_FIELDS.has(name.toLowerCase())) {
      throw new TypeError(`"${name}" frames the message and cannot be part of a fixed header block`);
    }
    wire += `${name}: ${value}\r\n`;
    flat.push(name, value);
    names.add(name.toLowerCase());
  }
  return { wire, fields: flat, names };
}

/**
 * The block fields the response sets itself (lower-cased), if any. `headers` is what `writeHead`
 * passes on: a flat array, an array of pairs, a plain object (Fastify's) or Node's own table of
 * `setHeader` fields, the last two keyed by name.
 */
function ownFieldsIn(block: HeaderBlock, headers: unknown): Set<string> | undefined {
  let own: Set<string> | undefined;
  const note = (name: unknown) => {
    const lower = String(name).toLowerCase();
    if (block.names.has(lower)) (own ??= new Set()).add(lower);
  };
  if (Array.isArray(headers)) {
    const pairs = headers.length > 0 && Array.isArray(headers[0]);
    for (let i = 0; i < headers.length; i += pairs ? 1 : 2)
      note(pairs ? (headers[i] as unknown[])[0] : headers[i]);
  } else if (headers !== null && typeof headers === 'object') {
    for (const key in headers) note(key);
  }
  return own;
}

/**
 * The block's lines, less those the response sets itself: a route that sets one of the fixed
 * fields replaces it, as `reply.header` would have.
 */
function wireBeside(block: HeaderBlock, headers: unknown): string {
  const own = ownFieldsIn(block, headers);
  if (own === undefined) return block.wire;
  let wire = '';
  for (let i = 0; i < block.fields.length; i += 2) {
    if (!own.has(block.fields[i]!.toLowerCase())) wire += `${block.fields[i]}: ${block.fields[i + 1]}\r\n`;
  }
  return wire;
}

type StoreHeader = (this: ServerResponse, firstLine: string, headers: unknown) => void;
const nodeStoreHeader = (ServerResponse.prototype as unknown as { _storeHeader?: StoreHeader })._storeHeader;

/** The server's response class: Node's own, plus `deferFixedFields` and `writeHeadWith`. */
export class FrontDoorResponse extends ServerResponse {
  /** Fields to place after the status line when the head is built (see `deferFixedFields`). */
  fixedBlock: HeaderBlock | undefined = undefined;

  /**
   * Sends the block's fields with this response's head, whenever it is written (Fastify writes it
   * after the route). The response's own fields replace block fields of the same name; a block
   * field cannot be removed. False (and nothing deferred) where blocks do not work: then set the
   * fields one by one.
   */
  deferFixedFields(block: HeaderBlock): boolean {
    if (!blocksWork) return false;
    this.fixedBlock = block;
    return true;
  }

  /** `writeHead(statusCode, [...block.fields, ...fields])`, with the block's fields joined once. */
  writeHeadWith(block: HeaderBlock, statusCode: number, fields: OutgoingHttpHeader[]): void {
    if (!this.deferFixedFields(block)) {
      this.writeHead(statusCode, [...block.fields, ...fields] as string[]);
      return;
    }
    try {
      this.writeHead(statusCode, fields as string[]);
    } catch (error) {
      // Whoever answers instead (Fastify, after a front-door failure) sets its own fields.
      this.fixedBlock = undefined;
      throw error;
    }
  }
}

if (nodeStoreHeader) {
  // Node's step that starts the head from the status line and appends each field.
  Object.defineProperty(FrontDoorResponse.prototype, '_storeHeader', {
    value(this: FrontDoorResponse, firstLine: string, headers: unknown) {
      const block = this.fixedBlock;
      if (block === undefined) return nodeStoreHeader.call(this, firstLine, headers);
      // Kept until a head is built: if this one throws (a bad field of the route's), the error
      // answer Fastify writes next still carries the block.
      nodeStoreHeader.call(this, firstLine + wireBeside(block, headers), headers);
      this.fixedBlock = undefined;
    },
    writable: true,
    configurable: true,
  });
}

/**
 * Whether this Node builds the head as the block relies on: a response given a block and one
 * field must start with the status line, the block, then the field. Checked once, on a response
 * that is never sent.
 */
function checkHeaderBlocks(): boolean {
  if (!nodeStoreHeader) return false;
  try {
    const request = new IncomingMessage(new Socket());
    request.method = 'GET';
    request.httpVersionMajor = 1;
    request.httpVersionMinor = 1;
    blocksWork = true;
    const probe = new FrontDoorResponse(request);
    probe.writeHeadWith(headerBlock({ 'x-block': 'a' }), 200, ['x-field', 'b']);
    const head = (probe as unknown as { _header?: unknown })._header;
    return typeof head === 'string' && head.startsWith('HTTP/1.1 200 OK\r\nx-block: a\r\nx-field: b\r\n');
  } catch {
    return false;
  }
}

let blocksWork = false;
blocksWork = checkHeaderBlocks();

/** Whether `writeHeadWith` sends the block joined (true) or field by field (false). */
export const headerBlocksWork = (): boolean => blocksWork;

/** For the test of the fallback only. */
export function useHeaderBlocks(on: boolean): void {
  blocksWork = on && checkHeaderBlocks();
}
