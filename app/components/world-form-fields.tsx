import { FileUp } from "lucide-react";
import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { fieldClassName, Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";

/** /create's labelled fields, their hints and errors, and the character card import. */

export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-parchment-dim">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function describedBy(id: string, error?: string, hint?: string) {
  return [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

export function Choice({
  name,
  label,
  options,
  value,
  error,
}: {
  name: string;
  label: string;
  options: readonly string[];
  value: string;
  error?: string;
}) {
  return (
    <Field id={name} label={label} error={error}>
      <select
        id={name}
        name={name}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, error)}
        className={`${fieldClassName} h-11`}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function ImportCard() {
  const fetcher = useFetcher<{ error: string }>();
  return (
    <Card className="p-6">
      <h2 className="text-xl text-parchment">Import a character card</h2>
      <p className="mt-2 text-sm text-parchment-dim">
        A SillyTavern character card, V2 or V3, as a PNG picture or a JSON file, becomes a new draft. Everything the card holds is kept and goes
        back into its export.
      </p>
      <fetcher.Form method="post" action="/create/import" encType="multipart/form-data" className="mt-4 space-y-3">
        <Field id="card" label="Character card file" error={fetcher.data?.error}>
          <Input
            id="card"
            name="card"
            type="file"
            accept="image/png,application/json,.json,.png"
            required
            aria-describedby={describedBy("card", fetcher.data?.error)}
            className="h-auto py-2"
          />
        </Field>
        <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
          <FileUp aria-hidden className="size-4" />
          {fetcher.state === "idle" ? "Import a character card" : "Importing…"}
        </Button>
      </fetcher.Form>
    </Card>
  );
}
