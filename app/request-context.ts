import { createContext } from "react-router";
import type { Logger } from "pino";

/** What the Express server hands every loader and action (see server/app.ts). */
export interface RequestContext {
  /** The request's body as the server read it, once (server/react-router-handler.ts); absent for a GET or HEAD. */
  body?: Uint8Array;
  requestId: string;
  /** The visitor's IP address (behind a trusted proxy, the one it reports), for rate limits. */
  clientAddress: string;
  logger: Logger;
  cspNonce: string;
  /** Aborted when the server starts shutting down; long-lived streams end on it. */
  shutdownSignal: AbortSignal;
  /** What went wrong while the request was served, for the edge to answer (app/http/edge.server.ts). */
  outcome: { databaseBusy: boolean };
}

export const requestContext = createContext<RequestContext>();
