import { Form, Link, redirect, useNavigation } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Textarea } from "#app/components/ui/input.tsx";
import { getSessionUser } from "#app/domain/auth.server.ts";
import { DomainError } from "#app/domain/errors.server.ts";
import { currentRules, findRulesVersion, listRulesVersions, publishRules } from "#app/domain/content-rules.server.ts";
import { formRefusal } from "#app/http/errors.server.ts";
import { parseFormFields } from "#app/http/form-input.server.ts";
import { requireAdmin } from "#app/http/guards.server.ts";
import { rulesSchema } from "#app/lib/moderation.ts";
import type { Route } from "./+types/rules";

/**
 * /rules: the content rules in force, numbered, which every moderation decision cites; earlier
 * versions stay readable at /rules?version=N. An admin publishes a new version here.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const asked = new URL(request.url).searchParams.get("version");
  const current = await currentRules();
  const version = asked === null ? current : /^[1-9]\d{0,8}$/.test(asked) ? await findRulesVersion(Number(asked)) : undefined;
  if (!version) throw new Response("There is no such version of the rules.", { status: 404 });
  const viewer = await getSessionUser(request);
  return { shown: version, currentVersion: current.version, versions: await listRulesVersions(), canPublish: Boolean(viewer?.isAdmin) };
}

/** POST `rules` (one a line): an admin publishes them as the next version. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  try {
    const { rules } = parseFormFields(await request.formData(), rulesSchema);
    await publishRules(admin.id, rules);
    return redirect("/rules");
  } catch (error) {
    if (error instanceof DomainError) return formRefusal(error);
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  { title: `Content rules, version ${loaderData.shown.version} | ${matches[0].loaderData.site.name}` },
  ...(loaderData.shown.version === loaderData.currentVersion ? [] : [{ name: "robots", content: "noindex" }]),
];

const dateOf = (iso: string) => new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

export default function Rules({ loaderData, actionData }: Route.ComponentProps) {
  const { shown, currentVersion, versions, canPublish } = loaderData;
  const navigation = useNavigation();
  const isCurrent = shown.version === currentVersion;
  return (
    <>
      <PageHeader
        eyebrow="Community"
        title="Content rules"
        description="What every world on this site keeps to. Moderators cite these rules by number when they act on a world, and the creator can appeal."
      />
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_240px]">
        <article aria-labelledby="rules-version">
          <h2 id="rules-version" className="text-2xl text-parchment">
            {`Version ${shown.version}`}
          </h2>
          <p className="mt-1 text-sm text-parchment-dim">
            Published {dateOf(shown.publishedAt)}.{" "}
            {isCurrent ? (
              "These are the rules in force."
            ) : (
              <>
                An earlier version.{" "}
                <Link to="/rules" className="text-gold underline underline-offset-4">
                  {`Read the rules in force (version ${currentVersion})`}
                </Link>
                .
              </>
            )}
          </p>
          <ol className="mt-6 space-y-4">
            {shown.rules.map((rule, index) => (
              <li key={index} id={`rule-${index + 1}`} className="flex gap-4 rounded-xl border border-ink-line bg-ink-raised p-4 text-parchment">
                <span className="w-6 shrink-0 text-center font-display text-2xl text-gold" aria-hidden>
                  {index + 1}
                </span>
                <span>
                  <span className="sr-only">{`Rule ${index + 1}: `}</span>
                  {rule}
                </span>
              </li>
            ))}
          </ol>
          {canPublish && isCurrent ? (
            <Card className="mt-10 p-6">
              <h2 className="text-xl text-parchment">Publish a new version</h2>
              <p className="mt-2 text-sm text-parchment-dim">
                One rule a line, in order: line 1 becomes rule 1. Version {currentVersion} stays readable, and decisions that cited it keep linking
                to it.
              </p>
              <Form method="post" className="mt-4 space-y-4">
                <label htmlFor="rules" className="text-sm font-medium text-parchment">
                  Rules, one a line
                </label>
                <Textarea
                  id="rules"
                  name="rules"
                  rows={10}
                  defaultValue={shown.rules.join("\n")}
                  aria-invalid={actionData?.error ? true : undefined}
                  aria-describedby={actionData?.error ? "rules-error" : undefined}
                />
                {actionData?.error ? (
                  <p id="rules-error" role="alert" className="text-sm text-danger">
                    {actionData.error}
                  </p>
                ) : null}
                <Button type="submit" disabled={navigation.state === "submitting"}>
                  {`Publish version ${currentVersion + 1}`}
                </Button>
              </Form>
            </Card>
          ) : null}
        </article>
        <nav aria-label="Versions of the rules">
          <h2 className="text-sm font-semibold tracking-wide text-parchment-dim uppercase">All versions</h2>
          <ul className="mt-3 space-y-2">
            {versions.map((item) => (
              <li key={item.version}>
                <Link
                  to={item.version === currentVersion ? "/rules" : `/rules?version=${item.version}`}
                  aria-current={item.version === shown.version ? "page" : undefined}
                  className="block rounded-lg border border-ink-line px-3 py-2 text-parchment hover:border-gold/50 aria-[current=page]:border-gold/60"
                >
                  {`Version ${item.version}`}
                  <span className="block text-xs text-parchment-dim">{dateOf(item.publishedAt)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </>
  );
}
