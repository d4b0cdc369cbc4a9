import { Ban, CircleCheck, Coins, Search, ShieldCheck, UsersRound } from "lucide-react";
import { useState, type ReactNode, type SubmitEvent } from "react";
import { Form, Link } from "react-router";
import { toast } from "#app/components/toast.ts";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "#app/components/ui/alert-dialog.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import type { PlayerDetail, PlayerSummary } from "#app/domain/players-admin.server.ts";
import { creditGrantSchema } from "#app/lib/admin-players.ts";
import { fieldErrorsOf, type FieldErrors } from "#app/lib/admin-forms.ts";
import { formatUsd } from "#app/lib/payments.ts";
import { adminSearch, type AdminView } from "./admin-view.ts";
import { DataTable } from "./data-table.tsx";
import { controlProps, EmptyState, Field, LoadFailed } from "./form-controls.tsx";
import type { PlayersView } from "./panel-data.ts";
import { useAdminRequest } from "./use-admin-request.ts";

const number = new Intl.NumberFormat("en-US");
// UTC on both sides, so the server's HTML and the browser's render agree.
const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const date = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

const REASONS: Record<PlayerDetail["ledger"][number]["reason"], string> = {
  signup_bonus: "Sign-up bonus",
  purchase: "Purchase",
  chat_message: "Turn",
  refund: "Refund",
  admin_grant: "Granted by an admin",
  creator_earnings: "Earned by their worlds",
};

/** Players: find one by email or name, see what they have, grant credits, disable or re-enable the account. */
export function PlayersManager({ players, view }: { players: PlayersView | null | undefined; view: AdminView }) {
  if (!players) return <LoadFailed message="Failed to load players. Please try again." />;
  return (
    <section aria-labelledby="players-heading" className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="players-heading" className="text-3xl">
            Players
          </h2>
          <p className="text-sm text-parchment-dim">
            {players.query
              ? `${players.results.length === 50 ? "The newest 50" : players.results.length} ${players.results.length === 1 ? "player matches" : "players match"} “${players.query}”.`
              : "The newest players. Search by email or name."}
          </p>
        </div>
        <Form method="get" role="search" className="flex w-full gap-2 sm:w-auto">
          <input type="hidden" name="tab" value="players" />
          {view.inbox !== "all" ? <input type="hidden" name="inbox" value={view.inbox} /> : null}
          <label htmlFor="player-search" className="sr-only">
            Email or name
          </label>
          <Input
            id="player-search"
            name="q"
            type="search"
            defaultValue={players.query}
            placeholder="Email or name"
            className="sm:w-72"
            maxLength={200}
          />
          <Button type="submit" variant="outline">
            <Search aria-hidden />
            Search
          </Button>
        </Form>
      </div>
      <div className="grid gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <PlayerList results={players.results} view={view} />
        {players.selected === "missing" ? (
          <LoadFailed message="No player has this id. They may have deleted their account." />
        ) : players.selected ? (
          <PlayerCard key={players.selected.id} player={players.selected} />
        ) : (
          <EmptyState icon={<UsersRound />} title="Choose a player">
            <p className="text-sm text-parchment-dim">Their credits, ledger, payments and stories appear here.</p>
          </EmptyState>
        )}
      </div>
    </section>
  );
}

