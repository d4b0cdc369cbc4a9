/** What every page needs to know about the site and the visitor; the root loader provides it. */
export interface SiteInfo {
  name: string;
  supportEmail: string;
  publicUrl: string;
}

/** The demo mailbox's page (app/routes/dev-mailbox.tsx); a site that sends its mail has none. */
export const DEMO_MAILBOX_PATH = "/dev/mailbox";

export interface ViewerInfo {
  id: string;
  email: string;
  credits: number;
  isAdmin: boolean;
  /** Moderators and admins: the header links to /moderation. */
  isModerator: boolean;
}

export interface RootData {
  site: SiteInfo;
  viewer: ViewerInfo | null;
  /** The demo keeps the mail it would send in its demo mailbox (DEMO_MAILBOX_PATH) instead of sending it. */
  demoMailbox: boolean;
}

export const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/games", label: "Games" },
  { to: "/guides", label: "Guides" },
  { to: "/credits", label: "Credits" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
] as const;

export const POPULAR_GAMES = [
  { slug: "empress-simulator", title: "Empress Simulator" },
  { slug: "cultivation-simulator", title: "Cultivation Simulator" },
  { slug: "celebrity-life", title: "Celebrity Life" },
] as const;

export function formatCredits(credits: number) {
  return `${credits} Credits`;
}

/** A number of credits inside a sentence: "1 credit", "3 credits". */
export function creditsInWords(credits: number) {
  return `${credits.toLocaleString("en-US")} ${credits === 1 ? "credit" : "credits"}`;
}
