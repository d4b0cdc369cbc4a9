import { Loader2, Search, X } from "lucide-react";
import { useState, type SyntheticEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { MATCH_END, MATCH_START } from "#app/lib/story-view.ts";
import type { StoryMatch } from "./story-client.ts";
import { useStory } from "./story-provider.tsx";

type Results =
  { state: "idle" } | { state: "searching" } | { state: "found"; words: string; matches: StoryMatch[] } | { state: "failed"; message: string };

/** The words searched for, in quotes unless the player quoted them already. */
function quoted(words: string) {
  return words.includes('"') ? words : `“${words}”`;
}

/** A snippet with the words found marked. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(new RegExp(`(${MATCH_START}[^${MATCH_END}]*${MATCH_END})`, "u"));
  return (
    <>
      {parts.map((part, index) =>
        part.startsWith(MATCH_START) ? (
          <mark key={index} className="rounded bg-gold/25 px-0.5 text-parchment">
            {part.slice(1, -1)}
          </mark>
        ) : (
          part
        ),
      )}
    </>
  );
}

/**
 * Find in story: the browser's own find sees only the turns on screen, so this searches the whole
 * stored story and jumps to the match chosen.
 */
export function FindInStory() {
  const { dispatch, client } = useStory();
  const [words, setWords] = useState("");
  const [results, setResults] = useState<Results>({ state: "idle" });
  const onClose = () => dispatch({ type: "findClosed" });

  async function search(event: SyntheticEvent) {
    event.preventDefault();
    const query = words.trim();
    if (!query) return;
    setResults({ state: "searching" });
    const found = await client.search(query);
    setResults("error" in found ? { state: "failed", message: found.error } : { state: "found", words: query, matches: found.matches });
  }

  return (
    <section aria-label="Find in story" className="border-b border-ink-line bg-ink-raised/60 px-3 py-3 sm:px-4">
      <form role="search" onSubmit={(event) => void search(event)} className="flex items-center gap-2">
        <label htmlFor="find-in-story" className="sr-only">
          Words to find in your story
        </label>
        <input
          id="find-in-story"
          autoFocus
          type="search"
          value={words}
          maxLength={200}
          onChange={(event) => setWords(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") onClose();
          }}
          placeholder="Find words anywhere in your story"
          className="h-10 min-w-0 flex-1 rounded-full border border-ink-line bg-ink px-4 text-base text-parchment placeholder:text-parchment-dim/80 focus-visible:border-gold focus-visible:ring-2 focus-visible:ring-gold/40 focus-visible:outline-none"
        />
        <Button type="submit" size="sm" disabled={!words.trim() || results.state === "searching"}>
          {results.state === "searching" ? <Loader2 className="animate-spin" aria-hidden /> : <Search aria-hidden />}
          Find
        </Button>
        <Button type="button" variant="ghost" size="icon" className="size-9" aria-label="Close find" onClick={onClose}>
          <X aria-hidden />
        </Button>
      </form>
      {results.state === "failed" ? (
        <p role="alert" className="mt-2 text-sm text-parchment">
          {results.message}
        </p>
      ) : null}
      {results.state === "found" ? (
        <div className="mt-2">
          <p role="status" className="text-xs text-parchment-dim">
            {results.matches.length === 0
              ? `Nothing in your story matches ${quoted(results.words)}.`
              : `${results.matches.length === 50 ? "The first 50" : results.matches.length} ${results.matches.length === 1 ? "match" : "matches"} for ${quoted(results.words)}, oldest first.`}
          </p>
          {results.matches.length > 0 ? (
            <ol aria-label="Matches" className="mt-2 flex max-h-56 flex-col gap-1 overflow-y-auto overscroll-contain">
              {results.matches.map((match) => (
                <li key={`${match.exchange}-${match.role}`}>
                  <button
                    type="button"
                    onClick={() => void client.jumpTo(match)}
                    className="w-full rounded-lg px-3 py-2 text-left text-sm leading-snug text-parchment-dim hover:bg-gold/10 focus-visible:outline-2 focus-visible:outline-gold"
                  >
                    <span className="mr-2 text-xs font-semibold text-gold">
                      Turn {match.exchange} · {match.role === "user" ? "You" : "Game Master"}
                    </span>
                    <Snippet text={match.snippet} />
                  </button>
                </li>
              ))}
            </ol>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
