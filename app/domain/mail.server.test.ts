import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnvironment } from "../env.server.ts";
import { demoMailboxOpen } from "./mail.server.ts";

const configured = (source: Record<string, string>) => parseEnvironment({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "pae-mail-")), ...source });

describe("the demo mailbox", () => {
  it("is open in the demo: the test checkout, and no SMTP_URL", () => {
    expect(demoMailboxOpen(configured({ NODE_ENV: "production", PAYMENTS_PROVIDER: "test" }))).toBe(true);
    expect(demoMailboxOpen(configured({ NODE_ENV: "development" }))).toBe(true);
  });

  it("is closed where mail is sent, and on a site that sells for real or sells nothing", () => {
    expect(demoMailboxOpen(configured({ NODE_ENV: "production", PAYMENTS_PROVIDER: "test", SMTP_URL: "smtp://mail.example:587" }))).toBe(false);
    expect(demoMailboxOpen(configured({ NODE_ENV: "production" }))).toBe(false);
    expect(demoMailboxOpen(configured({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" }))).toBe(false);
  });
});
