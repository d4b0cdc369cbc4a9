import type { FieldErrors } from "#app/lib/admin-forms.ts";

/** Moves focus to the first field (in page order) that has an error, so keyboard users land on it. */
export function focusFirstError(prefix: string, errors: FieldErrors) {
  const ids = Object.keys(errors).map((key) => `${prefix}-${key.replaceAll(".", "-")}`);
  const fields = ids.flatMap((id) => {
    const element = document.getElementById(id);
    return element ? [element] : [];
  });
  fields.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  fields[0]?.focus();
}
