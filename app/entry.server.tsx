import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { preloadModule, type PreloadModuleOptions } from "react-dom";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { ServerRouter, type EntryContext, type HandleErrorFunction, type RouterContextProvider } from "react-router";
import { isDatabaseBusy, isDatabaseUnreachable } from "#app/db/busy.server.ts";
import { requestContext } from "#app/request-context.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { cspNonce, logger: requestLogger } = loadContext.get(requestContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole document at once; browsers get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const document = (
      <>
        <HydrationModules context={routerContext} nonce={cspNonce} />
        <ServerRouter context={routerContext} url={request.url} nonce={cspNonce} />
      </>
    );
    const { pipe, abort } = renderToPipeableStream(document, {
      nonce: cspNonce,
      [readyOption]() {
        shellRendered = true;
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        pipe(body);
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors before the shell reject above and are logged by handleError.
        if (shellRendered) requestLogger.error({ err: error }, "error while streaming the page");
      },
    });
  });
}

/**
 * The page's JavaScript, fetched at low priority as React fetches its own bootstrap modules: the
 * server-rendered HTML is complete without it (it only hydrates the page), so the stylesheet and
 * fonts it competes with come first, and the page paints sooner on a slow link. React writes
 * these links ahead of React Router's own modulepreload links (the same files at high priority),
 * which then find each fetch already under way (docs/decisions/027).
 */
function HydrationModules({ context, nonce }: { context: EntryContext; nonce: string }) {
  const { manifest, staticHandlerContext } = context;
  const routeModules = staticHandlerContext.matches.flatMap(({ route }) => {
    const entry = manifest.routes[route.id];
    return entry ? [entry.module, ...(entry.imports ?? [])] : [];
  });
  // react-dom passes fetchPriority on (its own bootstrap modules use it); @types/react-dom 19.3 does not list it yet.
  const options: PreloadModuleOptions & { fetchPriority: "low" } = { as: "script", fetchPriority: "low", nonce };
  for (const href of new Set([manifest.entry.module, ...manifest.entry.imports, ...routeModules])) preloadModule(href, options);
  return null;
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const { logger, outcome } = context.get(requestContext);
  // Not a fault to investigate: the page is answered 503 with Retry-After (app/http/edge.server.ts).
  if (isDatabaseBusy(error)) {
    outcome.databaseBusy = true;
    logger.warn(
      isDatabaseUnreachable(error) ? "the database cannot be reached: answered 503" : "no database connection came free in time: answered 503",
    );
    return;
  }
  logger.error({ err: error, url: request.url }, "unhandled error while rendering");
};
