import { describe, expect, it } from "vitest";
import { inlineScriptHashes, preferredEncoding } from "./page-bytes.ts";
import { sha256 } from "#tests/helpers/page-cache-server.ts";

describe("inlineScriptHashes", () => {
  it("hashes each inline script once, and no script loaded by address", () => {
    const page = Buffer.from('<script nonce="n">a()</script><script src="/x.js"></script><script type="module">b()</script><script>a()</script>');
    expect(inlineScriptHashes(page)).toBe(`${sha256("a()")} ${sha256("b()")}`);
  });
});

describe("preferredEncoding", () => {
  it("prefers br, then gzip, and honours q=0", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip, deflate")).toBe("gzip");
    expect(preferredEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(preferredEncoding("br;q=0.0, gzip;q=0")).toBe("identity");
    expect(preferredEncoding("*")).toBe("gzip");
    expect(preferredEncoding(undefined)).toBe("identity");
    expect(preferredEncoding("deflate")).toBe("identity");
  });
});
