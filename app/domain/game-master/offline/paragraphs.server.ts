import type { PlayerAction } from "./action.server.ts";
import { clockAt } from "./continuity.server.ts";
import { answerTo } from "./memory.server.ts";
import { mentioned } from "./mentions.server.ts";
import { midSentence } from "./names.server.ts";
import { FRAMES, LORE_LEADS } from "./phrases.server.ts";
import {
  between,
  called,
  capitalise,
  challengePhrase,
  confidant,
  fill,
  hash,
  nth,
  peopleAround,
  peopleAt,
  pick,
  sentencesAbout,
  spoken,
  standsAlone,
  Teller,
} from "./teller.server.ts";
import { playerAsYou, splitSentences } from "./text.server.ts";
import { statement } from "./knowledge.server.ts";
import type { Entity, World } from "./world.server.ts";

/** The paragraphs of a reply, one per kind of action, each a sentence of the world framed by two phrases. */

const TALK_FRAMES = { neutral: FRAMES.talkNeutral, kind: FRAMES.talkKind, harsh: FRAMES.talkHarsh };

// ---------------------------------------------------------------------------------------------
// The paragraphs

export function answerParagraph(teller: Teller, action: PlayerAction, subjectEntity: Entity | undefined, speaker: Entity | undefined) {
  // "What are the maids whispering about me?" is about the player, not someone called "Me".
  const asked = /^(?:me|you|him|her|it|us|them|myself|yourself)$/i.test(action.subject ?? "") ? undefined : action.subject;
  const subject = subjectEntity ? called(subjectEntity) : (asked ?? "");
  const knowledge = teller.knowledgeAbout(subjectEntity, asked);
  // Who else might know changes from turn to turn, so each answer that knows nothing points somewhere new.
  const other = nth(
    teller.world.people.filter((person) => person !== speaker && person !== subjectEntity),
    teller.story.turn + teller.variant,
  );
  const lead = action.told ? `${action.told} ` : "";
  if (!speaker) {
    // A world without people: the answer comes from what the player sees and hears.
    if (knowledge.length === 0) {
      return teller.frame(`nobody\n${subject}`, FRAMES.nobody, (opener, closer) =>
        [lead + fill(opener, teller.values({ subject: subject || "that" })), fill(closer, teller.values({}))].join(" ").trim(),
      );
    }
    return teller.frame(`recall\n${subject}`, FRAMES.recall, (opener, closer) =>
      [lead + fill(opener, teller.values({ subject: subject || "it" })), ...knowledge, fill(closer, teller.values({}))].join(" "),
    );
  }
  const who = teller.who(speaker, lead);
  if (knowledge.length === 0) {
    return teller.frame(`unknown\n${subject}\n${who}`, FRAMES.unknown, (opener, closer) =>
      [
        // A question with no subject to echo ("Will you support my regency?") is echoed as "That".
        lead +
          fill(
            opener,
            teller.values({ who, subject: capitalise(subject.replace(/^(the|a|an)\s+/i, (article) => article.toLowerCase()) || "that") }),
          ),
        fill(closer, teller.values({ who, other: other ? called(other) : "someone older than me", otherFact: factOf(teller, other) })),
      ]
        .join(" ")
        .replace(/\s+”/g, "”"),
    );
  }
  const said = spoken(knowledge);
  const echo = subject && !said.toLowerCase().startsWith(subject.toLowerCase()) ? `${capitalise(subject)}{, you}? ` : "";
  return teller.frame(`answer\n${subject}\n${who}\n${said}`, FRAMES.answer, (opener, closer) =>
    [lead + fill(opener, teller.values({ who })), `“${fill(echo, teller.values({}))}${said} ${fill(closer, teller.values({ who }))}”`].join(" "),
  );
}

/**
 * A pinned fact or something the player said earlier, brought back by whoever is asked, who
 * answers what was asked (answerTo), or by the player's own memory, whole.
 */
