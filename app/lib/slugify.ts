/**
 * The one slug rule: accents folded ("Café" → "cafe"), lowercase, each run of characters other
 * than a-z and 0-9 becomes one '-', and no '-' at either end — "Pirate Queen!!" is "pirate-queen",
 * never "pirate-queen--".
 */
export function slugify(text: string): string {
  return forceSlug(text).replace(/-+$/, "");
}

/**
 * The same rule applied as the admin types: a trailing '-' stays, since the next keystroke may
 * continue the slug ("pirate-" then "q"). It never changes a slug that already follows the rule.
 */
export function forceSlug(input: string): string {
  return input
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "");
}

/** A slug that can name a page: a-z and 0-9 in runs joined by single '-'. */
export function isUsableSlug(slug: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug);
}

/**
 * `base`, or `base-2`, `base-3`… — the first that `taken` does not hold, cut so that it stays
 * within `maxLength` with its suffix.
 */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>, maxLength: number): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : `-${n}`;
    const candidate = `${base.slice(0, maxLength - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
