import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { constants as zlibConstants } from "node:zlib";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { connectDatabase, type DatabaseConnection } from "#app/db/client.server.ts";
import { setDatabaseConnection } from "#app/db/database.server.ts";
import { paymentsStartupWarning } from "#app/domain/payments.server.ts";
import { CLIENT_ADDRESS_HEADER } from "#app/domain/rate-limit.server.ts";
import { env } from "#app/env.server.ts";
import { settleInFlight } from "#app/lib/in-flight.server.ts";
import { logger } from "#app/logger.server.ts";
import { projectPath } from "#app/lib/project-path.server.ts";
import { RequestError } from "#app/http/errors.server.ts";
import { requestContext } from "#app/request-context.ts";
import { publicContentVersionWatch } from "#app/domain/public-content-version.server.ts";
import { keepTurnLeases } from "#app/domain/game-master/turn-leases.server.ts";
import { controlRouter } from "./control.ts";
import { registerControlFile, removeControlFile } from "./control-file.ts";
import { drainableConnections } from "./connections.ts";
import { PAGE_BROTLI_WINDOW_BITS } from "./page-bytes.ts";
import { PageCache } from "./page-cache.ts";
import { limitPageRenders } from "./page-render-limit.ts";
import { limitRequestBody } from "./request-limits.ts";
import { measureRequests, metricsEndpoint } from "./metrics.ts";
import { RoutePatterns } from "./route-patterns.ts";
import { answerError } from "./answer-error.ts";
import { reactRouterRequestHandler } from "./react-router-handler.ts";

export interface StartOptions {
  /** Overrides PORT (0 picks a free port). */
  port?: number;
  /** In development, Vite serves assets and compiles modules on the fly. */
  viteDevServer?: ViteDevServer;
}

export interface RunningServer {
  url: string;
  port: number;
  connection: DatabaseConnection;
  /** Drains: not ready, stops accepting, lets open streams finish (up to SHUTDOWN_GRACE_SECONDS), closes the database. */
  close(): Promise<void>;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config = env();
  const log = logger();
  const startedAt = performance.now();

  const connection = await connectDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    migrate: true,
    seed: true,
    seedBlockedTerms: config.WORLD_BLOCKED_TERMS,
    maxConnections: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  setDatabaseConnection(connection);
  await publicContentVersionWatch.start(connection);
  const stopTurnLeases = keepTurnLeases(log);

  const { viteDevServer } = options;
  // Pages kept for visitors are valid only while games, content and guides are unchanged.
  const pageCache = viteDevServer ? undefined : new PageCache({ version: () => publicContentVersionWatch.current() });

  // In production the build is loaded once: handed a function, React Router would call it and
  // rebuild its route tables on every request.
  const build: AppOptions["build"] = viteDevServer
    ? () => viteDevServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
    : await import("virtual:react-router/server-build");

  const routes = new RoutePatterns([
    ...RoutePatterns.fromBuild(typeof build === "function" ? (await build()).routes : build.routes),
    ...EXPRESS_ROUTES,
    ...(viteDevServer ? [] : staticFilePatterns()),
  ]);

  const shutdown = new AbortController();
  const app = createApp({ connection, shutdownSignal: shutdown.signal, viteDevServer, build, pageCache, routes });
  const server = await listen(app, options.port ?? config.PORT, config.HOST);
  const connections = drainableConnections(server);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.HOST === "0.0.0.0" || config.HOST === "::" ? "127.0.0.1" : config.HOST}:${port}`;
  if (connection.driver === "pglite") registerControlFile(config.DATA_DIR, url);

  log.info(
    { port, database: connection.driver, startupMs: Math.round(performance.now() - startedAt) },
    `${config.SITE_NAME} is listening on ${config.PUBLIC_URL}`,
  );
  const paymentsWarning = paymentsStartupWarning(config);
  if (paymentsWarning) log.warn({ paymentsProvider: config.paymentsProvider }, paymentsWarning);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      log.info("shutting down: no new connections, letting open streams finish");
      const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
      const deadline = Date.now() + graceMs;
      shutdown.abort();
      // After the poll phase that accepted every connection already waiting: a connection left in
      // the listen queue when it closes is reset after its request went out.
      const closed = new Promise<void>((resolve) => setImmediate(() => void connections.stopListening().then(resolve)));
      // Streams end on the shutdown signal and leave their keep-alive sockets idle: close those as
      // they appear, or a browser would reuse them to reconnect to this departing instance.
      const sweep = setInterval(connections.closeIdle, 100);
      const forced = setTimeout(connections.closeAll, graceMs);
      await closed;
      clearInterval(sweep);
      clearTimeout(forced);
      // Replies whose players already left are still being generated and stored.
      await settleInFlight(Math.max(0, deadline - Date.now()));
      stopTurnLeases();
      if (connection.driver === "pglite") removeControlFile(config.DATA_DIR);
      await publicContentVersionWatch.stop();
      await connection.close();
      setDatabaseConnection(undefined);
      log.info("shut down cleanly");
    })();
    return closing;
  };

  return { url, port, connection, close };
}

interface AppOptions {
  connection: DatabaseConnection;
  shutdownSignal: AbortSignal;
  viteDevServer?: ViteDevServer;
  /** The production build, or in development a function asking Vite for the latest one. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  pageCache?: PageCache;
  /** The route patterns requests are counted under in the metrics. */
  routes: RoutePatterns;
}

/** Paths Express answers before React Router (the PGlite control route included), for the metrics' route labels. */
const EXPRESS_ROUTES = ["/healthz", "/readyz", "/metrics", "/internal/cli", "/assets/*"];

/** The files outside build/client/assets that the static middleware serves, each its own route label. */
function staticFilePatterns(): string[] {
  const root = projectPath("build", "client");
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")}`)
    .filter((pattern) => !pattern.startsWith("/assets/"));
}

