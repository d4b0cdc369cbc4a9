import { eq } from "drizzle-orm";
import { creditLedger, payments } from "#app/db/schema.ts";
import { getBalance, ledgerTotal } from "#app/domain/credits.server.ts";
import type { TestAccount } from "./accounts.ts";
import type { TestServer } from "./server.ts";

/** A JSON POST to the server, as the account (or signed out). */
export function postJson(server: TestServer, pathname: string, body: unknown, account?: TestAccount) {
  return server.fetch(pathname, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(account ? { Cookie: account.cookie } : {}) },
    body: JSON.stringify(body),
  });
}

export function createPayment(server: TestServer, account: TestAccount | undefined, packageType: unknown) {
  return postJson(server, "/api/create-payment", { packageType }, account);
}

export function verifyPayment(server: TestServer, account: TestAccount | undefined, sessionId: unknown) {
  return postJson(server, "/api/verify-payment", { sessionId }, account);
}

/** The account's balance, its ledger total (they must agree) and its purchase rows. */
export async function creditsOf(server: TestServer, account: TestAccount) {
  const db = server.connection.db;
  const [balance, total, purchases] = await Promise.all([
    getBalance(account.userId, db),
    ledgerTotal(account.userId, db),
    db.select().from(creditLedger).where(eq(creditLedger.userId, account.userId)),
  ]);
  return { balance, ledgerTotal: total, purchases: purchases.filter((row) => row.reason === "purchase") };
}

export async function paymentRow(server: TestServer, sessionId: string) {
  const [row] = await server.connection.db.select().from(payments).where(eq(payments.sessionId, sessionId));
  return row;
}
