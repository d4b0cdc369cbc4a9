import { formatDate } from "./blog-card.tsx";
import { PageHeader } from "./page-header.tsx";
import { RichText } from "./rich-text.tsx";

export function LegalPage({ title, updated, html }: { title: string; updated: string; html: string }) {
  return (
    <>
      <PageHeader
        eyebrow="Legal"
        title={title}
        description={
          <>
            Last updated <time dateTime={updated}>{formatDate(updated)}</time>
          </>
        }
      />
      <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
        <RichText html={html} />
      </div>
    </>
  );
}
