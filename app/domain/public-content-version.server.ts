import type { DatabaseConnection } from "../db/client.server.ts";
import { preparedQuery } from "../db/prepared.server.ts";
import { publicContentVersion } from "../db/schema.ts";
import { FreshRead } from "../lib/fresh-read.ts";

/**
 * The version of what visitors see: bumped by triggers in the same transaction as any change to
 * games, game_content or guides, which also NOTIFY the new version when it commits
 * (app/db/functions/bump_public_content_version.sql and notify_public_content_version.sql). Each
 * process keeps the version it last heard (docs/decisions/026), so a kept page
 * or a cached game costs no database read.
 */
const CHANNEL = "public_content_version";

const versionQuery = preparedQuery((database) =>
  database.select({ version: publicContentVersion.version }).from(publicContentVersion).limit(1).prepare("public_content_version"),
);

export async function readPublicContentVersion(): Promise<number> {
  const [row] = await versionQuery().execute();
  return row?.version ?? 0;
}

/**
 * The version as this process knows it. While the notification channel is open the version is
 * known and answered at once; before it opens, and from the moment it is lost until it is open
 * again and the version read anew, every caller gets a fresh read instead (a change made meanwhile
 * would otherwise go unseen).
 */
class PublicContentVersionWatch {
  readonly #fresh = new FreshRead(readPublicContentVersion);
  #known: number | undefined;
  #listening = false;
  #stop: (() => Promise<void>) | undefined;

  /** The version now: a number when known, else a read that started after this call. */
  current(): number | Promise<number> {
    return this.#known ?? this.#fresh.read();
  }

  /**
   * Reads the version now, for a process that has just changed content itself: its own next
   * request must not wait for the notification.
   */
  async refresh(): Promise<number> {
    const version = await this.#fresh.read();
    this.#heard(version);
    return version;
  }

  async start(connection: DatabaseConnection) {
    await this.stop();
    this.#stop = await connection.listen(
      CHANNEL,
      (payload) => this.#heard(Number(payload)),
      (listening) => {
        this.#listening = listening;
        this.#known = undefined;
        if (listening) void this.refresh().catch(() => {});
      },
    );
    this.#listening = true;
    await this.refresh();
  }

  async stop() {
    this.#listening = false;
    this.#known = undefined;
    await this.#stop?.();
    this.#stop = undefined;
  }

  #heard(version: number) {
    if (!this.#listening || !Number.isSafeInteger(version)) return;
    // Versions only grow: a notification overtaken by a read changes nothing.
    this.#known = Math.max(this.#known ?? version, version);
  }
}

export const publicContentVersionWatch = new PublicContentVersionWatch();
