/**
 * docs/spec.md §5's slug rule, applied as the admin types: lowercase, and any character outside a-z, 0-9
 * and '-' becomes '-'. It never changes a slug that already follows the rule.
 */
export function forceSlug(input: string): string {
  return input.toLowerCase().replace(/[^a-z0-9-]/g, "-");
}

/**
 * The slug docs/spec.md §5 derives from a guide's title: lowercase, each run of characters other than
 * letters and digits becomes one '-', no '-' at either end. Accents are folded first so that
 * "Café Intrigue" becomes "cafe-intrigue" rather than "caf-intrigue".
 */
export function slugFromTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A slug that can name a page: only a-z, 0-9 and '-', with at least one letter or digit. */
export function isUsableSlug(slug: string): boolean {
  return /^[a-z0-9-]+$/.test(slug) && /[a-z0-9]/.test(slug);
}
