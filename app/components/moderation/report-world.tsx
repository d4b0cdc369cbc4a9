import { Flag } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { fieldClassName, Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { MODERATION_LIMITS, REPORT_REASONS } from "#app/lib/moderation.ts";

/** Report on a published world's page: a reason from the list and what the player saw. */
export function ReportWorld({ worldId, signedIn }: { worldId: string; signedIn: boolean }) {
  const fetcher = useFetcher<{ reported: true } | { error: string }>();
  const result = fetcher.data;
  return (
    <details className="mt-4 rounded-lg border border-ink-line p-3 text-sm open:bg-ink-raised">
      <summary className="inline-flex cursor-pointer items-center gap-2 text-parchment-dim hover:text-parchment">
        <Flag aria-hidden className="size-4" />
        Report this world
      </summary>
      {!signedIn ? (
        <p className="mt-3 text-parchment-dim">
          <Link to="/auth" className="text-gold underline underline-offset-4">
            Sign in
          </Link>{" "}
          to report this world. Our{" "}
          <Link to="/rules" className="text-gold underline underline-offset-4">
            content rules
          </Link>{" "}
          say what every world keeps to.
        </p>
      ) : result && "reported" in result ? (
        <p role="status" className="mt-3 text-parchment">
          Thank you: a moderator will read your report.
        </p>
      ) : (
        <fetcher.Form method="post" action={`/worlds/${worldId}/report`} className="mt-3 space-y-3">
          <div className="space-y-2">
            <Label htmlFor="report-reason">Reason</Label>
            <select id="report-reason" name="reason" required defaultValue="" className={`${fieldClassName} h-11`}>
              <option value="" disabled>
                Choose a reason
              </option>
              {REPORT_REASONS.map((reason) => (
                <option key={reason} value={reason}>
                  {reason}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-2">
            <Label htmlFor="report-details">What did you see?</Label>
            <Textarea id="report-details" name="details" rows={3} maxLength={MODERATION_LIMITS.details} />
          </div>
          {result && "error" in result ? (
            <p role="alert" className="text-danger">
              {result.error}
            </p>
          ) : null}
          <p className="text-parchment-dim">
            Moderators judge reports by the{" "}
            <Link to="/rules" className="text-gold underline underline-offset-4">
              content rules
            </Link>
            .
          </p>
          <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== "idle"}>
            Send report
          </Button>
        </fetcher.Form>
      )}
    </details>
  );
}
