import { data, Form, useNavigation } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { setMatureConfirmed, viewerSeesMature } from "#app/domain/community.server.ts";
import { personalPageHeaders, requireUser } from "#app/http/guards.server.ts";
import type { Route } from "./+types/settings";

/** Personal: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return { matureConfirmed: await viewerSeesMature(request) };
}

/** POST `mature=confirm` or `mature=withdraw`. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const choice = (await request.formData()).get("mature");
  if (choice !== "confirm" && choice !== "withdraw") return data({ error: "Choose to confirm or withdraw." }, { status: 400 });
  await setMatureConfirmed(user.id, choice === "confirm");
  return { error: null };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Settings | ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { matureConfirmed } = loaderData;
  const navigation = useNavigation();
  return (
    <>
      <PageHeader eyebrow="Account" title="Settings" />
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <Card className="p-6">
          <h2 className="text-xl text-parchment">Mature worlds</h2>
          <p className="mt-2 text-parchment-dim">
            {matureConfirmed
              ? "You confirmed that you are 18 or older: worlds rated Mature are shown to you under Community and on creators' pages."
              : "Worlds rated Mature are hidden until you confirm that you are 18 or older."}
          </p>
          {actionData?.error ? (
            <p role="alert" className="mt-3 text-danger">
              {actionData.error}
            </p>
          ) : null}
          <Form method="post" className="mt-4">
            <Button
              type="submit"
              name="mature"
              value={matureConfirmed ? "withdraw" : "confirm"}
              variant={matureConfirmed ? "outline" : "default"}
              disabled={navigation.state === "submitting"}
            >
              {matureConfirmed ? "Hide Mature worlds" : "I am 18 or older: show Mature worlds"}
            </Button>
          </Form>
        </Card>
      </div>
    </>
  );
}
