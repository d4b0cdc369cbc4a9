import { X } from "lucide-react";
import { Form, Link, redirect } from "react-router";
import { AppealDecisionForm, QueueSection, RuleLink, WorldActionForm } from "#app/components/moderation/moderation-forms.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { getSessionUser, type SessionUser } from "#app/domain/auth.server.ts";
import { DomainError, ForbiddenError } from "#app/domain/errors.server.ts";
import { addBlockedTerm, currentRules, listBlockedTerms, removeBlockedTerm } from "#app/domain/content-rules.server.ts";
import { actOnWorld, decideAppeal, moderationQueue, type Advisory } from "#app/domain/moderation.server.ts";
import { formRefusal } from "#app/http/errors.server.ts";
import { parseFormFields } from "#app/http/form-input.server.ts";
import { personalPageHeaders } from "#app/http/guards.server.ts";
import { appealDecisionSchema, blockedTermSchema, isModerator, MODERATION_LABELS, moderationActionSchema } from "#app/lib/moderation.ts";
import type { Route } from "./+types/moderation";

/**
 * /moderation (issue 36, docs/decisions/064): moderators and admins only — a visitor gets 404,
 * a player 403. Open reports by world, hidden worlds, appeals waiting, the audit log, and for
 * admins the blocked terms Publish refuses.
 */

/** Personal: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;

async function requireModerator(request: Request): Promise<SessionUser> {
  const viewer = await getSessionUser(request);
  if (!viewer) throw new Response("Not Found", { status: 404 });
  if (!isModerator(viewer)) throw new Response("Only moderators can open the moderation queue.", { status: 403 });
  return viewer;
}

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireModerator(request);
  const [queue, rules, blockedTerms] = await Promise.all([
    moderationQueue(viewer.id),
    currentRules(),
    viewer.isAdmin ? listBlockedTerms() : Promise.resolve(null),
  ]);
  return { queue, rules, blockedTerms, done: new URL(request.url).searchParams.get("done") };
}

/** What each form did, said back on the page after its redirect. */
const DONE = {
  act: "Done: the action is recorded, the world's reports are closed, and its creator can read your reason.",
  decide: "The appeal is decided; its creator can read your reason.",
  "add-term": "The term is blocked: Publish refuses worlds that hold it.",
  "remove-term": "The term is no longer blocked.",
} as const;

/** POST intent=act | decide (moderators), add-term | remove-term (admins). */
export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireModerator(request);
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    if (intent === "act") await actOnWorld(viewer.id, parseFormFields(form, moderationActionSchema));
    else if (intent === "decide") await decideAppeal(viewer.id, parseFormFields(form, appealDecisionSchema));
    else if (intent === "add-term" || intent === "remove-term") {
      if (!viewer.isAdmin) throw new ForbiddenError("Only admins edit the blocked terms.");
      const { term } = parseFormFields(form, blockedTermSchema);
      await (intent === "add-term" ? addBlockedTerm(term) : removeBlockedTerm(term));
    } else return formRefusal(new DomainError("invalid_input", "Choose what to do."));
    return redirect(`/moderation?done=${intent}`);
  } catch (error) {
    if (error instanceof DomainError) return formRefusal(error);
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Moderation | ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex, nofollow" },
];

function advisoryHeadline(advisory: Advisory) {
  const verdict = advisory.verdict === "fits" ? "fits the rules" : "worth a look";
  const rule = advisory.ruleNumber ? `, rule ${advisory.ruleNumber}` : "";
  return `Advisory rating (${advisory.model}, version ${advisory.worldVersion}, rules version ${advisory.rulesVersion}): ${verdict}${rule}.`;
}

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