function createApp({ connection, shutdownSignal, viteDevServer, build, pageCache, routes }: AppOptions) {
  const config = env();
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback, linklocal, uniquelocal");
  app.use(measureRequests(routes));

  // Request ids and logs.
  app.use(
    pinoHttp({
      logger: logger(),
      genReqId(request, response) {
        const incoming = request.headers["x-request-id"];
        const id = typeof incoming === "string" && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
        response.setHeader("X-Request-Id", id);
        return id;
      },
      autoLogging: { ignore: (request) => /^\/(assets\/|healthz|readyz|metrics)/.test(request.url) },
      serializers: {
        req: (request: { id: unknown; method: string; url: string }) => ({ id: request.id, method: request.method, url: request.url }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
      },
    }),
  );

  // A draining instance answers what it has accepted and closes each connection after its answer,
  // so clients and balancers holding keep-alive connections reconnect to another instance.
  app.use((_request, response, next) => {
    if (shutdownSignal.aborted) response.setHeader("Connection", "close");
    next();
  });

  // Health: liveness says the process answers; readiness says it can serve (the database answers)
  // and is not draining.
  app.get("/healthz", (_request, response) => {
    response.json({ status: "ok" });
  });
  app.get("/readyz", async (_request, response) => {
    if (shutdownSignal.aborted) {
      response.status(503).json({ status: "draining", error: "This instance is shutting down." });
      return;
    }
    try {
      await withTimeout(connection.ping(), 2000);
      response.json({ status: "ready", database: connection.driver });
    } catch {
      response.status(503).json({ status: "unavailable", error: "The database is not answering." });
    }
  });

  // Prometheus's scrape, for holders of METRICS_TOKEN; without one the path is as unknown as any other.
  if (config.METRICS_TOKEN) app.get("/metrics", metricsEndpoint(config.METRICS_TOKEN));

  // The client's address as the trust-proxy rules resolve it, for rate limits and session records;
  // a value the client sent under this name is replaced.
  app.use((request, _response, next) => {
    request.headers[CLIENT_ADDRESS_HEADER] = request.ip ?? request.socket.remoteAddress ?? "unknown";
    next();
  });

  // A kept page is answered here, with the security headers it was rendered with.
  if (pageCache) app.use(pageCache.serve());

  // Security headers. A page's scripts run only with its response's nonce; an API answer (JSON or
  // an event stream, never a page with scripts) has no nonce, so its headers are the same for
  // every answer and made once.
  const contentSecurityPolicy = (scriptSrc: Array<string | ((request: IncomingMessage, response: ServerResponse) => string)>) => ({
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc,
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Images from elsewhere would tell that server who reads a page (and could carry what
      // it says): content may only show the site's own (app/lib/content-urls.ts).
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      upgradeInsecureRequests: config.PUBLIC_URL.startsWith("https://") ? [] : null,
    },
  });
  const securityHeaders = (csp: ReturnType<typeof contentSecurityPolicy> | false) =>
    helmet({
      contentSecurityPolicy: csp,
      strictTransportSecurity: config.PUBLIC_URL.startsWith("https://"),
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      crossOriginEmbedderPolicy: false,
    });
  const pageHeaders = securityHeaders(
    !viteDevServer && contentSecurityPolicy(["'self'", (_request, response) => `'nonce-${(response as express.Response).locals.cspNonce}'`]),
  );
  const apiHeaders = securityHeaders(!viteDevServer && contentSecurityPolicy(["'self'"]));
  // A cover is a picture, not a page: its route sets the policy its SVG needs (app/http/covers.server.ts).
  const imageHeaders = securityHeaders(false);
  app.use((request, response, next) => {
    if (request.path.startsWith("/api/")) {
      apiHeaders(request, response, next);
      return;
    }
    if (request.path.startsWith("/covers/")) {
      imageHeaders(request, response, next);
      return;
    }
    response.locals.cspNonce = randomBytes(16).toString("base64");
    pageHeaders(request, response, next);
  });

  // Server-sent events must reach the browser as they are written, never buffered for gzip. A
  // visitor's page the cache missed goes out compressed here, at this cheap level, like any render;
  // the copy the cache keeps is compressed again later, off the request path (decision 042).
  app.use(
    compression({
      // Brotli's default window (4 MiB) is set up for every response, and on a rendered page that
      // costs more than the compressing: a 256 KiB window holds any page whole, and doubled the
      // signed-in pages a core serves (docs/decisions/039).
      brotli: { params: { [zlibConstants.BROTLI_PARAM_LGWIN]: PAGE_BROTLI_WINDOW_BITS } },
      filter: (request, response) =>
        !String(response.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(request, response),
    }),
  );

  app.use(limitRequestBody);
  if (connection.driver === "pglite") app.use(controlRouter(config.DATA_DIR, connection));
  // Before the static files: only pages React Router rendered are ever kept.
  if (pageCache) app.use(pageCache.capture());

  if (viteDevServer) {
    app.use(viteDevServer.middlewares);
  } else {
    app.use("/assets", express.static(projectPath("build", "client", "assets"), { immutable: true, maxAge: "1y" }));
    app.use(express.static(projectPath("build", "client"), { maxAge: "1h", index: false }));
  }

  // Rendering is what a stranger can make an instance spend CPU on: pages rendered for one
  // signed-out address are limited here, after everything answered without a render (decision 042).
  if (config.PAGE_RENDERS_PER_MINUTE > 0) app.use(limitPageRenders(config.PAGE_RENDERS_PER_MINUTE));

  app.all("/{*splat}", reactRouterHandler({ shutdownSignal, build }));
  app.use(finalErrorHandler);
  return app;
}

function reactRouterHandler({ shutdownSignal, build }: Pick<AppOptions, "shutdownSignal" | "build">): RequestHandler {
  return reactRouterRequestHandler({
    build,
    getLoadContext(request, response, body) {
      const context = new RouterContextProvider();
      context.set(requestContext, {
        body,
        requestId: request.id as string,
        clientAddress: request.ip ?? request.socket.remoteAddress ?? "unknown",
        logger: request.log,
        cspNonce: String(response.locals.cspNonce),
        shutdownSignal,
        outcome: { databaseBusy: false },
      });
      return context;
    },
  });
}

/** What fails outside React Router (a middleware, a malformed request Express refused) in the one error shape. */
const finalErrorHandler: ErrorRequestHandler = (error: unknown, request, response, next) => {
  if (response.headersSent) {
    request.log.error({ err: error }, "request failed after its answer began");
    response.destroy();
    return;
  }
  // Express marks the client's own mistakes (a body it cannot read, say) with a 4xx status.
  const declared = error instanceof Error && "status" in error ? Number(error.status) : 500;
  const clientMistake = declared >= 400 && declared < 500;
  if (clientMistake) request.log.warn({ err: error }, "request refused");
  answerError(clientMistake ? new RequestError("invalid_input", "The request could not be read.") : error, request, response, next);
};

function listen(app: express.Express, port: number, host: string) {
  return new Promise<Server>((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(server)));
    // Streams are long-lived: let keep-alive and headers time out, not the body.
    server.requestTimeout = 0;
    server.headersTimeout = 30_000;
    // Idle keep-alive connections outlive a load balancer's (60 s on the common ones), so the
    // balancer never sends a request down a connection the server is closing at that moment.
    server.keepAliveTimeout = 65_000;
  });
}

function withTimeout<T>(promise: Promise<T>, milliseconds: number): Promise<T> {
  return Promise.race([promise, new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error("timed out")), milliseconds).unref())]);
}
