/**
 * Accounts under load, on the built app with the embedded database: a signed-in page view (session,
 * roles and balance read per request) and password sign-in (scrypt plus the rate-limit write).
 * Prints requests per second and latency percentiles; it asserts nothing.
 */
import autocannon from "autocannon";
import { signUp, testClientAddress } from "#tests/helpers/accounts.ts";
import { startTestServer } from "#tests/helpers/server.ts";

process.env.LOG_LEVEL = "silent";
const server = await startTestServer();

async function measure(title: string, options: autocannon.Options) {
  const result = await autocannon({ duration: 10, connections: 10, ...options });
  const failures = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${title}: ${Math.round(result.requests.average)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms` +
      (failures ? `, ${failures} failed` : ""),
  );
}

try {
  const player = await signUp(server);
  await measure("GET / signed out (baseline)", { url: server.url });
  await measure("GET / signed in (cookie)", { url: server.url, headers: { Cookie: player.cookie } });
  await measure("GET / signed in (bearer)", { url: server.url, headers: { Authorization: `Bearer ${player.token}` } });
  await measure("POST /api/auth/sign-in/email", {
    url: `${server.url}/api/auth/sign-in/email`,
    connections: 4,
    requests: [
      {
        method: "POST",
        setupRequest: (request) => ({
          ...request,
          headers: {
            "Content-Type": "application/json",
            Origin: server.url,
            // One address per request: this measures the work of a sign-in, not the limiter's 429.
            "X-Forwarded-For": testClientAddress(),
          },
          body: JSON.stringify({ email: player.email, password: player.password }),
        }),
      },
    ],
  });
} finally {
  // Let the last sign-ins autocannon abandoned finish before the database closes.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await server.close();
}
