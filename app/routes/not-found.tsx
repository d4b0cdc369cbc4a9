import { data } from "react-router";
import { NotFoundPage } from "#app/components/not-found-page.tsx";
import type { Route } from "./+types/not-found";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [{ title: "Page not found" }, { name: "robots", content: "noindex" }];

export default function NotFound() {
  return <NotFoundPage />;
}