export default function Moderation({ loaderData, actionData }: Route.ComponentProps) {
  const { queue, rules, blockedTerms, done } = loaderData;
  const doneNote = done && done in DONE ? DONE[done as keyof typeof DONE] : null;
  return (
    <>
      <PageHeader
        eyebrow="Moderation"
        title="Moderation queue"
        description={`Every decision cites a rule of the content rules in force (version ${rules.version}) and a reason its creator reads.`}
      >
        <Button asChild variant="outline" className="mt-6">
          <Link to="/rules">Read the content rules</Link>
        </Button>
      </PageHeader>
      <div className="mx-auto max-w-5xl space-y-12 px-4 py-12 sm:px-6">
        {actionData && "error" in actionData ? (
          <p role="alert" className="rounded-lg border border-danger/50 bg-danger/10 px-4 py-3 text-parchment">
            {actionData.error}
          </p>
        ) : doneNote ? (
          <p role="status" className="rounded-lg border border-gold/40 bg-gold/10 px-4 py-3 text-parchment">
            {doneNote}
          </p>
        ) : null}

        <QueueSection id="reported" title="Reported worlds" empty={queue.worlds.length === 0 ? "No open reports." : undefined}>
          <ul className="space-y-6">
            {queue.worlds.map((world) => (
              <li key={world.id}>
                <Card className="p-5">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 className="text-xl text-parchment">
                      <Link to={`/game/${world.slug}`} className="hover:text-gold">
                        {world.title}
                      </Link>
                    </h3>
                    <span className="flex flex-wrap gap-2">
                      <Badge variant="outline">{world.contentRating}</Badge>
                      <Badge variant="outline">{world.hidden ? "Hidden" : world.status}</Badge>
                      <Badge>{world.reports.length === 1 ? "1 report" : `${world.reports.length} reports`}</Badge>
                    </span>
                  </div>
                  <p className="text-sm text-parchment-dim">By {world.creatorName}</p>
                  <ul className="mt-3 space-y-2" aria-label={`Reports of ${world.title}`}>
                    {world.reports.map((report) => (
                      <li key={report.id} className="rounded-lg border border-ink-line p-3 text-sm">
                        <span className="font-medium text-parchment">{report.reason}</span>
                        <span className="text-parchment-dim"> · {when(report.createdAt)}</span>
                        {report.details ? <p className="mt-1 whitespace-pre-line text-parchment-dim">{report.details}</p> : null}
                      </li>
                    ))}
                  </ul>
                  {world.advisory ? (
                    <p className="mt-3 rounded-lg border border-ink-line bg-ink p-3 text-sm text-parchment-dim">
                      <span className="font-medium text-parchment">{advisoryHeadline(world.advisory)}</span> {world.advisory.summary} It only
                      advises: nothing happens until a moderator acts.
                    </p>
                  ) : null}
                  <WorldActionForm worldId={world.id} worldTitle={world.title} rules={rules} />
                </Card>
              </li>
            ))}
          </ul>
        </QueueSection>

        <QueueSection id="appeals" title="Appeals" empty={queue.appeals.length === 0 ? "No appeals are waiting." : undefined}>
          <ul className="space-y-6">
            {queue.appeals.map((appeal) => (
              <li key={appeal.id}>
                <Card className="p-5">
                  <h3 className="text-xl text-parchment">
                    <Link to={`/game/${appeal.worldSlug}`} className="hover:text-gold">
                      {appeal.worldTitle}
                    </Link>
                  </h3>
                  <p className="mt-1 text-sm text-parchment-dim">
                    {MODERATION_LABELS[appeal.kind]} citing <RuleLink version={appeal.rulesVersion} number={appeal.ruleNumber} />: {appeal.reason}
                  </p>
                  <blockquote className="mt-3 border-l-2 border-gold/60 pl-3 whitespace-pre-line text-parchment">{appeal.text}</blockquote>
                  {appeal.actedByMe ? (
                    <p className="mt-3 text-sm text-parchment-dim">You took this decision, so another moderator decides its appeal.</p>
                  ) : (
                    <AppealDecisionForm appealId={appeal.id} rules={rules} label={`Decide the appeal of ${appeal.worldTitle}`} />
                  )}
                </Card>
              </li>
            ))}
          </ul>
        </QueueSection>

        <QueueSection id="hidden" title="Hidden worlds" empty={queue.hidden.length === 0 ? "No world is hidden." : undefined}>
          <ul className="space-y-6">
            {queue.hidden.map((world) => (
              <li key={world.id}>
                <Card className="p-5">
                  <h3 className="text-xl text-parchment">{world.title}</h3>
                  <p className="text-sm text-parchment-dim">
                    By {world.creatorName} · hidden {when(world.hiddenAt)}
                  </p>
                  <WorldActionForm worldId={world.id} worldTitle={world.title} rules={rules} />
                </Card>
              </li>
            ))}
          </ul>
        </QueueSection>

        <QueueSection id="audit-log" title="Audit log" empty={queue.auditLog.length === 0 ? "No moderation action yet." : undefined}>
          <div className="overflow-x-auto rounded-xl border border-ink-line">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">Every moderation action, newest first</caption>
              <thead className="bg-ink-raised text-parchment-dim">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    When
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Moderator
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Action
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    World
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Rule
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Reason
                  </th>
                </tr>
              </thead>
              <tbody>
                {queue.auditLog.map((entry) => (
                  <tr key={entry.id} className="border-t border-ink-line align-top text-parchment">
                    <td className="px-3 py-2 whitespace-nowrap">{when(entry.createdAt)}</td>
                    <td className="px-3 py-2">{entry.moderatorName ?? "A removed account"}</td>
                    <td className="px-3 py-2">{MODERATION_LABELS[entry.kind]}</td>
                    <td className="px-3 py-2">{entry.worldTitle}</td>
                    <td className="px-3 py-2 whitespace-nowrap">
                      <RuleLink version={entry.rulesVersion} number={entry.ruleNumber} current={entry.rulesVersion === rules.version} />
                    </td>
                    <td className="px-3 py-2 whitespace-pre-line">{entry.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </QueueSection>

        {blockedTerms ? (
          <QueueSection id="blocked-terms" title="Blocked terms">
            <p className="text-parchment-dim">Publish refuses a world that holds one of these as a whole word, in any case. Admins only.</p>
            <Form method="post" className="flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="add-term" />
              <div className="space-y-2">
                <Label htmlFor="blocked-term">Term to block</Label>
                <Input id="blocked-term" name="term" required maxLength={100} />
              </div>
              <Button type="submit">Block term</Button>
            </Form>
            {blockedTerms.length === 0 ? (
              <p className="text-parchment-dim">No term is blocked.</p>
            ) : (
              <ul className="flex flex-wrap gap-2" aria-label="Blocked terms">
                {blockedTerms.map((term) => (
                  <li key={term}>
                    <Form
                      method="post"
                      className="inline-flex items-center gap-1 rounded-full border border-ink-line py-1 pr-1 pl-3 text-parchment"
                    >
                      <input type="hidden" name="intent" value="remove-term" />
                      <input type="hidden" name="term" value={term} />
                      {term}
                      <Button type="submit" size="icon" variant="ghost" aria-label={`Unblock ${term}`} className="size-7">
                        <X aria-hidden className="size-4" />
                      </Button>
                    </Form>
                  </li>
                ))}
              </ul>
            )}
          </QueueSection>
        ) : null}
      </div>
    </>
  );
}
