import { useId } from "react";

/**
 * What the tools under every reply do, the same for each reply: written once beside the story
 * (SharedToolDescriptions) and named by id, so a window of 150 replies does not carry 450 copies.
 */
const SHARED_TOOL_DESCRIPTIONS = {
  remember: "Keep words of this reply as a lore entry or a pinned fact: select them first, or keep the whole reply.",
  branch: "Begin a new story that shares this one up to this reply; this story is kept as it is. Free.",
  context: "Every part of the context this reply was written from, with its tokens, and what the call cost.",
} as const;
type SharedTool = keyof typeof SHARED_TOOL_DESCRIPTIONS;

const sharedDescriptionId = (tool: SharedTool) => `reply-tool-description-${tool}`;

/** The shared descriptions, rendered once with the story's log. */
export function SharedToolDescriptions() {
  return (
    <div hidden>
      {Object.entries(SHARED_TOOL_DESCRIPTIONS).map(([tool, text]) => (
        <span key={tool} id={sharedDescriptionId(tool as SharedTool)}>
          {text}
        </span>
      ))}
    </div>
  );
}

/** Its own description (a cost that changes with the story), or one every reply's tool shares. */
type Description = { description: string; sharedDescription?: never } | { sharedDescription: SharedTool; description?: never };

/** A small story control: its name for everyone, its cost or effect as its description. */
export function ControlButton({
  label,
  icon,
  onClick,
  disabled,
  ...described
}: {
  label: string;
  icon: React.ReactNode;
  onClick: () => void;
  disabled?: boolean;
} & Description) {
  const ownDescriptionId = useId();
  const shared = described.sharedDescription;
  const description = shared ? SHARED_TOOL_DESCRIPTIONS[shared] : described.description;
  return (
    <>
      <button
        type="button"
        onClick={onClick}
        disabled={disabled}
        title={description}
        aria-describedby={shared ? sharedDescriptionId(shared) : ownDescriptionId}
        className="inline-flex min-h-8 items-center gap-1 rounded-full px-2 text-xs font-medium text-parchment-dim transition-colors hover:bg-gold/10 hover:text-gold focus-visible:outline-2 focus-visible:outline-gold disabled:opacity-50 [&_svg]:size-3.5"
      >
        {icon}
        {label}
      </button>
      {shared ? null : (
        <span id={ownDescriptionId} className="sr-only">
          {description}
        </span>
      )}
    </>
  );
}
