import type { StoryBrief } from "../story-brief.server.ts";
import { promptParagraphs } from "./cast.server.ts";
import { PERSON_DETAIL, shortName } from "./names.server.ts";
import { cleanDetail, isAboutTheGame, playerAsYou, splitSentences, stripMarkdown } from "./text.server.ts";
import type { Entity } from "./world.server.ts";

/**
 * What the world's content says, as sentences a narrator can use: each bold name's description as
 * a statement ("The Cold Palace is a quiet courtyard…"), and every other sentence about the world.
 */

/** "The Cold Palace: a quiet courtyard…" → "The Cold Palace is a quiet courtyard…", as a sentence a narrator can say. */
export function statement(entity: Entity, { person = false, glossary = false } = {}): string | undefined {
  let detail = entity.detail.replace(/[.!?]?$/, ".");
  if (!entity.detail) return undefined;
  const name = entity.name.charAt(0).toUpperCase() + entity.name.slice(1);
  // "Iron Gate Pass, the only road…" → "Iron Gate Pass is the only road…", unless a verb follows ("Xue Wuya, the Saintess, knows…").
  const appositive = /^,\s+((?:the|a|an|home|seat|domain|for|\w+ly)\b.*|[A-Z][\p{L}'’ -]*'s\b.*)$/u.exec(detail);
  if (appositive && !/,\s+(?!who\b|which\b|where\b)[a-z]+s\b/.test(appositive[1] ?? "")) detail = appositive[1] ?? detail;
  else if (/^,\s+where\b/.test(detail)) detail = detail.replace(/^,\s+/, "");
  else if (detail.startsWith(",")) return `${name}${detail}`;
  // "Blood Lotus Sect and its Saintess Xue Wuya" names two things and says nothing of either.
  if (!person && /^and\b/.test(detail)) return undefined;
  if (/^where\b/.test(detail)) return `${name} is ${detail}`;
  if (/^(which|whose|who|that)\b/.test(detail)) return `${name}, ${detail}`;
  // A trouble reads as a glossary entry ("Consort rivalry: a seat at the head of the table, …").
  if (glossary && !PERSON_DETAIL.test(detail) && !/^(in|at|on|of|with)\b/.test(detail)) return `${name}: ${detail}`;
  // "The Temple of the Undying Lamp on the Isle of Vigils, where…" → "… is on the Isle of Vigils, where…".
  if (!glossary && !person && /^(in|at|on|beside|behind|beneath|near|inside|east|west|north|south)\b/.test(detail)) {
    return `${name} ${/[^s]s$/.test(shortName(entity.name)) ? "are" : "is"} ${detail}`;
  }
  if (/^(are|were|sits|lies|stands|in|at|on|from|for|with|of|to)\b/.test(detail) || PERSON_DETAIL.test(detail)) return `${name} ${detail}`;
  const article =
    /^(a|an|the|your|his|her|their|its|one|two|three|home|seat|domain|keeper|keepers|leader|head|master|mistress|mother|father|son|daughter)\b/;
  // "Empty coffers: the Northern Army's winter pay is 400,000 taels short" is a clause, not a description.
  const head = detail.split(/,|;|\b(?:where|which|who|whose|that)\b/)[0] ?? "";
  const clause = /\b(is|are|was|were|has|have|probe|posts?)\b/.test(head);
  if (!clause && (article.test(detail) || /^[\w-]+ years old\b/.test(detail) || /^[A-Z][\p{L}'’-]*'s\b/u.test(detail))) {
    const plural = /[^s]s$/.test(shortName(entity.name)) && !/\b(pass|marches|mass)$/i.test(entity.name);
    // "Plots are a second prince…" reads wrong; "Plots: a second prince…" does not.
    if (!(plural && /^(a|an|one)\b/i.test(detail))) return `${name} ${plural ? "are" : "is"} ${detail}`;
  }
  // A person's title or trade ("Prince of Jing, thirty years old, …"; "a dry-witted pianist of the Astronomy Club").
  if (person) {
    const first = detail.split(",")[0] ?? "";
    const needsArticle =
      /^[a-z]/.test(detail) && first.split(/\s+/).length >= 2 && !/^(an?|the|your|his|her|their|its|one|\w+ years old)\b/.test(first);
    return `${name} is ${needsArticle ? (/^[aeiou]/i.test(detail) ? "an " : "a ") : ""}${detail}`;
  }
  return `${name}: ${detail}`;
}

/** The sentences of the world's content and of the prompt's "The world: …" paragraph, as the player's "you". */
export function readKnowledge(brief: StoryBrief, statLabels: string[], castNames: Set<string>): string[] {
  const found: string[] = [];
  const add = (sentence: string) => {
    const clean = stripMarkdown(playerAsYou(sentence))
      .replace(/"([^"]*)"/g, "“$1”")
      .replace(/\s+/g, " ")
      .replace(/\s*\((?:the |an? )?[^)]*\)/g, "")
      .trim();
    if (clean.length < 25 || clean.length > 320) return;
    if (isAboutTheGame(clean, statLabels, brief.title)) return;
    if (!/[.!]$/.test(clean)) return;
    if (!found.includes(clean)) found.push(clean);
  };
  for (const section of brief.sections) {
    // Stats and rules are about the game; a challenge list is the only part of its rules a story tells.
    if (section.contentType === "character_progression") continue;
    for (const block of section.content.split(/\n\s*\n/)) {
      for (const line of block.split("\n")) {
        if (/^#{1,6}\s/.test(line.trim())) continue;
        if (section.contentType === "combat_mechanics" && !/^\s*[-*+]\s/.test(line)) continue;
        const bullet = /^\s*[-*+]\s+\*\*([^*]+?)\*\*\s*[:—–-]?\s*(.*)$/.exec(line);
        if (bullet) {
          // "- **The Cold Palace**: a quiet courtyard…. Second sentence." → a statement, then the rest as written.
          const [first = "", ...rest] = splitSentences(stripMarkdown(bullet[2] ?? ""));
          const said = statement(
            { name: (bullet[1] ?? "").replace(/[.:,]$/, ""), detail: cleanDetail(playerAsYou(first)) },
            { glossary: section.contentType === "combat_mechanics" },
          );
          if (said) add(said);
          rest.forEach(add);
          continue;
        }
        splitSentences(line.replace(/^\s*[-*+]\s+/, "")).forEach(add);
      }
    }
  }
  // "The world: the capital Anxiang on the Jade Belt River; the Palace of Ninefold Clouds, with …": one fact per part.
  for (const paragraph of promptParagraphs(brief.prompt)) {
    if (!/^the world\s*:/i.test(paragraph)) continue;
    for (const sentence of splitSentences(paragraph.replace(/^the world\s*:\s*/i, "").replace(/\s*\([^)]*\)/g, ""))) {
      if (/\b(key figures|characters|also|the household|the children|staff|outside)\s*:/i.test(sentence)) continue;
      for (const part of sentence.split(";")) {
        const text = part.trim().replace(/^and\s+/i, "");
        // "Places: the Misty Beast Forest, …" lists what the content describes better; a part without a verb is a label.
        if ([...castNames].some((name) => text.startsWith(name)) || /^[A-Z][\w ]{0,20}:\s/.test(text)) continue;
        const verb =
          /\b(is|are|was|were|has|have|had|keeps?|holds?|needs?|rules?|lies|lie|stands?|runs?|sits?|governs?|leads?|opens?|earns?|guards?|serves?|sells?|buys?)\b/.exec(
            text,
          );
        if (!verb || (text.slice(0, verb.index).match(/,/g) ?? []).length >= 2) continue;
        add(`${text.charAt(0).toUpperCase()}${text.slice(1)}`.replace(/[.]?$/, "."));
      }
    }
  }
  return found;
}
