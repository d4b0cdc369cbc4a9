import type { WorldSection } from "../story-brief.server.ts";
import { addUnique, GROUP_WORDS, PLACE_WORDS, shortName, TITLE_WORDS } from "./names.server.ts";
import { cleanDetail, escapeRegExp, stripMarkdown } from "./text.server.ts";
import { type Entity, type Player } from "./world.server.ts";

/**
 * What a game's prompt says before its world content: the opening scene and its first events, who
 * the player is and how the world addresses them, and the cast it lists.
 */

// ---------------------------------------------------------------------------------------------
// The prompt: the opening, who the player is, the cast

export function promptParagraphs(prompt: string) {
  return prompt
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

export function openingScene(prompt: string, sections: WorldSection[]) {
  const firstParagraph = promptParagraphs(prompt)[0] ?? "";
  if (firstParagraph && !/^you are (the|a|an) /i.test(firstParagraph) && !/game master/i.test(firstParagraph)) {
    return firstParagraph;
  }
  const background = sections.find((section) => section.contentType === "story_background");
  const paragraph = background?.content.split(/\n\s*\n/).find((block) => block.trim() && !block.trim().startsWith("#") && !/^\s*[-*]/.test(block));
  return paragraph ? stripMarkdown(paragraph.trim()) : undefined;
}

/** "Begin with the morning audience: Marquis Mu asks…; Minister Qiao reports…; and the boy…" → its beats. */
export function openingBeats(prompt: string) {
  const match = /\bBegin (?:with|at|in) [^:.]+:\s*([^\n]+?)(?:\.\s+(?=[A-Z])|\.?$)/m.exec(prompt);
  if (!match) return [];
  return (match[1] ?? "")
    .split(";")
    .map((beat) => beat.trim().replace(/^and\s+/i, ""))
    .filter((beat) => beat.length > 0)
    .map((beat) => `${beat.charAt(0).toUpperCase()}${beat.slice(1)}`.replace(/[.]?$/, "."));
}

const HONORIFICS: [RegExp, string | undefined, string][] = [
  [/\b(empress|emperor|queen|king|dowager)\b/i, "Your Majesty", "Your Majesty"],
  [/\b(prince|princess)\b/i, "Your Highness", "Your Highness"],
  [/\bmatriarch\b/i, "Matriarch", "Matriarch"],
  [/\bpatriarch\b/i, "Patriarch", "Patriarch"],
  [/\bdeputy\b/i, "Deputy", "Deputy"],
  [/\bdisciple\b/i, undefined, "disciple"],
  [/\bstudent\b/i, undefined, "transfer student"],
  [/\b(unknown|newcomer|rookie|hopeful)\b/i, undefined, "newcomer"],
];

/** Who the player is: "decides what the Empress Dowager says", or the opening's "You are a sixteen-year-old outer disciple…". */
export function readPlayer(prompt: string, opening: string | undefined): Player {
  const decides = /decides what (the [A-Z][\p{L}'-]*(?: [A-Z][\p{L}'-]*)*) says\b/u.exec(prompt)?.[1];
  const youAre = /\byou are (?:now |his |her |their )?((?:the|a|an) [^,.;:]+?)(?=[,.;:]| with | who | sharing | arriving | and )/i.exec(
    opening ?? "",
  )?.[1];
  const role = decides ?? youAre?.replace(/\b(?:\w+-year-old|\d+-year-old)\s+/g, "").replace(/^a (?=[aeiou])/i, "an ");
  const [, honorific, vocative] = HONORIFICS.find(([pattern]) => role && pattern.test(role)) ?? [undefined, undefined, undefined];
  // "If they have not given a name, open the scene anyway… (the name on their outer disciple token is worn smooth)".
  const opensName = /\bif they have not given a name\b/i.test(prompt);
  const hint = opensName ? /\bif they have not given a name[^(]*\(([^)]*\bname[^)]*)\)/i.exec(prompt)?.[1] : undefined;
  const nameInvitation = opensName
    ? hint
      ? `${hint.charAt(0).toUpperCase()}${hint.slice(1).replace(/\btheir\b/g, "your")}.`
      : "No one here knows your name yet."
    : undefined;
  return { role, honorific, vocative, nameInvitation };
}

export const NAME_RUN = /([A-Z][\p{L}'’.-]*(?:\s+[A-Z][\p{L}'’.-]*)*)/u;
const RELATIVE = /^(?:and\s+)?(?:his|her|their)\s+(son|daughter|father|mother|brother|sister|husband|wife|nephew|niece|uncle|aunt)\s+/i;

