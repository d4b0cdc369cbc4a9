import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface FakeSmtpServer {
  /** For SMTP_URL (with the credentials the server demands). */
  url: string;
  messages: ReceivedMail[];
  /** The first mail (received or still to come) that matches. */
  waitForMail(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

const USER = "mailer";
const PASSWORD = "smtp-secret";

/**
 * A real SMTP server on loopback (smtp-server) that demands the credentials in its URL, accepts
 * every message and keeps it, decoded, for the test to read.
 */
export async function startSmtpServer(): Promise<FakeSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters: { predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }[] = [];

  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mail = {
          ...parseMessage(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
        };
        messages.push(mail);
        for (const waiter of waiters.filter((candidate) => candidate.predicate(mail))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    messages,
    waitForMail(predicate, timeoutMs = 10_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`No matching mail arrived within ${timeoutMs} ms (${messages.length} received).`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// --- just enough MIME to read what nodemailer sends: headers, multipart/alternative, QP and base64.

function splitHead(entity: string): { headers: Map<string, string>; body: string } {
  const separator = entity.search(/\r?\n\r?\n/);
  const head = separator === -1 ? entity : entity.slice(0, separator);
  const body = separator === -1 ? "" : entity.slice(separator).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable": {
      const bytes = body
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      return Buffer.from(bytes, "latin1").toString("utf8");
    }
    default:
      return body;
  }
}

function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_match, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeBody(text.replaceAll("_", " "), "quoted-printable"),
  );
}

function parseMessage(raw: string): Pick<ReceivedMail, "subject" | "text" | "html"> {
  const { headers, body } = splitHead(raw);
  const parts: { type: string; content: string }[] = [];
  const collect = (entityHeaders: Map<string, string>, entityBody: string) => {
    const type = entityHeaders.get("content-type") ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith("multipart/") && boundary) {
      const sections = entityBody.split(`--${boundary}`).slice(1);
      for (const section of sections) {
        if (section.startsWith("--")) break;
        const part = splitHead(section.replace(/^\r?\n/, ""));
        collect(part.headers, part.body);
      }
      return;
    }
    parts.push({ type: type.toLowerCase(), content: decodeBody(entityBody, entityHeaders.get("content-transfer-encoding")) });
  };
  collect(headers, body);
  return {
    subject: decodeHeader(headers.get("subject") ?? ""),
    text: parts.find((part) => part.type.startsWith("text/plain"))?.content ?? "",
    html: parts.find((part) => part.type.startsWith("text/html"))?.content ?? "",
  };
}
