import type { StoryBrief } from "../story-brief.server.ts";
import { readWorld } from "./world.server.ts";

/** Lantern Harbor: a small game the offline storyteller's unit tests play (its prompt, a cast, places, a power, troubles, stats). */
export const brief: StoryBrief = {
  title: "Lantern Harbor",
  prompt: [
    "Fog lies on Lantern Harbor like wet wool. You are the new harbormaster's deputy, and tonight three ships are late.",
    "You are the Game Master of Lantern Harbor. Characters: Ilse Varga, the harbormaster who counts every ship; Oren Dask, a smuggler with debts; Mirela Stone, keeper of the Lamp Tower.",
    "Track the stats and show them like this: **Coin 40 · Favour 55 · Suspicion 10 · Purse 1,200 silver**. End every reply with 3 to 6 numbered choices.",
  ].join("\n\n"),
  sections: [
    {
      contentType: "world_setting",
      title: "The Harbor",
      content:
        "## Places\n\n- **The Salt Quay**: where the night boats unload crates nobody declares.\n- **The Lamp Tower**: the lighthouse whose keeper sees every ship.\n\n## Powers\n\n- **The Lamplighters' Guild**: they light the city and know its secrets.",
    },
    {
      contentType: "combat_mechanics",
      title: "Troubles",
      content:
        "## Troubles\n\n- **Customs raids**: the harbormaster's men search a warehouse at dawn.\n- **Storms**, which close the harbor for days.",
    },
  ],
};

export const world = readWorld(brief);

export function choicesOf(reply: string) {
  const lines = reply.trimEnd().split("\n");
  let start = lines.length;
  while (start > 0 && /^\d\. /.test(lines[start - 1] ?? "")) start -= 1;
  return lines.slice(start);
}
