import { Link } from "react-router";
import { DataTable } from "#app/components/admin/data-table.tsx";
import { PageHeader, SectionHeading } from "#app/components/page-header.tsx";
import { creatorDashboard } from "#app/domain/creator-dashboard.server.ts";
import { personalPageHeaders, requireUser } from "#app/http/guards.server.ts";
import { WORLD_STATUS_LABELS } from "#app/lib/worlds.ts";
import type { Route } from "./+types/creator-dashboard";

/** Personal: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;

const count = new Intl.NumberFormat("en-US");

/** /create/dashboard: the signed-in creator's worlds with their plays, likes, paid turns and credits earned. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return creatorDashboard(user.id);
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Creator dashboard | ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

const credits = (amount: number) => (amount === 1 ? "1 credit" : `${count.format(amount)} credits`);

export default function CreatorDashboard({ loaderData }: Route.ComponentProps) {
  const { worlds, totalCredits, creditsToday, rule } = loaderData;
  return (
    <>
      <PageHeader
        eyebrow="Create"
        title="Creator dashboard"
        description={`Every ${rule.paidTurnsPerCredit} paid turns other players take in one of your Public worlds in a day earn you 1 credit, up to ${credits(rule.creditsPerDay)} a day. Your own play, and a player's play of a remix of their own world, earn nothing.`}
      />
      <div className="mx-auto max-w-6xl space-y-8 px-4 py-12 sm:px-6">
        <dl className="grid gap-4 sm:grid-cols-2">
          <div className="rounded-lg border border-ink-line px-4 py-3">
            <dt className="text-sm text-parchment-dim">Credits earned</dt>
            <dd className="font-display text-2xl text-parchment">{credits(totalCredits)}</dd>
          </div>
          <div className="rounded-lg border border-ink-line px-4 py-3">
            <dt className="text-sm text-parchment-dim">Earned today (UTC)</dt>
            <dd className="font-display text-2xl text-parchment">
              {count.format(creditsToday)} of {credits(rule.creditsPerDay)}
            </dd>
          </div>
        </dl>
        <section aria-labelledby="dashboard-worlds" className="space-y-3">
          <SectionHeading id="dashboard-worlds" title="Your worlds" />
          {worlds.length === 0 ? (
            <p className="text-parchment-dim">
              You have no worlds yet.{" "}
              <Link to="/create" className="text-gold underline underline-offset-4">
                Create a world
              </Link>
              .
            </p>
          ) : (
            <DataTable
              caption="Your worlds"
              header={["World", "Status", "Plays", "Likes", "Paid turns", "Credits earned"]}
              numeric={[2, 3, 4, 5]}
              rows={worlds.map((world) => [
                world.title,
                WORLD_STATUS_LABELS[world.status],
                count.format(world.plays),
                count.format(world.likes),
                count.format(world.paidTurns),
                count.format(world.credits),
              ])}
            />
          )}
        </section>
      </div>
    </>
  );
}
