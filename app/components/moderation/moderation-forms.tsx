import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { fieldClassName, Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { MODERATION_LABELS, MODERATION_LIMITS, type ModerationKind } from "#app/lib/moderation.ts";

/** The rules in force, as the moderation forms cite them. */
export interface CitableRules {
  version: number;
  rules: string[];
}

/** "Rule 3 of version 1", linked to the rule on /rules (an earlier version keeps its own address). */
export function RuleLink({ version, number, current }: { version: number; number: number; current?: boolean }) {
  return (
    <Link to={`/rules${current ? "" : `?version=${version}`}#rule-${number}`} className="text-gold underline underline-offset-4">
      {`Rule ${number} of version ${version}`}
    </Link>
  );
}

/**
 * The rule a decision cites and the reason the creator will read: each moderation form has both.
 * `idPrefix` keeps the fields of the forms on one page apart.
 */
function RuleAndReason({ rules, idPrefix }: { rules: CitableRules; idPrefix: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-[minmax(0,16rem)_1fr]">
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-rule`}>Rule broken</Label>
        <select id={`${idPrefix}-rule`} name="rule" required className={`${fieldClassName} h-11`} defaultValue="">
          <option value="" disabled>
            {`Choose a rule of version ${rules.version}`}
          </option>
          {rules.rules.map((rule, index) => (
            <option key={index} value={index + 1}>
              {`${index + 1}. ${rule.length > 60 ? `${rule.slice(0, 60)}…` : rule}`}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${idPrefix}-reason`}>Reason the creator will read</Label>
        <Textarea id={`${idPrefix}-reason`} name="reason" rows={2} required maxLength={MODERATION_LIMITS.reason} />
      </div>
    </div>
  );
}

function Buttons({ name, values, busy }: { name: string; values: readonly ModerationKind[]; busy: boolean }) {
  return (
    <div className="flex flex-wrap gap-2">
      {values.map((value) => (
        <Button
          key={value}
          type="submit"
          name={name}
          value={value}
          size="sm"
          variant={value === "restore" || value === "overturn" ? "outline" : "default"}
          disabled={busy}
        >
          {MODERATION_LABELS[value]}
        </Button>
      ))}
    </div>
  );
}

function useBusy(key: string, value: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get(key) === value;
}

/** Hide, Restore, Ask for changes or Suspend creator, for one world. */
export function WorldActionForm({ worldId, worldTitle, rules }: { worldId: string; worldTitle: string; rules: CitableRules }) {
  const busy = useBusy("worldId", worldId);
  return (
    <Form method="post" className="mt-4 space-y-3" aria-label={`Act on ${worldTitle}`}>
      <input type="hidden" name="intent" value="act" />
      <input type="hidden" name="worldId" value={worldId} />
      <RuleAndReason rules={rules} idPrefix={`world-${worldId}`} />
      <Buttons name="action" values={["hide", "restore", "ask_changes", "suspend_creator"]} busy={busy} />
    </Form>
  );
}

/** Uphold or Overturn an appeal. */
export function AppealDecisionForm({ appealId, rules, label }: { appealId: string; rules: CitableRules; label: string }) {
  const busy = useBusy("appealId", appealId);
  return (
    <Form method="post" className="mt-4 space-y-3" aria-label={label}>
      <input type="hidden" name="intent" value="decide" />
      <input type="hidden" name="appealId" value={appealId} />
      <RuleAndReason rules={rules} idPrefix={`appeal-${appealId}`} />
      <Buttons name="decision" values={["uphold", "overturn"]} busy={busy} />
    </Form>
  );
}

export function QueueSection({ id, title, empty, children }: { id: string; title: string; empty?: string; children?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-4">
      <h2 id={id} className="text-2xl text-parchment">
        {title}
      </h2>
      {empty ? <p className="text-parchment-dim">{empty}</p> : children}
    </section>
  );
}