export function memoryParagraph(teller: Teller, action: PlayerAction, remembered: string, speaker: Entity | undefined) {
  const lead = action.told ? `${action.told} ` : "";
  if (!speaker) return `${lead}${remembered}`;
  const who = teller.who(speaker, lead);
  const tag = nth([`says ${who}`, `${who} answers`, `${who} reminds you`], teller.story.turn) ?? "";
  return `${lead}“${answerTo(action.text, remembered).replace(/[.!?]$/, "")},” ${tag}.`;
}

/** Who the player is, as the opening said it, and the name they gave. */
export function selfParagraph(teller: Teller, speaker: Entity | undefined, name: string | undefined) {
  const opening = teller.world.opening ?? "";
  const youAre = splitSentences(opening).find((sentence) => /\byou are\b/i.test(sentence));
  const role = teller.world.player.role;
  const said = [name ? `Your name is ${name}.` : "", youAre ?? (role ? `You are ${role}.` : "")].filter(Boolean).join(" ");
  if (!said) return undefined;
  const quoted = spoken([said]);
  if (!speaker)
    return teller.frame(`self\n${said}`, FRAMES.recall, (opener, closer) =>
      [fill(opener, teller.values({ subject: "yourself" })), said, fill(closer, teller.values({}))].join(" "),
    );
  return teller.frame(`self\n${called(speaker)}\n${said}`, FRAMES.answer, (opener, closer) =>
    [fill(opener, teller.values({ who: called(speaker) })), `“${quoted} ${fill(closer, teller.values({ who: called(speaker) }))}”`].join(" "),
  );
}

export function recallParagraph(teller: Teller, action: PlayerAction, subjectEntity: Entity | undefined) {
  const subject = subjectEntity ? called(subjectEntity) : (action.subject ?? "");
  const knowledge = teller.knowledgeAbout(subjectEntity, action.subject);
  if (knowledge.length === 0) {
    const speaker = confidant(teller.world);
    return answerParagraph(teller, { ...action, kind: "question" }, subjectEntity, speaker);
  }
  return teller.frame(`recall\n${subject}`, FRAMES.recall, (opener, closer) =>
    [fill(opener, teller.values({ subject: midSentence(subject) })), ...knowledge, fill(closer, teller.values({}))].join(" "),
  );
}

/** What a confidant would tell the player to see to first: a trouble, else a power, else a place worth knowing. */
function pressingMatter(teller: Teller): Entity | undefined {
  const { world } = teller;
  const known = (entities: Entity[]) => entities.filter((entity) => teller.knowledgeAbout(entity, undefined, { limit: 1 }).length > 0);
  const candidates = [known(world.challenges), known(world.groups), known(world.places)].find((list) => list.length > 0) ?? [];
  return nth(candidates, teller.story.turn + teller.variant);
}

export function adviceParagraph(teller: Teller, action: PlayerAction, speaker: Entity | undefined) {
  const matter = pressingMatter(teller);
  if (!speaker || !matter) return actParagraphs(teller, action)[0] ?? "";
  const who = called(speaker);
  const about = teller.knowledgeAbout(matter, undefined, { limit: 1, unasked: true });
  const lead = action.told ? `${action.told} ` : "";
  return teller.frame(`advice\n${matter.name}\n${who}`, FRAMES.advice, (opener, closer) =>
    [lead + fill(opener, teller.values({ who, challenge: challengePhrase(matter) })), ...about, fill(closer, teller.values({ who }))].join(" "),
  );
}

export function talkParagraph(teller: Teller, action: PlayerAction, person: Entity) {
  const who = teller.who(person, action.told);
  const about = teller.knowledgeAbout(person, undefined, { limit: 1, vivid: true, centralOnly: true, unasked: true });
  return teller.frame(`talk\n${called(person)}\n${action.text}`, TALK_FRAMES[action.tone], (opener, line) =>
    [action.told ?? "", fill(opener, teller.values({ who })), ...about, fill(line, teller.values({ who }))].filter(Boolean).join(" "),
  );
}

