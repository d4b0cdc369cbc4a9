import { Search } from "lucide-react";
import { Form } from "react-router";
import { cn } from "#app/lib/utils.ts";
import { Button } from "./ui/button.tsx";
import { Input } from "./ui/input.tsx";

/** The site search (/games?search=term): a plain GET form, so it works before and without JavaScript. */
export function GameSearchForm({
  search,
  difficulty,
  className,
}: {
  search?: string | null;
  /** Kept when searching within a difficulty filter. */
  difficulty?: string | null;
  className?: string;
}) {
  return (
    <Form method="get" action="/games" role="search" aria-label="Search games" className={cn("flex w-full max-w-xl gap-2", className)}>
      {difficulty ? <input type="hidden" name="difficulty" value={difficulty} /> : null}
      <div className="relative flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-parchment-dim"
          strokeWidth={1.75}
          aria-hidden
        />
        <label htmlFor="game-search" className="sr-only">
          Search games by title, tagline or description
        </label>
        <Input
          key={search ?? ""}
          id="game-search"
          type="search"
          name="search"
          defaultValue={search ?? ""}
          placeholder="Search games…"
          maxLength={100}
          className="pl-10"
        />
      </div>
      <Button type="submit" className="h-11">
        Search
      </Button>
    </Form>
  );
}
