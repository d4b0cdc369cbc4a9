import { DEFAULT_SCAN_DEPTH, MAX_SCAN_DEPTH } from "#app/lib/lorebook.ts";
import { describe, expect, it } from "vitest";
import { characterCardPng, characterCardV3, composeInstructions, readCharacterCard } from "./character-cards.server.ts";
import type { JsonObject } from "../lib/worlds.ts";
import { InvalidInputError } from "./errors.server.ts";
import { readPngTexts } from "./png-text-chunks.server.ts";
import { png, v2Card, v3Card } from "#tests/helpers/character-cards.ts";

const base64 = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");
const json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8");

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as Error).message;
  }
  throw new Error("expected the card to be refused");
}

describe("reading a character card", () => {
  it("maps a V3 card's fields onto a world and keeps the rest", () => {
    const world = readCharacterCard(json(v3Card));
    expect(world.title).toBe("Empress Wu Zetian");
    expect(world.instructions).toBe(
      "{{char}} rules the Tang court from behind a jade screen.\n\nPersonality: Patient, calculating, quietly amused.\n\nScenario: {{user}} is a new lady-in-waiting summoned to the throne room at dawn.",
    );
    expect(world.description).toBe("{{user}} is a new lady-in-waiting summoned to the throne room at dawn.");
    expect(world.opening).toBe("*The screen slides aside.* You are late, little sparrow.");
    expect(world.alternativeOpenings).toEqual(["*Incense fills the hall.* Kneel.", "The Empress is reading a memorial when you enter."]);
    expect(world.tags).toEqual(["historical", "court intrigue"]);
    expect(world.creatorNotes).toBe("Works best with a slow, courtly pace.");
    expect(world.lorebook).toEqual([
      {
        title: "The gatekeeper",
        keys: "eunuch, Gao",
        content: "Gao Lishi controls who reaches the throne.",
        alwaysOn: false,
        priority: 10,
        enabled: true,
        // The card's keys and insertion_order as they were, to write back while the entry says the same.
        extra: {
          keys: ["eunuch", "Gao"],
          insertion_order: 10,
          extensions: { depth: 2 },
          use_regex: false,
          priority: 5,
          id: 1,
          comment: "The gatekeeper",
          selective: true,
          secondary_keys: ["palace"],
          position: "after_char",
        },
      },
      {
        title: "Untitled entry",
        keys: "",
        content: "The year is 690.",
        alwaysOn: true,
        priority: 0,
        enabled: false,
        extra: { keys: [], insertion_order: 0, extensions: {}, use_regex: false },
      },
    ]);
    expect(world.extra.data).toMatchObject({
      mes_example: v3Card.data.mes_example,
      nickname: "Zetian",
      system_prompt: "Write in the third person.",
    });
    expect(world.extra.data).not.toHaveProperty("creator_notes");
    expect(world.extra.book).toEqual({
      name: "The Tang court",
      scan_depth: 4,
      token_budget: 512,
      recursive_scanning: false,
      extensions: { world_info: true },
    });
  });

  it("bounds an entry's title and priority as the editor does, and writes the card's back while unedited", () => {
    const entry = { keys: [" /wyrms?/ ", "", "dragon"], content: "Vask sleeps.", name: "N".repeat(150), insertion_order: 5000.4 };
    const card = { ...v3Card, data: { ...v3Card.data, character_book: { entries: [entry] } } };
    const [read] = readCharacterCard(json(card)).lorebook;
    expect(read).toMatchObject({ title: "N".repeat(100), keys: "/wyrms?/, dragon", priority: 1000 });
    const written = characterCardV3({ ...readCharacterCard(json(card)) }).data as { character_book: { entries: unknown[] } };
    expect(written.character_book.entries[0]).toMatchObject({ keys: entry.keys, name: entry.name, insertion_order: 5000.4 });
    const edited = characterCardV3({ ...readCharacterCard(json(card)), lorebook: [{ ...read!, title: "Vask", priority: 7, keys: "dragon" }] })
      .data as {
      character_book: { entries: unknown[] };
    };
    expect(edited.character_book.entries[0]).toMatchObject({ keys: ["dragon"], name: "Vask", comment: "Vask", insertion_order: 7 });
  });

  it("takes the book's scan_depth as the lorebook's look-back, within the site's bounds, and writes the look-back back", () => {
    const withDepth = (scan_depth: unknown) => ({ ...v3Card, data: { ...v3Card.data, character_book: { scan_depth, entries: [] } } });
    expect(readCharacterCard(json(v3Card)).scanDepth).toBe(4);
    expect(readCharacterCard(json(withDepth(50))).scanDepth).toBe(MAX_SCAN_DEPTH);
    expect(readCharacterCard(json(withDepth(-3))).scanDepth).toBe(0);
    expect(readCharacterCard(json(withDepth("deep"))).scanDepth).toBe(DEFAULT_SCAN_DEPTH);
    const book = (world: ReturnType<typeof readCharacterCard>) =>
      (characterCardV3(world).data as { character_book: Record<string, unknown> }).character_book;
    expect(book({ ...readCharacterCard(json(v3Card)), scanDepth: 7 }).scan_depth).toBe(7);
    // A card without one gets one only when the creator moved it from the site's default.
    const bookless = { ...v3Card, data: { ...v3Card.data, character_book: { entries: [] } } };
    expect(book(readCharacterCard(json(bookless)))).not.toHaveProperty("scan_depth");
    expect(book({ ...readCharacterCard(json(bookless)), scanDepth: 5 }).scan_depth).toBe(5);
  });

  it("keeps creator notes out of the instructions the model is sent", () => {
    const world = readCharacterCard(json(v3Card));
    expect(world.instructions).not.toContain("courtly pace");
  });

  it("reads a V2 card from a PNG's chara chunk", () => {
    const world = readCharacterCard(png({ chara: base64(v2Card) }));
    expect(world.title).toBe("Lin, the sword cultivator");
    expect(world.instructions).toBe("A disciple of the Azure Peak sect.");
    expect(world.lorebook).toEqual([]);
  });

  it("prefers the ccv3 chunk to the chara chunk when a PNG has both", () => {
    const world = readCharacterCard(png({ chara: base64(v2Card), ccv3: base64(v3Card) }));
    expect(world.title).toBe("Empress Wu Zetian");
  });

  it("reads a card whose texts are not Latin (UTF-8 inside base64)", () => {
    const card = { ...v2Card, data: { ...v2Card.data, name: "武则天", first_mes: "你来晚了。" } };
    expect(readCharacterCard(png({ chara: base64(card) })).title).toBe("武则天");
  });
});

