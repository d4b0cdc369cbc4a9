import ReactMarkdown, { type Components } from "react-markdown";
import rehypeRaw from "rehype-raw";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { cn } from "#app/lib/utils.ts";

/**
 * GitHub's sanitising rules (no scripts, no event handlers, no javascript: URLs, no iframes),
 * plus the `class` names our Markdown never needs but pasted HTML often carries — dropped.
 */
const schema = {
  ...defaultSchema,
  attributes: { ...defaultSchema.attributes, "*": (defaultSchema.attributes?.["*"] ?? []).filter((name) => name !== "className") },
};

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
}: {
  children: string;
  className?: string;
  /** How many levels deeper the content's headings sit in the page (0: as written). */
  headingOffset?: number;
}) {
  return (
    <div className={cn("prose-story", className)}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeRaw, [rehypeSanitize, schema]]}
        components={{
          ...(headingOffset > 0 ? shiftedHeadings(headingOffset) : {}),
          a: ({ node: _node, href, ...props }) => {
            const external = typeof href === "string" && /^https?:\/\//.test(href);
            return <a href={href} {...props} {...(external ? { target: "_blank", rel: "noopener noreferrer nofollow" } : {})} />;
          },
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
