import { useRouteLoaderData } from "react-router";
import type { RootData } from "#app/lib/site.ts";

/** The root loader's data (site names, the signed-in viewer) from any component. */
export function useRootData(): RootData {
  const data = useRouteLoaderData<RootData>("root");
  if (!data) throw new Error("useRootData must be used below the root route");
  return data;
}
