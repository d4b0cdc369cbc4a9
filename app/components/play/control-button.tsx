import { useId } from "react";

/** A small story control: its name for everyone, its cost or effect as its description. */
export function ControlButton({
  label,
  description,
  icon,
  onClick,
  disabled,
}: {
  label: string;
  description: string;
  icon: React.ReactNode;
  onClick: () => void;
  disabled?: boolean;
}) {
  const descriptionId = useId();
  return (
    <>
      <button
        type="button"
        onClick={onClick}
        disabled={disabled}
        title={description}
        aria-describedby={descriptionId}
        className="inline-flex min-h-8 items-center gap-1 rounded-full px-2 text-xs font-medium text-parchment-dim transition-colors hover:bg-gold/10 hover:text-gold focus-visible:outline-2 focus-visible:outline-gold disabled:opacity-50 [&_svg]:size-3.5"
      >
        {icon}
        {label}
      </button>
      <span id={descriptionId} className="sr-only">
        {description}
      </span>
    </>
  );
}
