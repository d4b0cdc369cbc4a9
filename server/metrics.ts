import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { collectDefaultMetrics, Gauge, Histogram } from "prom-client";
import { RequestError } from "#app/http/errors.server.ts";
import { metricsRegistry } from "#app/lib/metrics.server.ts";
import { databaseConnection } from "#app/db/database.server.ts";
import { answerError } from "./answer-error.ts";
import type { RoutePatterns } from "./route-patterns.ts";

/**
 * GET /metrics for Prometheus: the process's own figures (CPU, memory, event loop, GC), the HTTP
 * requests by route pattern, and what app/lib/metrics.server.ts counts. Everything here is read
 * when Prometheus scrapes, except the one histogram observation a request costs.
 */
collectDefaultMetrics({ register: metricsRegistry });

const requestDuration = new Histogram<"route" | "status">({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its answer (an event stream's whole life), by route pattern and status.",
  labelNames: ["route", "status"],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

new Gauge({
  name: "db_pool_waiting",
  help: "Queries waiting for a free PostgreSQL connection of this instance's pool (0 on PGlite).",
  registers: [metricsRegistry],
  collect() {
    this.set(databaseConnection().waitingForConnection());
  },
});

/** Times every request and counts it under its route's pattern when its answer ends (or the client leaves). */
export function measureRequests(routes: RoutePatterns): RequestHandler {
  return (request, response, next) => {
    const startedAt = performance.now();
    // Read now: a router mounted on a path (`/assets`) shortens the request's URL while it runs.
    const path = request.path;
    response.once("close", () => {
      requestDuration.observe({ route: routes.match(path), status: response.statusCode }, (performance.now() - startedAt) / 1000);
    });
    next();
  };
}

/**
 * Answers the scrape of a caller holding `Authorization: Bearer <METRICS_TOKEN>`. The token is
 * compared by its hash, in constant time: a wrong guess learns nothing from how long it took.
 */
export function metricsEndpoint(token: string): RequestHandler {
  const expected = digest(`Bearer ${token}`);
  return (request, response, next) => {
    if (!timingSafeEqual(digest(request.headers.authorization ?? ""), expected)) {
      const refusal = new RequestError("unauthenticated", "Metrics need the bearer token this server was given as METRICS_TOKEN.", {
        headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
      });
      answerError(refusal, request, response, next);
      return;
    }
    metricsRegistry.metrics().then((body) => {
      response.setHeader("Content-Type", metricsRegistry.contentType);
      response.setHeader("Cache-Control", "no-store");
      response.send(body);
    }, next);
  };
}

function digest(value: string) {
  return createHash("sha256").update(value).digest();
}