describe("writing a character card", () => {
  it("gives back an unedited V3 card exactly", () => {
    expect(characterCardV3(readCharacterCard(json(v3Card)))).toEqual(v3Card);
  });

  it("gives back a V2 card's data as V3, with V3's required fields added", () => {
    const card = characterCardV3(readCharacterCard(json(v2Card)));
    expect(card).toEqual({ spec: "chara_card_v3", spec_version: "3.0", data: { ...v2Card.data, group_only_greetings: [] } });
  });

  it("writes edited instructions as the description, the other two texts empty", () => {
    const world = { ...readCharacterCard(json(v3Card)), instructions: "New instructions." };
    expect(characterCardV3(world).data).toMatchObject({ description: "New instructions.", personality: "", scenario: "" });
  });

  it("writes a PNG whose ccv3 and chara chunks hold the card, and reads back as the same world", () => {
    const world = readCharacterCard(json(v3Card));
    const picture = characterCardPng(world, png({ ccv3: "stale", Comment: "kept" }));
    const texts = readPngTexts(picture, ["ccv3", "chara", "Comment"], "card");
    expect(JSON.parse(Buffer.from(texts.get("ccv3")!, "base64").toString("utf8"))).toEqual(v3Card);
    expect(JSON.parse(Buffer.from(texts.get("chara")!, "base64").toString("utf8"))).toMatchObject({
      spec: "chara_card_v2",
      data: { name: "Empress Wu Zetian" },
    });
    expect(texts.get("Comment")).toBe("kept");
    expect(readCharacterCard(picture)).toEqual(world);
  });

  it("composes instructions without empty parts", () => {
    expect(composeInstructions({ description: "", personality: "Bold.", scenario: " " })).toBe("Personality: Bold.");
  });
});

