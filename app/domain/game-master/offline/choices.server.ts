import { midSentence } from "./names.server.ts";
import {
  ASK_CHOICES,
  ASK_TROUBLE_CHOICES,
  CHALLENGE_CHOICES,
  GROUP_CHOICES,
  LOOK_CHOICES,
  PLACE_CHOICES,
  STEADY_CHOICES,
  TALK_CHOICES,
} from "./phrases.server.ts";
import { called, challengePhrase, fill, nth, peopleAround, Teller } from "./teller.server.ts";
import type { Entity } from "./world.server.ts";

/** The numbered choices a reply ends with. */

// ---------------------------------------------------------------------------------------------
// Choices

export function choicesFor(teller: Teller, focus: Entity | undefined, previous: string[]): string[] {
  const { world, story } = teller;
  const turn = story.turn + teller.variant * 5;
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
    () => (first ? fill(nth(TALK_CHOICES, turn) ?? "", { person: called(first) }) : undefined),
    () => {
      if (!second || topics.length === 0) return undefined;
      const topic = nth(topics, turn * 3) ?? "";
      const trouble = world.challenges.map(challengePhrase).includes(topic);
      return trouble && turn % 2 === 1
        ? fill(nth(ASK_TROUBLE_CHOICES, turn) ?? "", { person: called(second), trouble: topic })
        : fill(nth(ASK_CHOICES, turn) ?? "", { person: called(second), topic });
    },
    () => {
      const place = nth(otherPlaces, turn * 5 + 2);
      return place ? fill(nth(PLACE_CHOICES, turn + 1) ?? "", { place: midSentence(place.name) }) : undefined;
    },
    () => {
      const challenge = nth(world.challenges, turn + 1);
      const group = nth(world.groups, turn);
      if (challenge && (turn % 2 === 0 || !group))
        return fill(nth(CHALLENGE_CHOICES, Math.floor(turn / 2)) ?? "", { challenge: challengePhrase(challenge) });
      return group ? fill(nth(GROUP_CHOICES, Math.floor(turn / 2)) ?? "", { group: midSentence(group.name) }) : undefined;
    },
    () => (story.place && turn % 3 === 0 ? fill(nth(LOOK_CHOICES, turn) ?? "", { place: midSentence(story.place.name) }) : undefined),
    () => nth(STEADY_CHOICES, turn),
  ];
  let choices = [...new Set(slots.map((slot) => slot()).filter((choice): choice is string => choice !== undefined))];
  if (choices.length > 5) choices = choices.filter((_choice, index) => index !== (turn % 2 === 0 ? 4 : 3));
  for (const extra of STEADY_CHOICES) if (choices.length < 3 && !choices.includes(extra)) choices.push(extra);
  // The same list twice in a row reads as a stuck story.
  if (choices.join("\n") === previous.join("\n") && choices.length > 1) choices = [...choices.slice(1), choices[0] ?? ""];
  return choices.slice(0, 6);
}
