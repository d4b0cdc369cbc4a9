import { plainChoice, splitStoryChoices } from "./story-choices.ts";

/**
 * A Game Master reply as it should be read aloud: Markdown's marks, links' addresses and
 * pictures left out, list markers and rules dropped, and the closing choices announced in words
 * ("Choice 1: …") rather than read as "1 dot". Speech synthesis reads every symbol it is given.
 */
export function speakableText(reply: string): string {
  const { body, choices } = splitStoryChoices(reply);
  const paragraphs = body
    .split(/\n[ \t]*\n/)
    .map((paragraph) => speakableParagraph(paragraph))
    .filter((paragraph) => paragraph !== "");
  const offered = choices.map((choice, index) => `Choice ${index + 1}: ${closedSentence(choice)}`);
  return [...paragraphs, ...offered].join("\n\n");
}

function speakableParagraph(paragraph: string): string {
  const lines = paragraph
    .split("\n")
    .map((line) =>
      plainChoice(
        line
          .replace(/<[^>]+>/g, " ")
          .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
          .replace(/^\s*(?:[-*_]\s*){3,}$/, "")
          .replace(/^\s*#{1,6}\s+/, "")
          .replace(/^\s*>\s?/, "")
          .replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/, ""),
      )
        // What plainChoice leaves of emphasis inside words and of unpaired marks.
        .replace(/[*_`~#|]+/g, " ")
        .replace(/\s{2,}/g, " ")
        .trim(),
    )
    .filter((line) => line !== "");
  // Lines of a list or a verse are read as sentences, each with its pause.
  return lines.map((line, index) => (index < lines.length - 1 ? closedSentence(line) : line)).join(" ");
}

function closedSentence(text: string): string {
  return /[.!?…:;,]$/.test(text) ? text : `${text}.`;
}
