import { ShieldAlert } from "lucide-react";
import { useFetcher } from "react-router";
import { RuleLink } from "#app/components/moderation/moderation-forms.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { MODERATION_LIMITS, MODERATION_NOTICES, type WorldModerationNotice } from "#app/lib/moderation.ts";

/** What a moderator decided about the creator's world, the rule it cites, why, and their one appeal. */
export function WorldModerationNotice({ notice }: { notice: WorldModerationNotice }) {
  const fetcher = useFetcher<{ appealed: true } | { error: string }>();
  const error = fetcher.data && "error" in fetcher.data ? fetcher.data.error : undefined;
  return (
    <Card className="mb-8 border-gold/50 p-6" role="region" aria-labelledby="moderation-notice">
      <h2 id="moderation-notice" className="flex items-center gap-2 text-xl text-parchment">
        <ShieldAlert aria-hidden className="size-5 text-gold" />
        Moderation
      </h2>
      <p className="mt-2 text-parchment">{MODERATION_NOTICES[notice.kind]}</p>
      <p className="mt-2 text-sm text-parchment-dim">
        <RuleLink version={notice.rulesVersion} number={notice.ruleNumber} />: {notice.rule}
      </p>
      <p className="mt-2 text-parchment">
        <span className="text-parchment-dim">Reason: </span>
        <span className="whitespace-pre-line">{notice.reason}</span>
      </p>
      {notice.appeal ? (
        <p className="mt-3 text-sm text-parchment-dim">
          {notice.appeal.decided
            ? "Your appeal was decided."
            : "You appealed this decision. A moderator other than the one who took it will decide, and you will read the outcome here."}
        </p>
      ) : notice.appealable ? (
        <fetcher.Form method="post" action="/appeals" className="mt-4 space-y-3">
          <input type="hidden" name="actionId" value={notice.actionId} />
          <Label htmlFor="appeal-text">Your appeal</Label>
          <Textarea
            id="appeal-text"
            name="text"
            rows={3}
            required
            maxLength={MODERATION_LIMITS.appeal}
            aria-invalid={error ? true : undefined}
            aria-describedby="appeal-hint"
          />
          <p id="appeal-hint" className="text-sm text-parchment-dim">
            You can appeal each decision once. Another moderator reads it.
          </p>
          {error ? (
            <p role="alert" className="text-sm text-danger">
              {error}
            </p>
          ) : null}
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            Send appeal
          </Button>
        </fetcher.Form>
      ) : null}
    </Card>
  );
}
