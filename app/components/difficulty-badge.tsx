import type { Difficulty } from "#app/lib/constants.ts";
import { Badge } from "./ui/badge.tsx";

/** SPEC: Beginner green, Intermediate gold, Advanced red in lists; on the game page Intermediate is purple. */
const VARIANTS = {
  list: { Beginner: "beginner", Intermediate: "intermediate", Advanced: "advanced" },
  detail: { Beginner: "beginner", Intermediate: "intermediate-detail", Advanced: "advanced" },
} as const;

export function DifficultyBadge({
  difficulty,
  tone = "list",
  className,
}: {
  difficulty: Difficulty;
  tone?: "list" | "detail";
  className?: string;
}) {
  return (
    <Badge variant={VARIANTS[tone][difficulty]} className={className} data-difficulty={difficulty}>
      {difficulty}
    </Badge>
  );
}
