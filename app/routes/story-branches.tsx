import { GitBranch, Play } from "lucide-react";
import { Link, redirect } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { NotFoundError } from "#app/domain/errors.server.ts";
import { storyFamily, type StoryBranch } from "#app/domain/story-branches.server.ts";
import { personalPageHeaders, requireUser } from "#app/http/guards.server.ts";
import { storyIdOf } from "#app/http/story-input.ts";
import type { Route } from "./+types/story-branches";

/** Personal: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;

/** A story of the tree as the page draws it: what it needs to show and open, its branches below it. */
interface BranchNode {
  id: string;
  gameSlug: string;
  title: string;
  exchanges: number;
  forkExchange: number;
  isBranch: boolean;
  latestLines: string;
  branches: BranchNode[];
}

function node({ id, gameSlug, title, exchanges, forkExchange, parentStoryId, latestLines, branches }: StoryBranch): BranchNode {
  return { id, gameSlug, title, exchanges, forkExchange, isBranch: parentStoryId !== null, latestLines, branches: branches.map(node) };
}

/** Branches: the family of one of the player's stories as a tree (docs/decisions/063). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  try {
    const root = await storyFamily(user.id, storyIdOf(params));
    return { root: node(root), current: storyIdOf(params), gameTitle: root.gameTitle };
  } catch (error) {
    if (error instanceof NotFoundError) throw redirect("/stories", { headers: personalPageHeaders() });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Branches | ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

function turns(count: number) {
  return `${count} ${count === 1 ? "turn" : "turns"}`;
}

/** One story of the tree: where it forks, how long it is, its latest lines, Open, and its own branches. */
function BranchItem({ branch, current }: { branch: BranchNode; current: string }) {
  const here = branch.id === current;
  const name = branch.isBranch
    ? `the branch from turn ${branch.forkExchange} (${turns(branch.exchanges)})`
    : `the original story (${turns(branch.exchanges)})`;
  return (
    <li className="flex flex-col gap-3">
      <div
        aria-current={here ? "page" : undefined}
        className={`flex flex-col gap-2 rounded-lg border p-4 ${here ? "border-gold bg-gold/5" : "border-ink-line bg-ink-raised"}`}
      >
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h2 className="text-xl leading-tight">{branch.isBranch ? `Branch from turn ${branch.forkExchange}` : "The original story"}</h2>
          <p className="text-sm text-parchment-dim">
            {turns(branch.exchanges)}
            {branch.isBranch ? ` · shares the first ${turns(branch.forkExchange)}` : ""}
            {here ? " · you came from here" : ""}
          </p>
        </div>
        {branch.latestLines ? <p className="line-clamp-3 text-parchment-dim">{branch.latestLines}</p> : null}
        <div>
          <Button asChild size="sm" variant={here ? "ghost" : "default"}>
            <Link to={`/play/${branch.gameSlug}/${branch.id}`} aria-label={`Open ${name}`}>
              <Play aria-hidden />
              Open
            </Link>
          </Button>
        </div>
      </div>
      {branch.branches.length > 0 ? (
        <ul aria-label={`Branches of ${name}`} className="ml-3 flex flex-col gap-3 border-l-2 border-gold/40 pl-3 sm:ml-6 sm:pl-5">
          {branch.branches.map((child) => (
            <BranchItem key={child.id} branch={child} current={current} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export default function StoryBranches({ loaderData }: Route.ComponentProps) {
  const { root, current, gameTitle } = loaderData;
  return (
    <div>
      <PageHeader
        eyebrow={
          <span className="inline-flex items-center gap-2">
            <GitBranch className="size-4" aria-hidden />
            {gameTitle}
          </span>
        }
        title="Branches"
        description={`Every branch of “${root.title}”: where each goes its own way, and its latest lines. Branch from here, under any reply, makes another.`}
      />
      <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        <ul aria-label="Branches of this story" className="flex flex-col gap-3">
          <BranchItem branch={root} current={current} />
        </ul>
        <p className="mt-8">
          <Link to="/stories" className="text-gold underline-offset-4 hover:underline">
            Back to My Stories
          </Link>
        </p>
      </div>
    </div>
  );
}
