/**
 * The page of a list a caller asked for. Services and repositories take it, so it lives here
 * rather than with the HTTP pagination helpers: the layers below HTTP must not import them.
 */
export interface Page {
  limit: number;
  offset: number;
  /** True when the caller passed limit or offset; only then does the answer carry `pagination`. */
  requested: boolean;
}