export function arrivalParagraph(teller: Teller, action: PlayerAction, place: Entity) {
  const { watch } = clockAt(teller.world, teller.story.turn);
  const about = teller.knowledgeAbout(place, undefined, { limit: 1, unasked: true });
  const present = peopleAt(teller.world, place);
  const person = nth(present.length > 0 ? present : peopleAround(teller.world, place), teller.story.turn);
  const aboutText = [action.told ?? "", ...about].join(" ");
  return teller.frame(`arrive\n${place.name}\n${action.text}`, FRAMES.arrival, (opener, presence) =>
    [
      action.told ?? "",
      fill(opener, teller.values({ place: midSentence(place.name), watch })),
      ...about,
      person ? fill(presence, teller.values({ who: teller.who(person, aboutText) })) : "",
    ]
      .filter(Boolean)
      .join(" "),
  );
}

export function discoveryParagraph(teller: Teller, action: PlayerAction) {
  const named = action.person ?? action.place ?? action.group ?? action.challenge;
  // What the player names is what they look into; the place they happen to be in is offered like any fact nobody asked for.
  let about = teller.knowledgeAbout(named ?? teller.story.place, undefined, { limit: 1, vivid: true, freshOnly: true, unasked: !named });
  if (about.length === 0) {
    // Nothing new about what the player looks at: something else the world knows comes to light.
    const unseen = teller.world.knowledge.filter(
      (sentence) =>
        !teller.said(sentence) && standsAlone(sentence) && !/^You\b/.test(sentence) && !/^\w+(?: \w+)? (?:he|she|they|it)\b/.test(sentence),
    );
    // One whose chance this is first (offeredAt): a reply the storyteller can no longer see may have told the others.
    const offered = unseen.filter((sentence) => teller.mayOffer(sentence));
    const found = nth([offered, unseen, teller.world.knowledge].find((list) => list.length > 0) ?? [], teller.story.turn + hash(action.text));
    about = found ? [found] : teller.knowledgeAbout(named ?? teller.story.place, undefined, { limit: 1 });
  }
  return teller.frame(`discover\n${about.join(" ")}\n${action.text}`, FRAMES.discovery, (opener, closer) =>
    [action.told ?? "", fill(opener, teller.values({})), ...about, fill(closer, teller.values({}))].filter(Boolean).join(" "),
  );
}

export function restParagraph(teller: Teller, action: PlayerAction) {
  const { watch, nextWatch } = clockAt(teller.world, teller.story.turn);
  return teller.frame(`rest\n${action.text}`, FRAMES.rest, (opener, closer) =>
    [action.told ?? "", fill(opener, teller.values({ watch })), fill(closer, teller.values({ nextWatch }))].filter(Boolean).join(" "),
  );
}

/** Something said or waited out, and how someone present takes it: `speech` is answered aloud. */
export function reactionParagraph(teller: Teller, action: PlayerAction, key: "speech" | "wait") {
  const person = action.person ?? pickPerson(teller);
  const other = teller.world.people.find((candidate) => candidate !== person);
  if (!person) {
    return teller.frame(`${key}\n${action.text}`, key === "speech" ? FRAMES.speechAlone : FRAMES.waitAlone, (opener, outcome) =>
      [action.told ?? "", fill(opener, teller.values({ who: "someone" })), fill(outcome, teller.values({}))].filter(Boolean).join(" "),
    );
  }
  return teller.frame(`${key}\n${action.text}\n${person.name}`, key === "speech" ? FRAMES.speech : FRAMES.wait, (opener, closer) => {
    const first = fill(opener, teller.values({ who: teller.who(person, action.told) }));
    const before = `${action.told ?? ""} ${first}`;
    const second = fill(closer, teller.values({ who: teller.who(person, before), other: other ? called(other) : "the others" }));
    return [action.told ?? "", first, second].filter(Boolean).join(" ");
  });
}

