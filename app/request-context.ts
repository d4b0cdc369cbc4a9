import { createContext } from "react-router";
import type { Logger } from "pino";

/** What the Express server hands every loader and action (see server/app.ts). */
export interface RequestContext {
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
