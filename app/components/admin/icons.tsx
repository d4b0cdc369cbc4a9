import {
  BookMarked,
  BookOpen,
  Castle,
  Compass,
  Crown,
  Globe,
  GraduationCap,
  Heart,
  Lightbulb,
  MessagesSquare,
  Scroll,
  Shield,
  Sparkles,
  Star,
  Sword,
  Swords,
  Target,
  TrendingUp,
  Trophy,
  UserRound,
  Users,
  Wand2,
  Zap,
  type LucideIcon,
} from "lucide-react";
import type { ContentType, GameIcon } from "#app/lib/constants.ts";

/** SPEC's icon names are lucide's. */
export const GAME_ICON_COMPONENTS: Record<GameIcon, LucideIcon> = {
  Crown,
  Users,
  GraduationCap,
  Sword,
  Castle,
  Star,
  Heart,
  Zap,
  Sparkles,
  Trophy,
  Shield,
  Wand2,
};

/** A game's icon by its stored name; Crown (the default) for a name that is not one of SPEC's. */
export function GameIconGlyph({ name, className }: { name: string; className?: string }) {
  const Icon = Object.hasOwn(GAME_ICON_COMPONENTS, name) ? GAME_ICON_COMPONENTS[name as GameIcon] : Crown;
  return <Icon className={className} strokeWidth={1.75} aria-hidden />;
}

export const CONTENT_TYPE_ICONS: Record<ContentType, LucideIcon> = {
  introduction: BookOpen,
  story_background: Scroll,
  character_development: UserRound,
  world_setting: Globe,
  combat_mechanics: Swords,
  dialogue_system: MessagesSquare,
  character_progression: TrendingUp,
  beginner_tips: Lightbulb,
  advanced_strategies: Target,
  community_insights: Users,
  strategy_guide: Compass,
  pro_tips: BookMarked,
};

/** Select options that show each name's icon beside its label. */
export function iconOptions<Name extends string>(icons: Record<Name, LucideIcon>, names: readonly Name[], label: (name: Name) => string) {
  return names.map((name) => {
    const Icon: LucideIcon = icons[name];
    return {
      value: name,
      label: (
        <span className="inline-flex items-center gap-2">
          <Icon className="size-4 text-gold" aria-hidden />
          {label(name)}
        </span>
      ),
    };
  });
}

/** "story_background" → "Story Background". */
export function contentTypeLabel(type: string): string {
  return type
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}
