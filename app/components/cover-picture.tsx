import { coverImage, type CoverSubject } from "#app/lib/covers.ts";
import { cn } from "#app/lib/utils.ts";

/** A catalogue card: full width below 768 px, half from 768 px, a third of the 72rem column from 1024 px. */
export const CARD_COVER_SIZES = "(min-width: 1024px) 360px, (min-width: 768px) calc(50vw - 40px), calc(100vw - 34px)";

/**
 * A game's cover (docs/decisions/033): AVIF and WebP at every stored width for an upload, the
 * generated SVG otherwise. Width and height are set so nothing moves when it arrives; below the
 * fold it loads lazily, and the one picture a page leads with (`priority`) loads first.
 */
export function CoverPicture({
  game,
  sizes,
  priority = false,
  className,
}: {
  game: CoverSubject;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  const cover = coverImage(game);
  const image = (
    <img
      src={cover.src}
      alt=""
      width={cover.width}
      height={cover.height}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding={priority ? "sync" : "async"}
      className={cn("block aspect-video h-auto w-full bg-ink object-cover", className)}
      data-testid="game-cover"
    />
  );
  if (cover.kind === "art") return image;
  return (
    <picture>
      <source type="image/avif" srcSet={cover.avif} sizes={sizes} />
      <source type="image/webp" srcSet={cover.webp} sizes={sizes} />
      {image}
    </picture>
  );
}
