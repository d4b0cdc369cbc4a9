import { useState, type SubmitEvent } from "react";
import { toast } from "#app/components/toast.ts";
import type { ZodType } from "zod";
import { fieldErrorsOf, type FieldErrors } from "#app/lib/admin-forms.ts";
import { focusFirstError } from "./focus-first-error.ts";
import { useUnsavedChanges } from "./unsaved-changes.tsx";
import { useAdminRequest } from "./use-admin-request.ts";

interface AdminFormOptions<Values> {
  /** Field ids are `{prefix}-{field}`, so an error can move focus to its field. */
  prefix: string;
  initial: () => Values;
  /** The same rules the admin API applies; checked first so most mistakes never leave the page. */
  schema: ZodType;
  /** A PUT to the item's URL when editing, a POST to the collection when creating. */
  endpoint: { method: "POST" | "PUT"; url: string };
  savedMessage: string;
  /** The toast's title when saving fails; the server's message, else `fallback`, is its description. */
  failure: { title: string; fallback?: string };
  onSaved: () => void;
}

/**
 * The admin forms' shared life cycle (docs/spec.md §4, §5): values and per-field errors, a check in the
 * browser, the request, then either the success toast and `onSaved`, or the server's field
 * errors with focus on the first of them.
 */
export function useAdminForm<Values extends object>(options: AdminFormOptions<Values>) {
  const [initial] = useState(options.initial);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const { send, pending } = useAdminRequest();
  // Edits not yet saved: leaving the form (Cancel, Back, Escape, another tab or page, closing the
  // browser tab) asks first. Once saved, the form closes without asking.
  const confirmLeave = useUnsavedChanges(!saved && JSON.stringify(values) !== JSON.stringify(initial));

  function showErrors(found: FieldErrors) {
    setErrors(found);
    focusFirstError(options.prefix, found);
  }

  function set<Key extends keyof Values & string>(key: Key, value: Values[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
    // A list's errors are kept under its items ("trackedStats.0.name"): a change to the list clears them too.
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([field]) => field !== key && !field.startsWith(`${key}.`))));
  }

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = options.schema.safeParse(values);
    if (!checked.success) {
      showErrors(fieldErrorsOf(checked.error));
      return;
    }
    const result = await send(options.endpoint.method, options.endpoint.url, values);
    if (result.ok) {
      setSaved(true);
      toast.success(options.savedMessage);
      options.onSaved();
      return;
    }
    showErrors(result.fieldErrors);
    toast.error(options.failure.title, { description: result.error ?? options.failure.fallback });
  }

  const id = (field: keyof Values & string) => `${options.prefix}-${field}`;

  /** Runs `close` (Cancel, Back, the dialog's close) once the admin agreed to lose unsaved edits, if there are any. */
  const leave = (close: () => void) => confirmLeave(close);

  return { values, errors, set, submit, pending, id, leave };
}
