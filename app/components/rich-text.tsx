/**
 * HTML produced on the server by `renderMarkdown` (sanitised there), shown as is. The wrapper
 * carries the `prose-story` styles already.
 */
export function RichText({ html, className }: { html: string; className?: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
