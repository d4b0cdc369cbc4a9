import { findUnsafeText } from "#app/http/text.ts";

/**
 * A client-side navigation asks for `/page.data?_routes=…`, whose answer holds the data of the
 * routes named there: a parameter every data request is read by, besides the page's own.
 */
const DATA_REQUEST_PARAMETERS = ["_routes"];

/**
 * A request's path and query, as far as the cache keys on them: the path as sent, and of the
 * query only the parameters the page's route declared it reads (plus a data request's own).
 */
export class PageAddress {
  readonly pathname: string;
  readonly #parameters: URLSearchParams;

  constructor(originalUrl: string) {
    const query = originalUrl.indexOf("?");
    this.pathname = query < 0 ? originalUrl : originalUrl.slice(0, query);
    this.#parameters = new URLSearchParams(query < 0 ? "" : originalUrl.slice(query + 1));
  }

  /** Whether a parameter holds what the edge refuses (a NUL byte, a broken character). */
  get unsafe(): boolean {
    return this.#parameters.size > 0 && findUnsafeText([...this.#parameters]) !== undefined;
  }

  /** The page's key: its path and the values of the parameters it reads, in the order declared. */
  key(names: readonly string[]): string {
    const search = this.#read(names).toString();
    return search ? `${this.pathname}?${search}` : this.pathname;
  }

  #read(names: readonly string[]): URLSearchParams {
    const read = new URLSearchParams();
    if (this.#parameters.size === 0) return read;
    for (const name of this.pathname.endsWith(".data") ? [...names, ...DATA_REQUEST_PARAMETERS] : names) {
      const value = this.#parameters.get(name);
      if (value !== null) read.set(name, value);
    }
    return read;
  }
}