describe("refusing what is not a usable card", () => {
  const cases: [string, () => Buffer, string][] = [
    ["a PNG with no card", () => png(), "This PNG holds no character card (it has no ccv3 or chara text)."],
    [
      "a PNG cut short",
      () => png({ chara: base64(v2Card) }).subarray(0, 60),
      "The PNG file is cut short or damaged: its chunks do not fit the file.",
    ],
    [
      "a chunk that claims more bytes than the file has",
      () => {
        const bytes = Buffer.from(png({ chara: base64(v2Card) }));
        bytes.writeUInt32BE(0x7ffffff0, 33);
        return bytes;
      },
      "The PNG file is cut short or damaged: its chunks do not fit the file.",
    ],
    [
      "a card chunk whose checksum does not match",
      () => {
        const bytes = Buffer.from(png({ chara: base64(v2Card) }));
        const at = bytes.indexOf("chara\0", 0, "latin1") + 8;
        bytes.writeUInt8(bytes.readUInt8(at) ^ 1, at);
        return bytes;
      },
      'The PNG file\'s "chara" text is damaged (its checksum does not match).',
    ],
    ["bad base64", () => png({ chara: "not*base64!" }), 'The PNG\'s "chara" text is not valid base64, so the card in it cannot be read.'],
    [
      "base64 of bytes that are not UTF-8",
      () => png({ ccv3: Buffer.from([0xff, 0xfe, 0xfd]).toString("base64") }),
      'The PNG\'s "ccv3" text is not UTF-8 text, so the card in it cannot be read.',
    ],
    [
      "broken JSON",
      () => Buffer.from('{"spec": "chara_card_v2", "data": {'),
      "The card's JSON cannot be read: the file is damaged or is not a character card.",
    ],
    [
      "a picture that is not a PNG",
      () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
      "The file is neither a PNG picture nor JSON text, so it is not a character card.",
    ],
    ["JSON that is not an object", () => json([1, 2]), "The file is JSON but not a character card."],
    [
      "a V1 card (no spec)",
      () => json({ name: "Old", first_mes: "Hi" }),
      "The file has no character card spec; only character cards V2 and V3 can be imported.",
    ],
    [
      "another spec",
      () => json({ spec: "chara_card_v9", data: {} }),
      'The card says it follows "chara_card_v9"; only character cards V2 and V3 can be imported.',
    ],
    ["no name", () => json({ ...v2Card, data: { ...v2Card.data, name: " " } }), "The card's name is empty."],
    [
      "a name that is not text",
      () => json({ ...v2Card, data: { ...v2Card.data, name: 42 } }),
      "The card's name is not in the form the character card spec gives it.",
    ],
    [
      "a gigantic string",
      () => json({ ...v2Card, data: { ...v2Card.data, mes_example: "x".repeat(100_001) } }),
      "The card holds a text longer than 100,000 characters.",
    ],
    [
      "too long a first message",
      () => json({ ...v2Card, data: { ...v2Card.data, first_mes: "x".repeat(20_001) } }),
      "The card's first message is longer than 20000 characters.",
    ],
    [
      "too many tags",
      () => json({ ...v2Card, data: { ...v2Card.data, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) } }),
      "The card's tags has more than 20 items.",
    ],
    [
      "a lorebook entry without content",
      () => json({ ...v2Card, data: { ...v2Card.data, character_book: { entries: [{ keys: ["a"] }] } } }),
      "The card's lorebook content is not in the form the character card spec gives it.",
    ],
    [
      "a __proto__ key",
      () => Buffer.from(`{"spec":"chara_card_v2","data":{"name":"x","extensions":{"__proto__":{"polluted":true}}}}`),
      'The card has a field named "__proto__", which no character card has.',
    ],
    [
      "a constructor key",
      () => json({ ...v2Card, data: { ...v2Card.data, constructor: { prototype: {} } } }),
      'The card has a field named "prototype", which no character card has.',
    ],
    [
      "nesting deeper than a card needs",
      () => json({ ...v2Card, data: { ...v2Card.data, extensions: JSON.parse(`${"[".repeat(40)}${"]".repeat(40)}`) as unknown } }),
      "The card is nested deeper than a character card can be.",
    ],
    ["a JSON file over 2 MB", () => Buffer.alloc(2 * 1024 * 1024 + 1, 0x20), "A card's JSON may be at most 2 MB."],
  ];

  it.each(cases)("refuses %s with a sentence", (_name, file, sentence) => {
    expect(refusal(() => readCharacterCard(file()))).toBe(sentence);
  });

  it("leaves Object.prototype untouched by a hostile card", () => {
    refusal(() => readCharacterCard(Buffer.from(`{"__proto__":{"polluted":true},"spec":"chara_card_v2","data":{"name":"x"}}`)));
    expect(({} as JsonObject).polluted).toBeUndefined();
  });
});