function PlayerList({ results, view }: { results: PlayerSummary[]; view: AdminView }) {
  if (results.length === 0) {
    return (
      <EmptyState icon={<Search />} title="No players found">
        <p className="text-sm text-parchment-dim">Try part of an email address or a name.</p>
      </EmptyState>
    );
  }
  return (
    <ul
      className="divide-y divide-ink-line self-start rounded-[var(--radius-card)] border border-ink-line bg-ink-raised"
      aria-label="Players found"
    >
      {results.map((player) => {
        const selected = view.player === player.id;
        return (
          <li key={player.id}>
            <Link
              to={{ search: adminSearch({ ...view, tab: "players", player: player.id }) }}
              preventScrollReset
              aria-current={selected ? "true" : undefined}
              className={`flex items-center justify-between gap-3 px-4 py-3 hover:bg-ink ${selected ? "bg-ink" : ""}`}
            >
              <span className="min-w-0">
                <span className="block truncate font-medium text-parchment">{player.name}</span>
                <span className="block truncate text-sm text-parchment-dim">{player.email}</span>
              </span>
              <span className="flex shrink-0 flex-col items-end gap-1 text-sm">
                <span className="text-gold tabular-nums">{number.format(player.credits)} credits</span>
                <StatusBadges player={player} />
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function StatusBadges({ player }: { player: PlayerSummary }) {
  return (
    <span className="flex gap-1">
      {player.isAdmin ? (
        <Badge variant="outline">
          <ShieldCheck aria-hidden />
          Admin
        </Badge>
      ) : null}
      {player.disabledAt ? (
        <Badge variant="advanced">
          <Ban aria-hidden />
          Disabled
        </Badge>
      ) : null}
    </span>
  );
}

function PlayerCard({ player }: { player: PlayerDetail }) {
  return (
    <article
      aria-labelledby="player-heading"
      className="min-w-0 space-y-5 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4 sm:p-6"
    >
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h3 id="player-heading" className="text-2xl break-words">
            {player.name}
          </h3>
          <p className="text-sm break-all text-parchment-dim">
            {player.email} · {player.emailVerified ? "email confirmed" : "email not confirmed"} · joined {date.format(new Date(player.createdAt))}
          </p>
          <div className="mt-2">
            <StatusBadges player={player} />
          </div>
        </div>
        <div className="text-right">
          <p className="text-sm text-parchment-dim">Credits</p>
          <p className="font-display text-4xl font-bold text-gold tabular-nums">{number.format(player.credits)}</p>
        </div>
      </header>
      <div className="grid gap-4 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <GrantCredits playerId={player.id} />
        <AccountStatus player={player} />
      </div>
      <Rows
        title="Ledger"
        header={["When", "Change", "Balance", "Reason"]}
        numeric={[1, 2]}
        empty="No credit changes yet."
        rows={player.ledger.map((row) => [
          dateTime.format(new Date(row.createdAt)),
          row.delta > 0 ? `+${number.format(row.delta)}` : number.format(row.delta),
          number.format(row.balanceAfter),
          row.note ? `${REASONS[row.reason]}: ${row.note}` : REASONS[row.reason],
        ])}
      />
      <Rows
        title="Payments"
        header={["Started", "Package", "Credits", "Amount", "Status"]}
        numeric={[2, 3]}
        empty="No payments."
        rows={player.payments.map((row) => [
          dateTime.format(new Date(row.createdAt)),
          row.packageId,
          number.format(row.credits),
          formatUsd(row.amountCents),
          row.status,
        ])}
      />
      <Rows
        title="Stories"
        header={["Game", "Story", "Exchanges", "Last played"]}
        numeric={[2]}
        empty="No stories yet."
        rows={player.stories.map((row) => [row.gameTitle, row.title, number.format(row.exchanges), dateTime.format(new Date(row.updatedAt))])}
      />
    </article>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-[var(--radius-card)] border border-ink-line bg-ink p-4">
      <h4 className="mb-3 font-sans text-base font-semibold text-parchment">{title}</h4>
      {children}
    </section>
  );
}

/** Grants credits with a reason. The request id is made when the form is, so a double click grants once. */
function GrantCredits({ playerId }: { playerId: string }) {
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const [credits, setCredits] = useState("");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const { send, pending } = useAdminRequest();

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { credits: credits.trim() === "" ? Number.NaN : Number(credits), note, requestId };
    const checked = creditGrantSchema.safeParse(body);
    if (!checked.success) {
      setErrors(fieldErrorsOf(checked.error));
      return;
    }
    setErrors({});
    const result = await send<{ applied: boolean; balance: number }>("POST", `/api/admin/players/${playerId}/credits`, checked.data);
    if (result.ok) {
      toast.success(`${number.format(checked.data.credits)} credits granted`, {
        description: `The balance is now ${number.format(result.data.balance)}.`,
      });
      setCredits("");
      setNote("");
      setRequestId(crypto.randomUUID());
      return;
    }
    setErrors(result.fieldErrors);
    toast.error("The credits were not granted", { description: result.error ?? "The server could not be reached. Please try again." });
  }

  return (
    <Panel title="Grant credits">
      <form noValidate onSubmit={submit} className="grid gap-3 sm:grid-cols-[7rem_minmax(0,1fr)]">
        <Field id="grant-credits" label="Credits" required error={errors.credits}>
          <Input
            {...controlProps("grant-credits", errors.credits)}
            inputMode="numeric"
            value={credits}
            onChange={(event) => setCredits(event.target.value)}
          />
        </Field>
        <Field id="grant-note" label="Reason" required error={errors.note}>
          <Input
            {...controlProps("grant-note", errors.note)}
            value={note}
            placeholder="Apology for a failed turn"
            onChange={(event) => setNote(event.target.value)}
          />
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={pending} className="w-full sm:w-auto">
            <Coins aria-hidden />
            {pending ? "Granting..." : "Grant credits"}
          </Button>
        </div>
      </form>
    </Panel>
  );
}

function AccountStatus({ player }: { player: PlayerDetail }) {
  const [confirming, setConfirming] = useState(false);
  const { send, pending } = useAdminRequest();
  const disabled = Boolean(player.disabledAt);

  async function setDisabled(next: boolean) {
    const result = await send("PATCH", `/api/admin/players/${player.id}`, { disabled: next });
    setConfirming(false);
    if (result.ok) toast.success(next ? "Account disabled" : "Account enabled again");
    else toast.error(next ? "The account was not disabled" : "The account was not enabled", { description: result.error });
  }

  return (
    <Panel title="Account">
      <p className="mb-3 text-sm text-parchment-dim">
        {disabled
          ? `Disabled on ${dateTime.format(new Date(player.disabledAt ?? 0))} UTC. The player cannot sign in or play.`
          : "Active. Disabling signs the player out everywhere and refuses sign-in and play."}
      </p>
      {disabled ? (
        <Button variant="outline" disabled={pending} onClick={() => void setDisabled(false)}>
          <CircleCheck aria-hidden />
          {pending ? "Enabling..." : "Enable account"}
        </Button>
      ) : (
        <Button variant="destructive" onClick={() => setConfirming(true)}>
          <Ban aria-hidden />
          Disable account
        </Button>
      )}
      <AlertDialog open={confirming} onOpenChange={(open) => !pending && setConfirming(open)}>
        <AlertDialogContent>
          <AlertDialogTitle>Disable {player.name}’s account?</AlertDialogTitle>
          <AlertDialogDescription>
            {player.email} is signed out everywhere and cannot sign in or play until you enable the account again. Their credits and stories are
            kept.
          </AlertDialogDescription>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
            <Button variant="destructive" disabled={pending} onClick={() => void setDisabled(true)}>
              {pending ? "Disabling..." : "Disable account"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Panel>
  );
}

function Rows({ title, header, rows, numeric, empty }: { title: string; header: string[]; rows: string[][]; numeric: number[]; empty: string }) {
  return (
    <section aria-label={title}>
      <h4 className="mb-2 font-sans text-base font-semibold text-parchment">{title}</h4>
      {rows.length === 0 ? (
        <p className="text-sm text-parchment-dim">{empty}</p>
      ) : (
        <div className="rounded-lg border border-ink-line">
          <DataTable caption={title} header={header} rows={rows} numeric={numeric} maxHeight="max-h-80" />
        </div>
      )}
    </section>
  );
}
