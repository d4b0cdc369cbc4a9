import ReactMarkdown, { type Components } from "react-markdown";
import rehypeRaw from "rehype-raw";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { contentLink, siteImagePath } from "#app/lib/content-urls.ts";
import { cn } from "#app/lib/utils.ts";

/**
 * GitHub's sanitising rules (no scripts, no event handlers, no javascript: or data: URLs, no
 * iframes), plus the `class` names our Markdown never needs but pasted HTML often carries —
 * dropped. So are `<picture>` and `<source srcset>`: a srcset loads an image that the `img`
 * rule below never sees.
 */
const schema = {
  ...defaultSchema,
  tagNames: (defaultSchema.tagNames ?? []).filter((name) => name !== "picture" && name !== "source"),
  attributes: { ...defaultSchema.attributes, "*": (defaultSchema.attributes?.["*"] ?? []).filter((name) => name !== "className") },
};

/**
 * Which images a text may show; any other image is replaced by its alt text. "none" for Game
 * Master replies: a model writes them, and players (or a game's content) can steer it into
 * adding an image whose URL reports who reads the story, or carries the story away. "site" for
 * what admins write: images the site itself serves.
 */
export type ImagePolicy = "none" | "site";

const EXTERNAL_LINK = { target: "_blank", rel: "noopener noreferrer nofollow" } as const;

const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"] as const;
type HeadingTag = (typeof HEADINGS)[number];

/** Renders each heading `offset` levels deeper (h2 → h4 for offset 2), so content fits the page's outline. */
function shiftedHeadings(offset: number): Components {
  const components: Components = {};
  HEADINGS.forEach((tag, level) => {
    const Shifted: HeadingTag = HEADINGS[Math.min(level + offset, HEADINGS.length - 1)] ?? "h6";
    components[tag] = ({ node: _node, ...props }) => <Shifted {...props} />;
  });
  return components;
}

/**
 * Rich content written by admins, authors or the Game Master: Markdown or HTML, always rendered
 * sanitised. The one renderer of the site (public pages, admin previews, the chat).
 */
export function Markdown({
  children,
  className,
  headingOffset = 0,
  images = "none",
}: {
  children: string;
  className?: string;
  /** How many levels deeper the content's headings sit in the page (0: as written). */
  headingOffset?: number;
  images?: ImagePolicy;
}) {
  return (
    <div className={cn("prose-story", className)}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeRaw, [rehypeSanitize, schema]]}
        components={{
          ...(headingOffset > 0 ? shiftedHeadings(headingOffset) : {}),
          a: ({ node: _node, href, ...props }) => {
            const link = typeof href === "string" ? contentLink(href) : undefined;
            return <a href={link?.href} {...props} {...(link?.external ? EXTERNAL_LINK : {})} />;
          },
          img: ({ node: _node, src, ...props }) => {
            const path = images === "site" && typeof src === "string" ? siteImagePath(src) : undefined;
            return path ? <img src={path} {...props} /> : (props.alt ?? null);
          },
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
