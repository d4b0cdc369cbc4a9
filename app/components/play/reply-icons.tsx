import { Bookmark, Crown, GitBranch, ScanEye, ThumbsDown, ThumbsUp, Volume2, type LucideIcon } from "lucide-react";

/**
 * The icons every reply repeats (its avatar and its tools), drawn once in a sprite beside the
 * story and shown by reference: two elements an icon instead of up to seven, about 1,800 fewer on a
 * page of 150 replies. Icons a single control shows (Retry, Undo…) stay lucide's own.
 */
const REPLY_ICONS = {
  crown: Crown,
  "read-aloud": Volume2,
  remember: Bookmark,
  branch: GitBranch,
  context: ScanEye,
  good: ThumbsUp,
  bad: ThumbsDown,
} satisfies Record<string, LucideIcon>;
type ReplyIconName = keyof typeof REPLY_ICONS;

const symbolId = (name: ReplyIconName) => `reply-icon-${name}`;

/** The sprite, rendered once with the story's log; its symbols draw nothing until referenced. */
export function ReplyIconSprite() {
  return (
    <svg aria-hidden width="0" height="0" className="absolute">
      {Object.entries(REPLY_ICONS).map(([name, Icon]) => (
        <symbol key={name} id={symbolId(name as ReplyIconName)} viewBox="0 0 24 24">
          <Icon strokeWidth={name === "crown" ? 1.75 : 2} />
        </symbol>
      ))}
    </svg>
  );
}

/** One of the sprite's icons, sized by its container as lucide's are. */
export function ReplyIcon({ name, className }: { name: ReplyIconName; className?: string }) {
  return (
    <svg aria-hidden width="24" height="24" viewBox="0 0 24 24" className={className}>
      <use href={`#${symbolId(name)}`} />
    </svg>
  );
}
