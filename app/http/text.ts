/**
 * Where in a value (a string, or strings inside arrays and objects, keys included) a string holds a
 * NUL byte or an unpaired surrogate: "" for the value itself, "a.b" for a nested field, undefined
 * when there is none. PostgreSQL refuses NUL in text, and a lone surrogate cannot be encoded as
 * UTF-8, so either would fail later, after something was spent.
 */
export function findUnsafeText(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return value.includes("\0") || !value.isWellFormed() ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnsafeText(item, join(path, String(index)));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = findUnsafeText(key, path) ?? findUnsafeText(item, join(path, key));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function join(path: string, key: string) {
  return path ? `${path}.${key}` : key;
}
