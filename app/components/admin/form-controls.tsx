import { CircleCheck, Eye, EyeOff, Info } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#app/components/ui/select.tsx";
import { Switch } from "#app/components/ui/switch.tsx";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { descriptionHint, type WritingHint } from "#app/lib/writing-hints.ts";
import { cn } from "#app/lib/utils.ts";

/** The props that tie a control to its label, hint and error message. */
export function controlProps(id: string, error?: string) {
  return {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": `${id}-note`,
  } as const;
}

export function Field({
  id,
  label,
  required,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("flex min-w-0 flex-col gap-1.5", className)}>
      <Label htmlFor={id}>
        {label}
        {required ? (
          <span className="text-gold" aria-hidden>
            {" "}
            *
          </span>
        ) : null}
      </Label>
      {children}
      <div id={`${id}-note`} className="min-h-0 text-xs">
        {error ? <p className="font-medium text-danger">{error}</p> : hint}
      </div>
    </div>
  );
}

/** What every text-like field takes. */
export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  placeholder?: string;
}

/** A whole number typed as text: the form rules read it, so "" and "abc" reach them as typed. */
export function NumberField({ id, label, value, onChange, error, hint, placeholder }: TextFieldProps & { hint?: string }) {
  return (
    <Field id={id} label={label} error={error} hint={hint ? <p className="text-parchment-dim">{hint}</p> : undefined}>
      <Input
        {...controlProps(id, error)}
        inputMode="numeric"
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/** The required description, with docs/spec.md §5's live hint about its length for search results. */
export function DescriptionField({
  id,
  value,
  onChange,
  error,
  className,
}: Omit<TextFieldProps, "label" | "placeholder"> & { className?: string }) {
  return (
    <Field id={id} label="Description" required error={error} hint={<HintText hint={descriptionHint(value)} />} className={className}>
      <Textarea {...controlProps(id, error)} rows={3} value={value} onChange={(event) => onChange(event.target.value)} />
    </Field>
  );
}

/** Cancel and submit, both held while the form saves. */
export function FormActions({ pending, submitLabel, onCancel }: { pending: boolean; submitLabel: string; onCancel: () => void }) {
  return (
    <>
      <Button type="button" variant="secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending}>
        {pending ? ADMIN_TEXTS.saving : submitLabel}
      </Button>
    </>
  );
}

/** A live, non-blocking hint: gold with a tick once met, quiet otherwise. */
export function HintText({ hint }: { hint: WritingHint }) {
  const Icon = hint.met ? CircleCheck : Info;
  return (
    <p className={cn("flex items-center gap-1.5", hint.met ? "text-gold" : "text-parchment-dim")} aria-live="polite">
      <Icon className="size-3.5 shrink-0" aria-hidden />
      {hint.text}
    </p>
  );
}

export function SelectField<Value extends string>({
  id,
  label,
  value,
  options,
  onChange,
  error,
  placeholder,
  required,
  disabled,
  className,
}: {
  id: string;
  label: string;
  value: Value | "";
  options: readonly { value: Value; label: ReactNode }[];
  onChange: (value: Value) => void;
  error?: string;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <Field id={id} label={label} error={error} required={required} className={className}>
      <Select value={value} onValueChange={(next) => onChange(next as Value)} disabled={disabled}>
        <SelectTrigger {...controlProps(id, error)}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </Field>
  );
}

export function SwitchField({
  id,
  label,
  description,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  description?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-start gap-3 rounded-lg border border-ink-line bg-ink/60 px-3.5 py-3">
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={description ? `${id}-description` : undefined} />
      <div className="min-w-0">
        <Label htmlFor={id} className="leading-6">
          {label}
        </Label>
        {description ? (
          <p id={`${id}-description`} className="text-xs text-parchment-dim">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The state of the panel's lists when the server could not read them. */
export function LoadFailed({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-[var(--radius-card)] border border-danger/40 bg-danger/10 px-6 py-10 text-center text-parchment">
      {message}
    </div>
  );
}

export function EmptyState({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-[var(--radius-card)] border border-dashed border-ink-line px-6 py-14 text-center">
      <div className="flex size-12 items-center justify-center rounded-full border border-gold/40 text-gold [&_svg]:size-5">{icon}</div>
      <p className="font-display text-2xl font-bold text-parchment">{title}</p>
      {children}
    </div>
  );
}

export function PublishedIndicator({ published }: { published: boolean }) {
  return published ? (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-beginner">
      <Eye className="size-3.5" aria-hidden />
      Published
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-parchment-dim">
      <EyeOff className="size-3.5" aria-hidden />
      Unpublished
    </span>
  );
}
