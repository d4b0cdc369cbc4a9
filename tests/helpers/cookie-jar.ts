/** The cookies a browser would keep between requests, for HTTP tests that follow redirects by hand. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** Takes in a response's Set-Cookie headers (an expired or emptied cookie is dropped). */
  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === "") this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  get(name: string) {
    return this.#cookies.get(name);
  }

  /** The Cookie request header, or undefined when the jar is empty. */
  header(): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}