/**
 * The cast a prompt lists: "Key figures: Rong Yuan, the Tianyou Emperor (8, …); Grand Empress
 * Dowager Hua (61, …); …", "Characters: …", "The household: …", "The children: Isolde (19, …),
 * Maelis (17, …) and Wren (6, …)", "Staff: Steward Mattias Crane and Mistress Perrine, …".
 */
export function promptCast(prompt: string): Entity[] {
  const cast: Entity[] = [];
  const lists = /\b(?:key figures|characters|cast|also|the household|household|the children|children|staff|outside|family|rivals)\s*:\s*/gi;
  for (const match of prompt.matchAll(lists)) {
    const start = match.index + match[0].length;
    const tail = prompt.slice(start).split("\n")[0] ?? "";
    // The list ends at the first full stop outside parentheses that is not a title's ("Mr.").
    let depth = 0;
    let end = tail.length;
    for (let index = 0; index < tail.length; index += 1) {
      const character = tail[index];
      if (character === "(") depth += 1;
      else if (character === ")") depth = Math.max(0, depth - 1);
      else if (character === "." && depth === 0 && !/\b(?:Mr|Mrs|Ms|Dr|St)$/.test(tail.slice(0, index)) && /^(\s|$)/.test(tail.slice(index + 1))) {
        end = index;
        break;
      }
    }
    const list = tail.slice(0, end);
    const segments = list.includes(";") ? list.split(";") : splitOutsideParentheses(list);
    for (const raw of segments) readCastSegment(raw.trim().replace(/^and\s+/i, ""), cast);
  }
  return cast;
}

/** "A (19, …), B (17, …) and C (6, …)" → its people; a comma inside parentheses or before lower-case words stays. */
function splitOutsideParentheses(list: string) {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (let index = 0; index < list.length; index += 1) {
    const character = list.charAt(index);
    if (character === "(") depth += 1;
    if (character === ")") depth = Math.max(0, depth - 1);
    const rest = list.slice(index);
    const splitsHere = depth === 0 && (/^\s+and\s+[A-Z]/.test(rest) || (/^,\s+(?:and\s+)?[A-Z]/.test(rest) && /\)\s*$/.test(current)));
    if (splitsHere) {
      parts.push(current);
      current = "";
      continue;
    }
    current += character;
  }
  parts.push(current);
  return parts;
}

function readCastSegment(segment: string, cast: Entity[]) {
  // "Consort Qiao (22, …) and her father Qiao Bingzhi, Minister of Revenue": two people.
  const relative = /^(.*?\))\s+and\s+((?:his|her|their)\s+\w+\s+.*)$/i.exec(segment);
  const main = relative ? (relative[1] ?? "") : segment;
  const name = NAME_RUN.exec(main.replace(/\([^)]*\)/g, " "))?.[1]?.replace(/\.$/, "");
  if (!name || /^(The|A|An)$/.test(name)) return;
  const core = name
    .split(/\s+/)
    .filter((word) => !TITLE_WORDS.has(word.toLowerCase()))
    .join(" ");
  if (!core || PLACE_WORDS.test(core) || GROUP_WORDS.test(core)) return;
  const single = !name.includes(" ");
  // A one-word name is a person only when an age or description follows it in parentheses.
  if (single && !new RegExp(`${escapeRegExp(name)}\\s*\\(`).test(main)) return;
  // A description in parentheses right after the name is the description ("Marquis Mu Tieyan (the boy's uncle, …)").
  const after = main
    .slice(main.indexOf(name) + name.length)
    .replace(/^[\s,]+/, "")
    .replace(/\.$/, "")
    .replace(/^\(((?!\d)[^)]*)\)/, "$1");
  const detail = cleanDetail(after).replace(/^,\s*/, "");
  addUnique(cast, { name, detail });
  if (relative) {
    const kin = RELATIVE.exec(relative[2] ?? "");
    const rest = (relative[2] ?? "").replace(RELATIVE, "");
    const kinName = NAME_RUN.exec(rest.replace(/\([^)]*\)/g, " "))?.[1];
    if (kin && kinName) {
      const after = cleanDetail(rest.slice(rest.indexOf(kinName) + kinName.length).replace(/^[\s,]+/, "")).replace(/^,\s*/, "");
      addUnique(cast, { name: kinName, detail: [`${shortName(name)}'s ${(kin[1] ?? "").toLowerCase()}`, after].filter(Boolean).join(", ") });
    }
  }
}
