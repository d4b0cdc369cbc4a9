import {
  Castle,
  Crown,
  Gamepad2,
  GraduationCap,
  Heart,
  Shield,
  Sparkles,
  Star,
  Sword,
  Trophy,
  Users,
  Wand2,
  Zap,
  type LucideIcon,
  type LucideProps,
} from "lucide-react";
import { createElement } from "react";
import type { GameIcon as GameIconName } from "#app/lib/constants.ts";
import { cn } from "#app/lib/utils.ts";

const ICONS: Record<GameIconName, LucideIcon> = {
  Crown,
  Sparkles,
  Sword,
  Star,
  Users,
  GraduationCap,
  Castle,
  Zap,
  Trophy,
  Shield,
  Wand2,
  Heart,
};

function isIconName(name: string): name is GameIconName {
  return Object.hasOwn(ICONS, name);
}

/** The bare icon of a game by its SPEC name (the generated cover draws its own ring). */
export function GameIconSvg({ name, ...props }: { name: string } & LucideProps) {
  return createElement(isIconName(name) ? ICONS[name] : Gamepad2, props);
}

/** A game's icon by its SPEC name, in a gold-ringed circle; unknown names fall back to a game pad. */
export function GameIcon({ name, size = "md", className }: { name: string; size?: "md" | "lg"; className?: string }) {
  const Icon = isIconName(name) ? ICONS[name] : Gamepad2;
  return (
    <span
      aria-hidden
      className={cn(
        "grid shrink-0 place-items-center rounded-full border border-gold/60 bg-ink text-gold",
        size === "lg" ? "size-20 [&_svg]:size-10" : "size-12 [&_svg]:size-6",
        className,
      )}
    >
      <Icon strokeWidth={1.75} />
    </span>
  );
}
