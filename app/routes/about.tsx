import { BookHeart, Crown, Feather, Lock, Radio, Scale, ShieldCheck, Sparkles } from "lucide-react";
import { Link } from "react-router";
import { PageHeader, PageSection, SectionHeading } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { breadcrumbJsonLd, pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import type { Route } from "./+types/about";

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ matches }) => {
  const { site } = matches[0].loaderData;
  return pageMeta(site, {
    title: `About ${site.name} — Our Mission and Technology`,
    description: `${site.name} makes interactive stories where you are the main character and an AI Game Master narrates every turn. Learn why we built it and how it works.`,
    path: "/about",
    jsonLd: [
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        { name: "About", path: "/about" },
      ]),
    ],
  });
};

const TECHNOLOGY = [
  {
    icon: Feather,
    title: "Worlds written by people",
    text: "Every game starts with writers: a setting, a cast with their own ambitions, rules for how the world pushes back. That material becomes the Game Master's briefing, so the story stays true to its world.",
  },
  {
    icon: Sparkles,
    title: "An AI Game Master",
    text: "A large language model takes that briefing and plays every other character. It reads your whole story so far, answers your move in a few vivid paragraphs and offers numbered choices when you want them.",
  },
  {
    icon: Radio,
    title: "Replies as they are written",
    text: "Replies stream onto your screen word by word, the way a storyteller speaks. Every finished exchange is saved the moment it ends, so closing the tab never costs you a turn.",
  },
  {
    icon: ShieldCheck,
    title: "Safe by design",
    text: "Content is sanitised before it reaches your browser, sessions live in secure cookies, and payments are handled by Stripe. We never see your card number.",
  },
] as const;

const VALUES = [
  {
    icon: Crown,
    title: "You are the protagonist",
    text: "The Game Master never decides what your character says, feels or does. It sets the stage; you make the moves.",
  },
  {
    icon: Scale,
    title: "Fair, simple pricing",
    text: `New players get ${STARTER_CREDITS} free credits, one message costs one credit, and credits never expire. No subscriptions, no surprise charges.`,
  },
  {
    icon: BookHeart,
    title: "Craft over quantity",
    text: "We would rather ship one world with real depth than ten thin ones. Each game gets a full story background, mechanics and guides before it launches.",
  },
  {
    icon: Lock,
    title: "Your stories are yours",
    text: "We collect only what the site needs to run and we do not sell data or show advertising. You can ask us to delete your account at any time.",
  },
] as const;

export default function About() {
  const { site } = useRootData();
  return (
    <>
      <PageHeader
        eyebrow={`About ${site.name}`}
        title="Stories where you hold the brush"
        description="We build interactive text adventures in which you are the main character and an AI Game Master brings the rest of the world to life: a court full of schemers, a sect full of rivals, a city full of cameras."
      />

      <section aria-labelledby="mission-heading" className="mx-auto max-w-4xl px-4 py-14 sm:px-6">
        <SectionHeading id="mission-heading" title="Our Mission" />
        <div className="space-y-5 text-lg text-parchment-dim">
          <p>
            Great stories have always been shared things: a storyteller by the fire, a game master behind a screen, friends taking turns. Books
            gave us worlds but took away the turns. Games gave us choices but usually only the ones a designer wrote in advance.
          </p>
          <p>
            {site.name} exists to bring the storyteller back. You say what your character does, in your own words, and the story answers — not with
            a branch someone prepared years ago, but with a reply written for this moment of your story. Our mission is to make that experience
            rich, welcoming and fair, whether you have ten minutes or a long evening.
          </p>
        </div>
      </section>

      <PageSection
        id="technology"
        tone="shaded"
        title="How It Works"
        description="The technology is there to serve the story. Here is what happens behind each turn."
      >
        <ul className="grid gap-6 md:grid-cols-2">
          {TECHNOLOGY.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-5 rounded-[var(--radius-card)] border border-ink-line bg-ink p-6">
              <span aria-hidden className="grid size-11 shrink-0 place-items-center rounded-full border border-gold/60 text-gold">
                <Icon className="size-5" strokeWidth={1.75} />
              </span>
              <div>
                <h3 className="text-2xl text-parchment">{title}</h3>
                <p className="mt-2 text-parchment-dim">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection id="values" title="What We Stand For">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {VALUES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6">
              <Icon className="size-6 text-gold" strokeWidth={1.75} aria-hidden />
              <h3 className="mt-4 text-xl text-parchment">{title}</h3>
              <p className="mt-2 text-sm text-parchment-dim">{text}</p>
            </li>
          ))}
        </ul>
      </PageSection>

      <section aria-labelledby="about-cta-heading" className="border-t border-ink-line bg-gradient-to-b from-ink to-plum/25">
        <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-16 text-center">
          <h2 id="about-cta-heading" className="text-4xl text-parchment">
            Come and play
          </h2>
          <p className="mt-4 text-lg text-parchment-dim">
            We are a small team with a long list of worlds still to write. Tell us what you would like to play next.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-4">
            <Button asChild size="lg">
              <Link to="/games">Browse Games</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/contact">Contact Us</Link>
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}
