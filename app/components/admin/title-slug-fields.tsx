import { useState } from "react";
import { Input } from "#app/components/ui/input.tsx";
import { forceSlug, slugify } from "#app/lib/slugify.ts";
import { controlProps, Field } from "./form-controls.tsx";

/**
 * Title and slug side by side. For a new item the slug follows the title (docs/spec.md §5) until the
 * admin types one of their own; whatever is typed is forced into slug form as it is typed.
 */
export function TitleAndSlugFields({
  prefix,
  title,
  slug,
  errors,
  isNew,
  pagePath,
  slugRule,
  autoFocus,
  onTitleChange,
  onSlugChange,
}: {
  /** The form's field id prefix: the inputs are `{prefix}-title` and `{prefix}-slug`. */
  prefix: string;
  title: string;
  slug: string;
  errors: { title?: string; slug?: string };
  isNew: boolean;
  /** Where the item's page lives, shown with the slug: "/game/". */
  pagePath: string;
  slugRule?: string;
  autoFocus?: boolean;
  onTitleChange: (title: string) => void;
  onSlugChange: (slug: string) => void;
}) {
  const [slugFollowsTitle, setSlugFollowsTitle] = useState(isNew);
  const titleId = `${prefix}-title`;
  const slugId = `${prefix}-slug`;
  return (
    <>
      <Field id={titleId} label="Title" required error={errors.title}>
        <Input
          {...controlProps(titleId, errors.title)}
          autoFocus={autoFocus}
          value={title}
          onChange={(event) => {
            onTitleChange(event.target.value);
            if (slugFollowsTitle) onSlugChange(slugify(event.target.value));
          }}
        />
      </Field>
      <Field
        id={slugId}
        label="Slug"
        required
        error={errors.slug}
        hint={
          <p className="text-parchment-dim">
            {slugRule ? `${slugRule} ` : null}The page is {pagePath}
            {slug || "…"}
          </p>
        }
      >
        <Input
          {...controlProps(slugId, errors.slug)}
          value={slug}
          spellCheck={false}
          autoCapitalize="none"
          onChange={(event) => {
            setSlugFollowsTitle(false);
            onSlugChange(forceSlug(event.target.value));
          }}
        />
      </Field>
    </>
  );
}