export function actParagraphs(teller: Teller, action: PlayerAction): string[] {
  const paragraphs: string[] = [];
  if (action.kind === "challenge" && action.challenge) {
    const about = teller.knowledgeAbout(action.challenge, undefined, { limit: 1, unasked: true });
    const person = pickPerson(teller);
    const other = teller.world.people.find((candidate) => candidate !== person);
    paragraphs.push(
      teller.frame(`challenge\n${action.challenge.name}\n${action.text}`, FRAMES.act, (outcome, reaction) =>
        [
          action.told ?? "",
          ...about,
          fill(outcome, teller.values({ who: person ? called(person) : undefined })),
          person ? fill(reaction, teller.values({ who: called(person), other: other ? called(other) : "the others" })) : "",
        ]
          .filter(Boolean)
          .join(" "),
      ),
    );
    return paragraphs;
  }
  const person = action.person ?? pickPerson(teller);
  const other = teller.world.people.find((candidate) => candidate !== person);
  paragraphs.push(
    teller.frame(`act\n${action.text}\n${person?.name ?? ""}`, FRAMES.act, (outcome, reaction) =>
      [
        action.told ?? "",
        fill(outcome, teller.values({ who: person ? called(person) : undefined })),
        person ? fill(reaction, teller.values({ who: called(person), other: other ? called(other) : "the others" })) : "",
      ]
        .filter(Boolean)
        .join(" "),
    ),
  );
  return paragraphs;
}

/** A line the player wrote as narration (Story mode): it happened, as they wrote it, and someone present takes it in. */
export function narrationParagraph(teller: Teller, action: PlayerAction) {
  const person = action.person ?? pickPerson(teller);
  const other = teller.world.people.find((candidate) => candidate !== person);
  const told = action.told ?? action.text;
  if (!person) return told;
  return teller.frame(`narration\n${action.text}\n${person.name}`, FRAMES.act, (_outcome, reaction) =>
    [told, fill(reaction, teller.values({ who: teller.who(person, told), other: other ? called(other) : "the others" }))].join(" "),
  );
}

/** Lore fired by the turn's words ("The Jade Seal: the seal that makes an edict law…"): what its entries say that no visible reply has. */
export function loreParagraphOf(teller: Teller, entries: readonly string[], focus: Entity | undefined) {
  const told = entries.flatMap((entry) => {
    const split = /^([^:]{1,80}):\s+([\s\S]+)$/.exec(entry.trim());
    const title = split?.[1]?.trim() ?? "";
    // "The Drowned Bell: a bronze bell that…" reads as "The Drowned Bell is a bronze bell that…".
    const [first = "", ...rest] = splitSentences(playerAsYou(split?.[2] ?? entry));
    const opening = title && /^[a-z]/.test(first) ? (statement({ name: title, detail: first }) ?? first) : first;
    const sentences = [opening, ...rest].filter((sentence) => sentence && !teller.said(sentence));
    return sentences.length > 0 ? [{ title, said: sentences.slice(0, 2).join(" ") }] : [];
  });
  const first = told[0];
  if (!first) return undefined;
  const lead = fill(
    nth(LORE_LEADS, teller.story.turn + teller.variant) ?? "",
    teller.values({ title: midSentence(first.title) || "it", who: focus ? called(focus) : undefined }),
  );
  return [lead, first.said, ...told.slice(1, 2).map(({ said }) => said)].join(" ");
}

export function nameParagraph(teller: Teller, name: string) {
  const person = confidant(teller.world);
  const who = person ? called(person) : "The nearest listener";
  return teller.frame(`name\n${name}`, FRAMES.name, (opener, closer) =>
    [fill(opener, teller.values({ who, name })), fill(closer, teller.values({ who }))].join(" "),
  );
}

export function pressureParagraph(teller: Teller, challenge: Entity) {
  // The opening tells its trouble; later the story offers one only in the fact's chance.
  const about = teller.knowledgeAbout(challenge, undefined, { limit: 1, unasked: teller.story.turn > 0 });
  if (about.length === 0) return undefined;
  return teller.frame(`pressure\n${challenge.name}\n${about.join(" ")}`, FRAMES.pressure, (lead, closer) =>
    [fill(lead, teller.values({ trouble: challengePhrase(challenge) })), ...about, fill(closer, teller.values({}))].join(" "),
  );
}

/** Turns between two troubles the story brings up unasked. */
export const TROUBLE_EVERY_TURNS = 3;

