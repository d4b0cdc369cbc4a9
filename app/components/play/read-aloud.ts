import { useSyncExternalStore } from "react";
import { speakableText } from "#app/lib/speakable-text.ts";
import { remembered, remember } from "./remembered.ts";

/**
 * Read aloud with the browser's own speech synthesis (free, nothing sent to a server), and the
 * player's choices about it, remembered in this browser: the voice, the speed, whether new
 * replies are read as they arrive. One reader for the page: a new reading stops the one before.
 */

export interface ReadAloudSettings {
  /** A voice's voiceURI; "" for the browser's default. */
  voice: string;
  rate: number;
  autoRead: boolean;
}

export const READING_SPEEDS = [0.75, 1, 1.25, 1.5, 2] as const;

const SETTINGS_KEY = "play.readAloud";
const DEFAULT_SETTINGS: ReadAloudSettings = { voice: "", rate: 1, autoRead: false };

let settings: ReadAloudSettings | null = null;
/** The message being read (its key), or null. */
let reading: string | null = null;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function readAloudSettings(): ReadAloudSettings {
  if (settings) return settings;
  const saved = remembered(SETTINGS_KEY) as Partial<ReadAloudSettings> | null;
  settings = {
    voice: typeof saved?.voice === "string" ? saved.voice : DEFAULT_SETTINGS.voice,
    rate: READING_SPEEDS.find((speed) => speed === saved?.rate) ?? DEFAULT_SETTINGS.rate,
    autoRead: saved?.autoRead === true,
  };
  return settings;
}

export function changeReadAloudSettings(change: Partial<ReadAloudSettings>) {
  settings = { ...readAloudSettings(), ...change };
  remember(SETTINGS_KEY, settings);
  changed();
}

const synthesis = () => (typeof window !== "undefined" && "speechSynthesis" in window ? window.speechSynthesis : null);

export function canReadAloud() {
  return synthesis() !== null;
}

/** Reads a reply aloud, as speakable text, stopping whatever was being read. */
export function readAloud(key: string, reply: string) {
  const speech = synthesis();
  const text = speakableText(reply);
  if (!speech || !text) return;
  speech.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  const { voice, rate } = readAloudSettings();
  const chosen = speech.getVoices().find((candidate) => candidate.voiceURI === voice);
  if (chosen) utterance.voice = chosen;
  utterance.rate = rate;
  const finished = () => {
    if (reading !== key) return;
    reading = null;
    changed();
  };
  utterance.addEventListener("end", finished);
  utterance.addEventListener("error", finished);
  reading = key;
  changed();
  speech.speak(utterance);
}

export function stopReading() {
  synthesis()?.cancel();
  if (reading === null) return;
  reading = null;
  changed();
}

/** The key of the message being read, live (null on the server). */
export function useReading(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => reading,
    () => null,
  );
}

/** The read-aloud settings, live (the defaults on the server). */
export function useReadAloudSettings(): ReadAloudSettings {
  return useSyncExternalStore(subscribe, readAloudSettings, () => DEFAULT_SETTINGS);
}
