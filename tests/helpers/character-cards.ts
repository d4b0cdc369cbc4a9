import { deflateSync } from "node:zlib";
import { pngChunk } from "./image-files.ts";

/** Character cards V2 and V3 shaped as their specs give them, written here by hand, and a PNG built byte by byte to carry them. */

export const v3Card = {
  spec: "chara_card_v3",
  spec_version: "3.0",
  data: {
    name: "Empress Wu Zetian",
    description: "{{char}} rules the Tang court from behind a jade screen.",
    personality: "Patient, calculating, quietly amused.",
    scenario: "{{user}} is a new lady-in-waiting summoned to the throne room at dawn.",
    first_mes: "*The screen slides aside.* You are late, little sparrow.",
    mes_example: "<START>\n{{user}}: Majesty.\n{{char}}: Rise.",
    creator_notes: "Works best with a slow, courtly pace.",
    system_prompt: "Write in the third person.",
    post_history_instructions: "Keep replies under 300 words.",
    alternate_greetings: ["*Incense fills the hall.* Kneel.", "The Empress is reading a memorial when you enter."],
    character_book: {
      name: "The Tang court",
      scan_depth: 4,
      token_budget: 512,
      recursive_scanning: false,
      extensions: { world_info: true },
      entries: [
        {
          keys: ["eunuch", "Gao"],
          content: "Gao Lishi controls who reaches the throne.",
          extensions: { depth: 2 },
          enabled: true,
          insertion_order: 10,
          use_regex: false,
          constant: false,
          priority: 5,
          id: 1,
          comment: "The gatekeeper",
          selective: true,
          secondary_keys: ["palace"],
          position: "after_char",
        },
        {
          keys: [],
          content: "The year is 690.",
          extensions: {},
          enabled: false,
          insertion_order: 0,
          use_regex: false,
          constant: true,
        },
      ],
    },
    tags: ["historical", "court intrigue"],
    creator: "jadescreen",
    character_version: "1.2",
    extensions: { talkativeness: "0.5", fav: false, depth_prompt: { depth: 4, prompt: "Stay regal." } },
    group_only_greetings: ["The court assembles."],
    nickname: "Zetian",
    source: ["https://example.com/cards/wu"],
    creation_date: 1_790_000_000,
    modification_date: 1_790_000_500,
    assets: [{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }],
  },
} as const;

export const v2Card = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Lin, the sword cultivator",
    description: "A disciple of the Azure Peak sect.",
    personality: "",
    scenario: "",
    first_mes: "The mountain mist parts.",
    mes_example: "",
    creator_notes: "",
    system_prompt: "",
    post_history_instructions: "",
    alternate_greetings: [],
    tags: ["cultivation"],
    creator: "",
    character_version: "",
    extensions: {},
  },
};

/** A 1×1 RGB PNG, byte by byte, with these tEXt chunks after its pixels. */
export function png(texts: Record<string, string> = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.from([0, 200, 30, 60]))),
    ...Object.entries(texts).map(([keyword, text]) => pngChunk("tEXt", Buffer.from(`${keyword}\0${text}`, "latin1"))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