/**
 * Every sentence about the world's troubles, one of each trouble in turn, then the second of each:
 * the story's own list of pressures, which it goes through in order.
 */
function troubleSentences(world: World): { challenge: Entity; sentence: string }[] {
  const each = world.challenges.map((challenge) => {
    const own = statement(challenge, { glossary: true });
    const about = sentencesAbout(world, challenge).filter((sentence) => between(sentence.indexOf(challenge.name), 0, 40));
    return [...new Set([...(own ? [own] : []), ...about])].filter(standsAlone).map((sentence) => ({ challenge, sentence }));
  });
  const longest = Math.max(0, ...each.map((list) => list.length));
  return Array.from({ length: longest }, (_, index) => each.flatMap((list) => list[index] ?? [])).flat();
}

/** The leads that name their trouble: all a trouble's coming up says once its sentences have been told. */
const NAMING_PRESSURE = { ...FRAMES.pressure, openers: FRAMES.pressure.openers.filter((lead) => lead.includes("{trouble}")) };

/**
 * The `count`-th trouble the story brings up: its next sentence, unless a visible reply said it or
 * the player is dealing with it. Once the list has gone round, every sentence has been told in
 * this story (the turn, which the scene line carries, says so even when those replies have left
 * the context): the trouble comes up again by name, without its sentence.
 */
export function troubleOfTheTurn(teller: Teller, count: number, dealtWith: Entity | undefined) {
  const list = troubleSentences(teller.world);
  const found = nth(list, count + teller.variant);
  if (!found || found.challenge === dealtWith || teller.said(found.sentence)) return undefined;
  const { challenge } = found;
  const sentence = count + teller.variant < list.length ? found.sentence : "";
  // Told again, the trouble moves someone its sentences name: the thread goes on with its own people.
  const tied = sentence
    ? undefined
    : nth(mentioned(teller.world.people, sentencesAbout(teller.world, challenge).join(" "), { people: true }), count);
  return teller.frame(`pressure\n${challenge.name}\n${sentence}`, sentence ? FRAMES.pressure : NAMING_PRESSURE, (lead, closer) =>
    [
      fill(lead, teller.values({ trouble: challengePhrase(challenge) })),
      sentence,
      fill(closer, teller.values(tied ? { someone: called(tied) } : {})),
    ]
      .filter(Boolean)
      .join(" "),
  );
}

export function aftermathParagraph(teller: Teller, key: string) {
  const place = nth(
    teller.world.places.filter((candidate) => candidate !== teller.story.place),
    teller.story.turn * 3 + hash(key),
  );
  const person = pickPerson(teller);
  if (!place || !person) return undefined;
  const { watch } = clockAt(teller.world, teller.story.turn);
  // Keyed on the place and the person only, so the same pair of them is framed anew for 56 turns.
  return teller.frame(`aftermath\n${place.name}\n${person.name}`, FRAMES.aftermath, (scene, closer) =>
    [fill(scene, teller.values({ place: midSentence(place.name), watch })), fill(closer, teller.values({ who: called(person) }))].join(" "),
  );
}

/** What the world says of someone, said aloud: the lead an answer that knows nothing else can still give. */
function factOf(teller: Teller, person: Entity | undefined) {
  const fact = person ? teller.knowledgeAbout(person, undefined, { limit: 1, unasked: true })[0] : undefined;
  return fact ? spoken([fact]) : "";
}

export function pickPerson(teller: Teller): Entity | undefined {
  const present = peopleAt(teller.world, teller.story.place);
  const pool = present.length > 0 && teller.random() < 0.6 ? present : peopleAround(teller.world, teller.story.place);
  return pool.length > 0 ? pick(teller.random, pool) : undefined;
}

/** A trouble to bring up: one with something to say about it that no reply the player can see has said. */
export function pickChallenge(teller: Teller): Entity | undefined {
  const challenges = teller.world.challenges.filter((challenge) => {
    const about = teller.knowledgeAbout(challenge, undefined, { limit: 1 })[0];
    return about !== undefined && !teller.said(about);
  });
  return nth(challenges, teller.story.turn + teller.variant);
}
