import { midSentence } from "./names.server.ts";
import { called, challengePhrase, fill, nth, peopleAround, Teller } from "./teller.server.ts";
import type { Entity } from "./world.server.ts";

/** The numbered choices a reply ends with. */

// Choices, each told the way the player would type it (imperative, no Markdown).
const TALK_CHOICES = [
  "Invite {person} to {here} for a private word.",
  "Send {person} a note about {trouble}.",
  "Offer {person} a favour against {trouble}.",
  "Ask {person} what {someone} wants from you.",
  "Keep {person} close, and watch {someone}.",
  "Confront {person} about {trouble}.",
  "Thank {person} in front of {someone}.",
];
const ASK_CHOICES = ["Ask {person} about {topic}.", "Ask {person} the truth of {topic}."];
const ASK_TROUBLE_CHOICES = ["Ask {person} who gains from {trouble}.", "Ask {person} how to face {trouble}."];
const PLACE_CHOICES = [
  "Go to {place} and see if {someone} is there.",
  "Withdraw to {place} to think.",
  "Go openly to {place}.",
  "Slip past {someone} to {place}.",
];
const LOOK_CHOICES = ["Watch {place} closely, and {someone} too.", "Search {place} for what {someone} hid."];
const GROUP_CHOICES = ["Sound out {group} quietly.", "Make a gesture {group} cannot ignore.", "Find out what {group} want."];
const CHALLENGE_CHOICES = [
  "Deal with {challenge} now.",
  "Ask {someone} to account for {challenge}.",
  "Hand {challenge} to {someone}, blame and all.",
  "Throw money at {challenge}.",
];
const STEADY_CHOICES = [
  "Press your advantage before {someone} does.",
  "Wait, and let {someone} move first.",
  "Rest in {here} a while.",
  "Go over {trouble} with {someone}.",
];

// ---------------------------------------------------------------------------------------------
// Choices

/** Choices offered per reply. */
const CHOICES_OFFERED = 5;
/** Fewer than this, and the reply offers choices it offered recently rather than too few. */
const MIN_CHOICES = 3;
/** Other ways of filling the slots tried, when the first offers what a recent reply already did. */
const CHOICE_ROUNDS = 12;

/** Choices for this reply: none the replies the player just read offered (`recent`), the person in focus first. */
export function choicesFor(teller: Teller, focus: Entity | undefined, recent: readonly string[]): string[] {
  const chosen: string[] = [];
  const offset = teller.story.turn + teller.variant * 5;
  for (let round = 0; round < CHOICE_ROUNDS && chosen.length < CHOICES_OFFERED; round += 1) {
    for (const choice of candidateChoices(teller, round === 0 ? focus : undefined, offset + round * 11)) {
      if (chosen.length < CHOICES_OFFERED && !recent.includes(choice) && !chosen.includes(choice)) chosen.push(choice);
    }
  }
  // A world with little to offer: fewer fresh choices than a reply needs, so older ones come back.
  const pool = [...candidateChoices(teller, focus, offset), ...STEADY_CHOICES.map((choice) => fill(choice, teller.values({})))];
  for (const choice of pool) if (chosen.length < MIN_CHOICES && !chosen.includes(choice)) chosen.push(choice);
  return chosen;
}

function candidateChoices(teller: Teller, focus: Entity | undefined, turn: number): string[] {
  const { world, story } = teller;
  // People the player could reach from here; a topic may be anyone.
  const people = peopleAround(world, story.place);
  const first = focus ?? nth(people, turn);
  const second = nth(
    people.filter((person) => person !== first),
    turn * 2 + 1,
  );
  const topics = [
    ...world.challenges.map(challengePhrase),
    ...world.people.filter((person) => person !== second).map(called),
    ...world.places.map((place) => midSentence(place.name)),
  ];
  const otherPlaces = world.places.filter((place) => place.name !== story.place?.name);
  const slots: (() => string | undefined)[] = [
    () => (first ? fill(nth(TALK_CHOICES, turn) ?? "", teller.values({ person: called(first) })) : undefined),
    () => {
      if (!second || topics.length === 0) return undefined;
      const topic = nth(topics, turn * 3) ?? "";
      const trouble = world.challenges.map(challengePhrase).includes(topic);
      return trouble && turn % 2 === 1
        ? fill(nth(ASK_TROUBLE_CHOICES, turn) ?? "", teller.values({ person: called(second), trouble: topic }))
        : fill(nth(ASK_CHOICES, turn) ?? "", teller.values({ person: called(second), topic }));
    },
    () => {
      const place = nth(otherPlaces, turn * 5 + 2);
      return place ? fill(nth(PLACE_CHOICES, turn + 1) ?? "", teller.values({ place: midSentence(place.name) })) : undefined;
    },
    () => {
      const challenge = nth(world.challenges, turn + 1);
      const group = nth(world.groups, turn);
      if (challenge && (turn % 2 === 0 || !group))
        return fill(nth(CHALLENGE_CHOICES, Math.floor(turn / 2)) ?? "", teller.values({ challenge: challengePhrase(challenge) }));
      return group ? fill(nth(GROUP_CHOICES, Math.floor(turn / 2)) ?? "", teller.values({ group: midSentence(group.name) })) : undefined;
    },
    () =>
      story.place && turn % 3 === 0 ? fill(nth(LOOK_CHOICES, turn) ?? "", teller.values({ place: midSentence(story.place.name) })) : undefined,
    () => fill(nth(STEADY_CHOICES, turn) ?? "", teller.values({})),
  ];
  return slots.map((slot) => slot()).filter((choice): choice is string => choice !== undefined);
}
