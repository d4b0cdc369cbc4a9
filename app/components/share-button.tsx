import { Share2 } from "lucide-react";
import { toast } from "#app/components/toast.ts";
import { Button } from "./ui/button.tsx";

/** Shares a page with the device's share sheet, or copies its link where there is none. */
export function ShareButton({ title, url }: { title: string; url: string }) {
  async function share() {
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title, url });
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") return;
        toast.error("Sharing failed. You can copy the address from your browser instead.");
      }
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      toast.success("Link copied to your clipboard");
    } catch {
      toast.error("Could not copy the link. You can copy the address from your browser instead.");
    }
  }
  return (
    <Button type="button" variant="outline" size="sm" onClick={share}>
      <Share2 aria-hidden />
      Share
    </Button>
  );
}
